/**
 * The AI features behind interfaces, chosen by environment:
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
 *   detector on any failure. Loading this module makes it badTakeCuts' default.
 * - Hook titles (`HOOK_WRITER`): `offline` (default) takes the first sentence
 *   of the transcript; `openai` asks an OpenAI-compatible chat-completions
 *   server (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_HOOK_MODEL, default
 *   gpt-4o-mini) and falls back to the offline writer on any failure.
 */
import path from 'node:path';
import type { App } from '../app.js';
import { TitleCardBroll, type BrollGenerator } from './broll.js';
import { ChatCompletionsHook, FirstSentenceHook, type HookWriter } from './hook.js';
import { ChatCompletionsTakeDetector } from './takes.js';
import { VideosApiBroll } from './video.js';
import { repeatedPhraseDetector, setDefaultTakeDetector, type TakeDetector } from '../media/render/timeline.js';

export { BrollError, TitleCardBroll, type BrollGenerator, type BrollOptions } from './broll.js';
export { ChatCompletionsTakeDetector, parseTakeRanges } from './takes.js';
export { VideosApiBroll } from './video.js';
export { ChatCompletionsHook, FirstSentenceHook, HOOK_MAX_CHARS, transcriptText, trimAtWord, type HookWriter } from './hook.js';

type Env = Record<string, string | undefined>;

let brollOverride: BrollGenerator | null = null;
let hookOverride: HookWriter | null = null;
let takesOverride: TakeDetector | null = null;

/** Replaces the configured implementations (tests); null restores them. */
export function useAiProviders(p: { broll?: BrollGenerator | null; hook?: HookWriter | null; takes?: TakeDetector | null }) {
  if (p.broll !== undefined) brollOverride = p.broll;
  if (p.hook !== undefined) hookOverride = p.hook;
  if (p.takes !== undefined) takesOverride = p.takes;
}

export function brollGeneratorFor(app: Pick<App, 'config'>, env: Env = process.env): BrollGenerator {
  if (brollOverride) return brollOverride;
  const provider = env.BROLL_PROVIDER || 'offline';
  const workDir = path.join(app.config.dataDir, 'tmp');
  if (provider === 'openai') {
    if (!env.OPENAI_API_KEY) throw new Error('BROLL_PROVIDER "openai" needs OPENAI_API_KEY');
    return new VideosApiBroll({ baseUrl: env.OPENAI_BASE_URL || 'https://api.openai.com', apiKey: env.OPENAI_API_KEY, model: env.OPENAI_VIDEO_MODEL || 'sora-2', workDir });
  }
  if (provider !== 'offline') throw new Error(`BROLL_PROVIDER "${provider}" is not available; the B-roll providers are "offline" and "openai"`);
  return new TitleCardBroll(workDir);
}

/** The bad-take detector of removeBadTakes. */
export function takeDetectorFor(env: Env = process.env): TakeDetector {
  if (takesOverride) return takesOverride;
  if (env.BAD_TAKES_PROVIDER === 'openai' && env.OPENAI_API_KEY) {
    return new ChatCompletionsTakeDetector({
      baseUrl: env.OPENAI_BASE_URL || 'https://api.openai.com',
      apiKey: env.OPENAI_API_KEY,
      model: env.OPENAI_BAD_TAKES_MODEL || 'gpt-4o-mini',
    });
  }
  return repeatedPhraseDetector();
}

// export plans (src/exports/plan.ts) call badTakeCuts without a detector: they get the configured one
setDefaultTakeDetector(() => takeDetectorFor());

export function hookWriterFor(env: Env = process.env): HookWriter {
  if (hookOverride) return hookOverride;
  if (env.HOOK_WRITER === 'openai' && env.OPENAI_API_KEY) {
    return new ChatCompletionsHook({
      baseUrl: env.OPENAI_BASE_URL || 'https://api.openai.com',
      apiKey: env.OPENAI_API_KEY,
      model: env.OPENAI_HOOK_MODEL || 'gpt-4o-mini',
    });
  }
  return new FirstSentenceHook();
}
