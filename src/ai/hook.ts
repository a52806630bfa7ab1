/**
 * Hook titles: the short line shown over the start of a video when a project
 * asks for the default AI-generated hook (`hookTitle: true`). The offline
 * default takes the transcript's first sentence; with OPENAI_API_KEY set (and
 * HOOK_WRITER=openai) an OpenAI-compatible chat-completions server writes it.
 */
import type { TimedWord } from '../media/transcript.js';
import { chatCompletion, type OpenAiCompatibleOptions } from '../net/openai-compatible.js';

/** A hook title is 1-100 characters (SPEC.md, Hook title). */
export const HOOK_MAX_CHARS = 100;

export interface HookWriter {
  /** a hook of 1-100 characters for the transcript; '' when the transcript has no words */
  write(words: readonly Pick<TimedWord, 'text' | 'type'>[], opts?: { signal?: AbortSignal }): Promise<string>;
}

/** The transcript as text: words separated by spaces, punctuation attached, silences dropped. */
export function transcriptText(words: readonly Pick<TimedWord, 'text' | 'type'>[]): string {
  let out = '';
  for (const w of words) {
    const text = w.text.trim();
    if (w.type === 'silence' || !text) continue;
    out += w.type === 'punctuation' || !out ? text : ` ${text}`;
  }
  return out.trim();
}

/** `text` cut to at most `max` characters at a word boundary (a single longer word is cut hard). */
export function trimAtWord(text: string, max = HOOK_MAX_CHARS): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return (space > 0 ? cut.slice(0, space) : t.slice(0, max)).replace(/[\s,;:–-]+$/, '');
}

/** The offline writer: the first sentence of the transcript, at most 100 characters. */
export class FirstSentenceHook implements HookWriter {
  async write(words: readonly Pick<TimedWord, 'text' | 'type'>[]): Promise<string> {
    const text = transcriptText(words);
    const sentence = /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
    return trimAtWord(sentence);
  }
}

/**
 * An OpenAI-compatible chat-completions server (POST {base}/v1/chat/completions,
 * `choices[0].message.content`). Any failure falls back to the offline writer:
 * a hook never blocks an update.
 */
export class ChatCompletionsHook implements HookWriter {
  private readonly fallback = new FirstSentenceHook();

  constructor(private readonly opts: OpenAiCompatibleOptions) {}

  async write(words: readonly Pick<TimedWord, 'text' | 'type'>[], { signal }: { signal?: AbortSignal } = {}): Promise<string> {
    const text = transcriptText(words);
    if (!text) return '';
    try {
      const content = await chatCompletion(this.opts, {
        temperature: 0.7,
        messages: [
          { role: 'system', content: `Write one catchy hook title for a short video, at most ${HOOK_MAX_CHARS} characters, no quotes, no hashtags. Answer with the title only.` },
          { role: 'user', content: text.slice(0, 8000) },
        ],
        signal,
      });
      const hook = typeof content === 'string' ? trimAtWord(content.replace(/^["'“”\s]+|["'“”\s]+$/g, '')) : '';
      if (hook) return hook;
      throw new Error('empty answer');
    } catch (e) {
      if (signal?.aborted) throw e;
      return this.fallback.write(words);
    }
  }
}
