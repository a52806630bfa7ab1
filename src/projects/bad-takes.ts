/**
 * Bad takes are found once per transcript, by the step that writes it (the
 * transcription, an update of the words or of removeBadTakes, or the first
 * export of an older project), and stored with the project: reads such as
 * `Project.captions` never call the detector, which may be an outside AI service.
 */
import { z } from 'zod';
import type { App } from '../app.js';
import { jsonColumn } from '../db/json.js';
import type { Project } from '../generated/prisma/client.ts';
import { badTakeCuts, repeatedPhraseDetector } from '../media/render/timeline.js';
import type { Segment, TimedWord } from '../media/transcript.js';

/** Project.badTakes: null until detected for the current transcript */
export const badTakesColumn = jsonColumn<Segment[] | null>('Project.badTakes', z.array(z.looseObject({ start: z.number(), end: z.number() })).nullable());

/** The stored cuts, or null when none were detected for the current transcript. */
export const storedBadTakes = (p: Pick<Project, 'badTakes'>): Segment[] | null => badTakesColumn.read(p.badTakes);

/** The configured detector's cuts, to store with the transcript. */
export const detectBadTakes = (app: Pick<App, 'ai'>, words: readonly TimedWord[]): Promise<Segment[]> => badTakeCuts(words, app.ai.takes);

/**
 * The cuts a read shows: the stored ones; a project transcribed before they were
 * stored gets the offline detector's, which needs no outside service.
 */
export async function badTakesForRead(p: Pick<Project, 'badTakes'>, words: readonly TimedWord[]): Promise<Segment[]> {
  return storedBadTakes(p) ?? badTakeCuts(words, repeatedPhraseDetector());
}
