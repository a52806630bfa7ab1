-- A publication outlives its project: deleting a project keeps its published
-- posts in the listing, with the project's id and the title it had.

-- DropForeignKey
ALTER TABLE "Publication" DROP CONSTRAINT "Publication_projectId_fkey";

-- AlterTable: the title as it is now, for the publications already made
ALTER TABLE "Publication" ADD COLUMN     "projectTitle" TEXT NOT NULL DEFAULT '';
UPDATE "Publication" p SET "projectTitle" = pr.title FROM "Project" pr WHERE pr.id = p."projectId";
ALTER TABLE "Publication" ALTER COLUMN "projectTitle" DROP DEFAULT;

-- CreateIndex
CREATE INDEX "Publication_projectId_idx" ON "Publication"("projectId");
