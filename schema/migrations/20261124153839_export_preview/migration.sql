-- AlterTable
ALTER TABLE "Export" ADD COLUMN     "previewKey" TEXT;

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "previewKey" TEXT;
