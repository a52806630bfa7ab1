-- AlterTable
ALTER TABLE "Project" DROP COLUMN "createdViaApi";
