/**
 * Bad takes found by an OpenAI-compatible chat-completions server
 * (POST {base}/v1/chat/completions, `choices[0].message.content`), chosen with
 * BAD_TAKES_PROVIDER=openai. The transcript goes out as numbered spoken words
 * ("12:word"), the answer must be JSON `{"remove":[{"start":i,"end":j,"reason":"…"}]}`
 * with inclusive word indexes. Any failure (HTTP error, timeout, unparsable or
 * out-of-range answer) falls back to the offline repeatedPhraseDetector, so a
 * removeBadTakes export never fails because of the service.
 */
import { repeatedPhraseDetector, type TakeDetector } from '../media/render/timeline.js';
import type { TakeCut, TimedWord } from '../media/transcript.js';
import { chatCompletion } from '../net/openai-compatible.js';

export interface ChatCompletionsTakeOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  /** spoken words per request; longer transcripts are sent in consecutive chunks (default 1500) */
  chunkWords?: number;
}

const SYSTEM_PROMPT = [
  'You edit the transcript of a talking-head video. Each spoken word is given as "index:word".',
  'Find bad takes: false starts, repeated attempts at the same sentence, stumbles the speaker corrected.',
  'For a repeated attempt keep the last, complete take and remove the earlier ones.',
  'Answer with JSON only: {"remove":[{"start":<first word index>,"end":<last word index, inclusive>,"reason":"<short reason>"}]}.',
  'Answer {"remove":[]} when nothing should be removed.',
].join(' ');

interface Range {
  start: number;
  end: number;
  reason: string;
}

/** The answer's ranges, or null when it is not the asked JSON or names indexes outside [lo, hi]. */
export function parseTakeRanges(content: unknown, lo: number, hi: number): Range[] | null {
  if (typeof content !== 'string') return null;
  const text = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const list = Array.isArray(body) ? body : (body as { remove?: unknown } | null)?.remove;
  if (!Array.isArray(list)) return null;
  const out: Range[] = [];
  for (const r of list) {
    const { start, end, reason } = (r ?? {}) as { start?: unknown; end?: unknown; reason?: unknown };
    if (!Number.isInteger(start) || !Number.isInteger(end)) return null;
    const s = start as number;
    const e = end as number;
    if (s < lo || e > hi || e < s) return null;
    out.push({ start: s, end: e, reason: typeof reason === 'string' && reason.trim() ? reason.trim().slice(0, 200) : 'bad take' });
  }
  return out;
}

export class ChatCompletionsTakeDetector implements TakeDetector {
  private readonly fallback = repeatedPhraseDetector();

  constructor(private readonly opts: ChatCompletionsTakeOptions) {}

  async detect(words: readonly TimedWord[]): Promise<TakeCut[]> {
    const spoken = words
      .filter((w) => w.type === 'word' && w.text.trim() && Number.isFinite(w.startTime) && Number.isFinite(w.endTime))
      .sort((a, b) => a.startTime - b.startTime);
    if (spoken.length === 0) return [];
    try {
      const size = Math.max(50, this.opts.chunkWords ?? 1500);
      const cuts: TakeCut[] = [];
      for (let lo = 0; lo < spoken.length; lo += size) {
        const hi = Math.min(spoken.length, lo + size) - 1;
        const ranges = await this.ask(spoken, lo, hi);
        for (const r of ranges) {
          const next = spoken[r.end + 1];
          // up to the next spoken word, as the offline detector does, so the pause after the take goes too
          const removeEnd = next ? next.startTime : Math.max(spoken[r.end].endTime, spoken[r.end].startTime);
          if (removeEnd > spoken[r.start].startTime) cuts.push({ removeStart: spoken[r.start].startTime, removeEnd, reason: r.reason });
        }
      }
      return cuts;
    } catch {
      return this.fallback.detect(words);
    }
  }

  private async ask(spoken: readonly TimedWord[], lo: number, hi: number): Promise<Range[]> {
    const transcript = spoken
      .slice(lo, hi + 1)
      .map((w, i) => `${lo + i}:${w.text.trim()}`)
      .join(' ');
    const content = await chatCompletion(this.opts, {
      temperature: 0,
      json: true,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: transcript },
      ],
      timeoutMs: 90_000,
    });
    const ranges = parseTakeRanges(content, lo, hi);
    if (!ranges) throw new Error('the answer is not the asked JSON');
    return ranges;
  }
}
