-- A project draws its preset's saved logo and colour filter.
ALTER TABLE "Project" ADD COLUMN "logo" JSONB,
ADD COLUMN "colorFilter" JSONB;
