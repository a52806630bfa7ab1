-- CreateEnum
CREATE TYPE "AccountStatus" AS ENUM ('connected', 'disconnected');

-- AlterTable
ALTER TABLE "Post" ADD COLUMN     "progress" JSONB;

-- AlterTable
ALTER TABLE "SocialAccount" ADD COLUMN     "status" "AccountStatus" NOT NULL DEFAULT 'connected',
ADD COLUMN     "statusReason" TEXT,
ADD COLUMN     "tokenExpiresAt" TIMESTAMP(3),
ADD COLUMN     "tokens" TEXT;

-- CreateTable
CREATE TABLE "OAuthAttempt" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "platform" "Platform" NOT NULL,
    "codeVerifier" TEXT,
    "returnUrl" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OAuthAttempt_expiresAt_idx" ON "OAuthAttempt"("expiresAt");
