-- A user theme becomes a partial caption style over a template; a project may carry its own.
ALTER TABLE "UserTheme" ADD COLUMN "basedOn" TEXT,
ADD COLUMN "style" JSONB NOT NULL DEFAULT '{}';

-- the old style columns, each a field of the caption style (null: the template's)
UPDATE "UserTheme" SET "style" = jsonb_strip_nulls(jsonb_build_object(
  'font', NULLIF(jsonb_strip_nulls(jsonb_build_object(
    'family', "font",
    'size', "fontSize",
    'case', CASE WHEN "uppercase" IS NULL THEN NULL WHEN "uppercase" THEN 'upper' ELSE 'asSpoken' END
  )), '{}'::jsonb),
  'fill', "primaryColor",
  'outline', CASE WHEN "outlineColor" IS NULL THEN NULL ELSE jsonb_build_object('color', "outlineColor") END,
  'box', CASE WHEN "backgroundColor" IS NULL OR "backgroundColor" = '' THEN NULL ELSE jsonb_build_object('color', "backgroundColor", 'padding', 12) END,
  'layout', CASE WHEN "wordsPerLine" IS NULL THEN NULL ELSE jsonb_build_object('wordsPerLine', "wordsPerLine") END,
  'activeWord', NULLIF(jsonb_strip_nulls(jsonb_build_object('effect', "highlightStyle", 'color', "highlightColor")), '{}'::jsonb)
));
-- an emptied background meant no box
UPDATE "UserTheme" SET "style" = "style" || '{"box": null}'::jsonb WHERE "backgroundColor" = '';

ALTER TABLE "UserTheme" DROP COLUMN "backgroundColor",
DROP COLUMN "font",
DROP COLUMN "fontSize",
DROP COLUMN "highlightColor",
DROP COLUMN "highlightStyle",
DROP COLUMN "outlineColor",
DROP COLUMN "primaryColor",
DROP COLUMN "uppercase",
DROP COLUMN "wordsPerLine";

ALTER TABLE "Project" ADD COLUMN "captionStyle" JSONB;
