-- AlterTable
ALTER TABLE "Export" ADD COLUMN     "autoRender" BOOLEAN NOT NULL DEFAULT false;
