/**
 * The AI features behind interfaces, chosen by the config (src/config.ts) and
 * built once by the runtime, which hands them to services as `app.ai`:
 *
 * - B-roll (`BROLL_PROVIDER`): `offline` (default) renders an animated title
 *   card with ffmpeg (broll.ts); `openai` asks a service speaking the OpenAI
 *   videos API (video.ts: OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_VIDEO_MODEL,
 *   default sora-2). Any other value, or `openai` without a key, is refused
 *   when a clip is first generated.
 * - Bad takes (`BAD_TAKES_PROVIDER`): `offline` (default) cuts repeated
 *   phrases (src/media/render/timeline.ts); `openai` asks an OpenAI-compatible
 *   chat-completions server (takes.ts: OPENAI_BASE_URL, OPENAI_API_KEY,
 *   OPENAI_BAD_TAKES_MODEL, default gpt-4o-mini) and falls back to the offline
 *   detector on any failure.
 * - Hook titles (`HOOK_WRITER`): `offline` (default) takes the first sentence
 *   of the transcript; `openai` asks an OpenAI-compatible chat-completions
 *   server (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_HOOK_MODEL, default
 *   gpt-4o-mini) and falls back to the offline writer on any failure.
 * - Magic-clip scores and titles (`CLIP_SCORER`): `offline` (default) scores
 *   with the rules of clip-scoring.ts (SCORING_RULES) and titles each clip
 *   from its strongest sentence; `openai` asks an OpenAI-compatible
 *   chat-completions server (clips.ts: OPENAI_BASE_URL, OPENAI_API_KEY,
 *   OPENAI_CLIP_MODEL, default gpt-4o-mini) and falls back to the offline
 *   scorer on any failure.
 */
import path from 'node:path';
import type { Config } from '../config.js';
import { TitleCardBroll, type BrollGenerator } from './broll.js';
import { ChatCompletionsClipScorer } from './clips.js';
import { ChatCompletionsHook, StrongestLineHook, type HookWriter } from './hook.js';
import { ChatCompletionsTakeDetector } from './takes.js';
import { VideosApiBroll } from './video.js';
import { repeatedPhraseDetector, type TakeDetector } from '../media/render/timeline.js';
import { OfflineClipScorer, type ClipScorer } from './clip-scoring.js';

export { BrollError, TitleCardBroll, type BrollGenerator, type BrollOptions } from './broll.js';
export { ChatCompletionsTakeDetector, parseTakeRanges } from './takes.js';
export { VideosApiBroll } from './video.js';
export { ChatCompletionsClipScorer, parseClipScores } from './clips.js';
export { ChatCompletionsHook, StrongestLineHook, HOOK_MAX_CHARS, transcriptText, trimAtWord, type HookWriter } from './hook.js';

/** The AI features of a process: `app.ai`. */
export interface AiProviders {
  broll: BrollGenerator;
  hook: HookWriter;
  takes: TakeDetector;
  clips: ClipScorer;
}

type AiConfig = Pick<Config, 'ai' | 'openai' | 'dataDir'>;

const DEFAULT_BASE_URL = 'https://api.openai.com';

export function createAiProviders(config: AiConfig): AiProviders {
  return { broll: brollGenerator(config), hook: hookWriter(config), takes: takeDetector(config), clips: clipScorer(config) };
}

/** A provider that cannot be built refuses each clip with the reason, so only B-roll work fails. */
function brollGenerator(config: AiConfig): BrollGenerator {
  const { broll: provider } = config.ai;
  const { apiKey, baseUrl, videoModel } = config.openai;
  const workDir = path.join(config.dataDir, 'tmp');
  if (provider === 'offline') return new TitleCardBroll(workDir);
  if (provider === 'openai' && apiKey) return new VideosApiBroll({ baseUrl: baseUrl ?? DEFAULT_BASE_URL, apiKey, model: videoModel, workDir });
  const reason =
    provider === 'openai'
      ? 'BROLL_PROVIDER "openai" needs OPENAI_API_KEY'
      : `BROLL_PROVIDER "${provider}" is not available; the B-roll providers are "offline" and "openai"`;
  return { generate: async () => Promise.reject(new Error(reason)) };
}

/** The bad-take detector of removeBadTakes. */
function takeDetector({ ai, openai }: AiConfig): TakeDetector {
  if (ai.badTakes === 'openai' && openai.apiKey) {
    return new ChatCompletionsTakeDetector({ baseUrl: openai.baseUrl ?? DEFAULT_BASE_URL, apiKey: openai.apiKey, model: openai.badTakesModel });
  }
  return repeatedPhraseDetector();
}

function hookWriter({ ai, openai }: AiConfig): HookWriter {
  if (ai.hook === 'openai' && openai.apiKey) {
    return new ChatCompletionsHook({ baseUrl: openai.baseUrl ?? DEFAULT_BASE_URL, apiKey: openai.apiKey, model: openai.hookModel });
  }
  return new StrongestLineHook();
}

/** The scorer of magic clips' moments. */
function clipScorer({ ai, openai }: AiConfig): ClipScorer {
  if (ai.clips === 'openai' && openai.apiKey) {
    return new ChatCompletionsClipScorer({ baseUrl: openai.baseUrl ?? DEFAULT_BASE_URL, apiKey: openai.apiKey, model: openai.clipModel });
  }
  return new OfflineClipScorer();
}
