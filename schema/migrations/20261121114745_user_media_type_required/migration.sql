-- AlterTable
ALTER TABLE "UserMedia" ALTER COLUMN "type" SET NOT NULL;
