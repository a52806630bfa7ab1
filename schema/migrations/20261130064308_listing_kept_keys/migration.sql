-- A traversal of the publications listing begun two or more settlements ago reads its day's keys through an index.

-- CreateTable
CREATE TABLE "PublicationKeptKey" (
    "day" DATE NOT NULL,
    "publicationId" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "views" INTEGER NOT NULL,
    "engagement" INTEGER NOT NULL,

    CONSTRAINT "PublicationKeptKey_pkey" PRIMARY KEY ("day","publicationId")
);

-- CreateIndex
CREATE INDEX "PublicationKeptKey_userId_day_views_publicationId_idx" ON "PublicationKeptKey"("userId", "day", "views", "publicationId");

-- CreateIndex
CREATE INDEX "PublicationKeptKey_userId_day_engagement_publicationId_idx" ON "PublicationKeptKey"("userId", "day", "engagement", "publicationId");

-- AddForeignKey
ALTER TABLE "PublicationKeptKey" ADD CONSTRAINT "PublicationKeptKey_publicationId_fkey" FOREIGN KEY ("publicationId") REFERENCES "Publication"("id") ON DELETE CASCADE ON UPDATE CASCADE;
