-- AlterTable
ALTER TABLE "MagicClip" ADD COLUMN     "cropPath" JSONB,
ADD COLUMN     "failureReason" TEXT;
