/**
 * The AI features behind interfaces, chosen by environment:
 *
 * - B-roll (`BROLL_PROVIDER`): `offline` (default) renders an animated title
 *   card with ffmpeg (broll.ts). No remote provider is implemented yet; any
 *   other value is refused when a clip is first generated.
 * - Hook titles (`HOOK_WRITER`): `offline` (default) takes the first sentence
 *   of the transcript; `openai` asks an OpenAI-compatible chat-completions
 *   server (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_HOOK_MODEL, default
 *   gpt-4o-mini) and falls back to the offline writer on any failure.
 */
import path from 'node:path';
import type { App } from '../app.js';
import { TitleCardBroll, type BrollGenerator } from './broll.js';
import { ChatCompletionsHook, FirstSentenceHook, type HookWriter } from './hook.js';

export { BrollError, TitleCardBroll, type BrollGenerator, type BrollOptions } from './broll.js';
export { ChatCompletionsHook, FirstSentenceHook, HOOK_MAX_CHARS, transcriptText, trimAtWord, type HookWriter } from './hook.js';

type Env = Record<string, string | undefined>;

let brollOverride: BrollGenerator | null = null;
let hookOverride: HookWriter | null = null;

/** Replaces the configured implementations (tests); null restores them. */
export function useAiProviders(p: { broll?: BrollGenerator | null; hook?: HookWriter | null }) {
  if (p.broll !== undefined) brollOverride = p.broll;
  if (p.hook !== undefined) hookOverride = p.hook;
}

export function brollGeneratorFor(app: Pick<App, 'config'>, env: Env = process.env): BrollGenerator {
  if (brollOverride) return brollOverride;
  const provider = env.BROLL_PROVIDER || 'offline';
  if (provider !== 'offline') throw new Error(`BROLL_PROVIDER "${provider}" is not available; the only B-roll provider is "offline"`);
  return new TitleCardBroll(path.join(app.config.dataDir, 'tmp'));
}

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
