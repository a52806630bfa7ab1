-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "badTakes" JSONB;
