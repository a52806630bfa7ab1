-- AlterTable
ALTER TABLE "MetricsSettlement" ADD COLUMN     "previousDay" DATE;

-- AlterTable
ALTER TABLE "Publication" ADD COLUMN     "previousSettledEngagement" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "previousSettledViews" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Publication_userId_previousSettledViews_id_idx" ON "Publication"("userId", "previousSettledViews", "id");

-- CreateIndex
CREATE INDEX "Publication_userId_previousSettledEngagement_id_idx" ON "Publication"("userId", "previousSettledEngagement", "id");
