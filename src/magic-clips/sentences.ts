/** A transcript's sentences (src/media/sentences.ts), the units a magic clip starts and ends on, named here as the domain uses them. */
export { PAUSE_SECONDS, sentencesOf } from '../media/sentences.js';
