-- AlterTable
ALTER TABLE "Post" ADD COLUMN     "clicks" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "comments" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "impressions" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "leaseUntil" TIMESTAMP(3),
ADD COLUMN     "likes" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "nextAttemptAt" TIMESTAMP(3),
ADD COLUMN     "platformRef" TEXT,
ADD COLUMN     "reach" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "shares" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "views" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Publication" ADD COLUMN     "engagement" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "mediaKey" TEXT NOT NULL,
ADD COLUMN     "settledEngagement" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "settledViews" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "views" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ProfileMetricsDaily" (
    "profileId" UUID NOT NULL,
    "platform" "Platform" NOT NULL,
    "day" DATE NOT NULL,
    "views" BIGINT NOT NULL DEFAULT 0,
    "likes" BIGINT NOT NULL DEFAULT 0,
    "comments" BIGINT NOT NULL DEFAULT 0,
    "shares" BIGINT NOT NULL DEFAULT 0,
    "impressions" BIGINT NOT NULL DEFAULT 0,
    "reach" BIGINT NOT NULL DEFAULT 0,
    "clicks" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "ProfileMetricsDaily_pkey" PRIMARY KEY ("profileId","day","platform")
);

-- CreateTable
CREATE TABLE "MetricsSettlement" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "day" DATE NOT NULL,

    CONSTRAINT "MetricsSettlement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SandboxUpload" (
    "ref" TEXT NOT NULL,
    "postId" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "bytes" BIGINT NOT NULL,
    "checks" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "platformPostId" TEXT,
    "publishedAt" TIMESTAMP(3),

    CONSTRAINT "SandboxUpload_pkey" PRIMARY KEY ("ref")
);

-- CreateIndex
CREATE UNIQUE INDEX "SandboxUpload_platformPostId_key" ON "SandboxUpload"("platformPostId");

-- CreateIndex
CREATE INDEX "SandboxUpload_postId_idx" ON "SandboxUpload"("postId");

-- CreateIndex
CREATE INDEX "Post_publishStatus_nextAttemptAt_idx" ON "Post"("publishStatus", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Publication_userId_settledViews_id_idx" ON "Publication"("userId", "settledViews", "id");

-- CreateIndex
CREATE INDEX "Publication_userId_settledEngagement_id_idx" ON "Publication"("userId", "settledEngagement", "id");

-- CreateIndex
CREATE INDEX "Publication_status_publishedAt_idx" ON "Publication"("status", "publishedAt");

-- AddForeignKey
ALTER TABLE "ProfileMetricsDaily" ADD CONSTRAINT "ProfileMetricsDaily_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The settlement starts at the day of the migration: no day before it has metrics yet.
INSERT INTO "MetricsSettlement" ("id", "day") VALUES (1, (now() AT TIME ZONE 'UTC')::date);
