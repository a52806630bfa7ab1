-- Two people on screen in a reframed picture: follow the one speaking, or both stacked (null: auto).

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "speakerLayout" TEXT;
