-- CreateTable
CREATE TABLE "HeardAudio" (
    "userId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "words" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HeardAudio_pkey" PRIMARY KEY ("userId","key")
);

-- CreateIndex
CREATE INDEX "HeardAudio_createdAt_idx" ON "HeardAudio"("createdAt");

-- AddForeignKey
ALTER TABLE "HeardAudio" ADD CONSTRAINT "HeardAudio_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
