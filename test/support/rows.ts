/** Rows straight in the database, for states the API reaches only slowly. */
import type { Db } from '../../src/db/client.js';

/** The video metadata of a 320x240, 8 s source, as the pipeline stores it. */
export const SOURCE_META = { width: 320, height: 240, duration: 8, fps: 30, rotation: 0, hasAudio: true, size: 1, formatName: 'mov,mp4' };

/** A completed, transcribed project of `userId` holding `words`; `data` sets any other column. */
export function transcribedRow(db: Db, userId: string, words: unknown[], data: Record<string, unknown> = {}) {
  return db.project.create({
    data: {
      userId,
      title: 'Row',
      language: 'en',
      templateName: 'classic',
      status: 'completed',
      transcriptionStatus: 'COMPLETED',
      transcript: words,
      videoMeta: SOURCE_META,
      ...data,
    } as never,
  });
}
