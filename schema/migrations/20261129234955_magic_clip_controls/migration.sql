-- Magic clips a creator controls: how many, about what, from which part of
-- the source, in which shape, with a hook per clip; each clip says why it
-- scored as it did and where it ranks.

-- AlterTable
ALTER TABLE "MagicClip" ADD COLUMN     "hookTitle" JSONB,
ADD COLUMN     "rank" INTEGER,
ADD COLUMN     "topicMatch" DOUBLE PRECISION,
ADD COLUMN     "viralityReasons" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- The clips made before are ranked by their total score, as they were chosen
UPDATE "MagicClip" AS c SET "rank" = r."rank"
FROM (
  SELECT id, row_number() OVER (PARTITION BY "projectId" ORDER BY ("viralityScores"->>'total')::int DESC, "startTime", id) AS "rank"
  FROM "MagicClip"
) AS r
WHERE c.id = r.id;

ALTER TABLE "MagicClip" ALTER COLUMN "rank" SET NOT NULL;

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "aspectRatio" TEXT,
ADD COLUMN     "clipCount" INTEGER,
ADD COLUMN     "clipRange" JSONB,
ADD COLUMN     "clipTopic" TEXT,
ADD COLUMN     "clipsNote" TEXT;
