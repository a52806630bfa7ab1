-- Every magic clip is an edit project of its own (its window of the long source), and any
-- project can follow its speaker's face when reframed to another shape.

-- AlterTable
ALTER TABLE "MagicClip" ADD COLUMN     "editProjectId" UUID;

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "faceTrackKey" TEXT,
ADD COLUMN     "reframe" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "MagicClip_editProjectId_key" ON "MagicClip"("editProjectId");

-- AddForeignKey
ALTER TABLE "MagicClip" ADD CONSTRAINT "MagicClip_editProjectId_fkey" FOREIGN KEY ("editProjectId") REFERENCES "Project"("id") ON DELETE SET NULL ON UPDATE CASCADE;
