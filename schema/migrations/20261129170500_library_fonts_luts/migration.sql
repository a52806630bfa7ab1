-- Fonts (TTF, OTF) and colour LUTs (.cube) join the media library.
ALTER TYPE "MediaType" ADD VALUE IF NOT EXISTS 'FONT';
ALTER TYPE "MediaType" ADD VALUE IF NOT EXISTS 'LUT';
