/**
 * Scores and titles of candidate clips: the offline scorer and its rules
 * belong to the AI features (src/ai/clip-scoring.ts), which offer them beside
 * the chat-model scorer; named here as the domain uses them.
 */
export {
  OfflineClipScorer,
  SCORING_RULES,
  SentenceCache,
  SentenceRater,
  titleFrom,
  totalOf,
  type ClipScore,
  type ClipScorer,
  type ClipScoringContext,
} from '../ai/clip-scoring.js';
