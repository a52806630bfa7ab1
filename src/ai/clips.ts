/**
 * Magic-clip scores and titles from an OpenAI-compatible chat-completions
 * server (POST {base}/v1/chat/completions, `choices[0].message.content`),
 * chosen with CLIP_SCORER=openai. The candidate windows go out in batches as
 * JSON; the answer must be JSON `{"clips":[{"index":i,"hook_strength":n,
 * "shareability":n,"story_quality":n,"emotional_impact":n,"title":"…"}]}` with
 * one entry per window, scores 0-100 and titles of 1-100 characters (and,
 * when the creator gave a topic, `topic_relevance` 0-100); `total`
 * is the offline scorer's documented weighting of the four. Any failure (HTTP
 * error, timeout, an answer that is not exactly that) scores every window with
 * the offline scorer instead, so the scores of one project share one scale.
 */
import { CLIP_TITLE_MAX_CHARS, OfflineClipScorer, totalOf, type ClipScore, type ClipScorer, type ClipScoringContext, type ClipWindow } from './clip-scoring.js';
import { chatCompletion } from '../net/openai-compatible.js';

export interface ChatCompletionsClipOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  /** windows per request (default 10) */
  batchWindows?: number;
  /** characters of window text per request (default 24000; a longer single window goes alone) */
  batchChars?: number;
}

const SCORE_KEYS = ['hook_strength', 'shareability', 'story_quality', 'emotional_impact'] as const;

const SYSTEM_PROMPT = [
  'You pick short vertical clips from the transcript of a long talking video. Each candidate clip is given with its index, length in seconds and transcript.',
  'Score each clip from 0 to 100 on: hook_strength (do its first seconds grab attention: a question, a number, direct address, a strong claim),',
  'shareability (self-contained, no reference to what came before, ends on a complete thought, quotable),',
  'story_quality (setup and payoff, complete sentences), emotional_impact (strength of feeling).',
  `Write a catchy title for each, at most ${CLIP_TITLE_MAX_CHARS} characters, in the transcript's language, no quotes, no hashtags.`,
  'Answer with JSON only: {"clips":[{"index":<index>,"hook_strength":<0-100>,"shareability":<0-100>,"story_quality":<0-100>,"emotional_impact":<0-100>,"title":"<title>"}]}, one entry for every clip.',
].join(' ');

/** What the prompt adds when the creator gives a topic. */
const TOPIC_PROMPT =
  'The request names a topic: give each clip also "topic_relevance" (0-100), how much the clip is about that topic (100: wholly about it, 0: not at all).';

/** The answer's scores and titles in index order, or null unless it has exactly one valid entry for each of `count` clips. */
export function parseClipScores(content: unknown, count: number): ClipScore[] | null {
  if (typeof content !== 'string') return null;
  let body: unknown;
  try {
    body = JSON.parse(
      content
        .trim()
        .replace(/^```(?:json)?\s*/i, '')
        .replace(/\s*```$/, ''),
    );
  } catch {
    return null;
  }
  const list = Array.isArray(body) ? body : (body as { clips?: unknown } | null)?.clips;
  if (!Array.isArray(list) || list.length !== count) return null;
  const out: Array<ClipScore | undefined> = new Array(count);
  for (const entry of list) {
    if (typeof entry !== 'object' || entry === null) return null;
    const e = entry as Record<string, unknown>;
    const index = e.index;
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= count || out[index as number]) return null;
    const scores = {} as Record<(typeof SCORE_KEYS)[number], number>;
    for (const key of SCORE_KEYS) {
      const v = e[key];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100) return null;
      scores[key] = Math.round(v);
    }
    const relevance = e.topic_relevance;
    if (relevance !== undefined && (typeof relevance !== 'number' || !Number.isFinite(relevance) || relevance < 0 || relevance > 100)) return null;
    if (typeof e.title !== 'string') return null;
    const title = e.title
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
      .trim();
    if (title.length < 1 || title.length > CLIP_TITLE_MAX_CHARS) return null;
    out[index as number] = { scores: { total: totalOf(scores), ...scores }, title, ...(typeof relevance === 'number' ? { topicMatch: relevance / 100 } : {}) };
  }
  return out as ClipScore[];
}

export class ChatCompletionsClipScorer implements ClipScorer {
  private readonly fallback = new OfflineClipScorer();

  constructor(private readonly opts: ChatCompletionsClipOptions) {}

  async score(windows: readonly ClipWindow[], ctx: ClipScoringContext, { signal }: { signal?: AbortSignal } = {}): Promise<ClipScore[]> {
    if (windows.length === 0) return [];
    try {
      const out: ClipScore[] = [];
      for (const batch of this.batches(windows)) out.push(...(await this.ask(batch, ctx, signal)));
      return out;
    } catch (e) {
      if (signal?.aborted) throw e;
      return this.fallback.score(windows, ctx);
    }
  }

  private batches(windows: readonly ClipWindow[]): ClipWindow[][] {
    const maxWindows = Math.max(1, this.opts.batchWindows ?? 10);
    const maxChars = this.opts.batchChars ?? 24_000;
    const out: ClipWindow[][] = [];
    let batch: ClipWindow[] = [];
    let chars = 0;
    for (const w of windows) {
      if (batch.length > 0 && (batch.length >= maxWindows || chars + w.text.length > maxChars)) {
        out.push(batch);
        batch = [];
        chars = 0;
      }
      batch.push(w);
      chars += w.text.length;
    }
    if (batch.length > 0) out.push(batch);
    return out;
  }

  private async ask(batch: readonly ClipWindow[], { language, topic }: ClipScoringContext, signal: AbortSignal | undefined): Promise<ClipScore[]> {
    const clips = batch.map((w, index) => ({ index, seconds: Math.round((w.end - w.start) * 10) / 10, transcript: w.text }));
    const content = await chatCompletion(this.opts, {
      temperature: 0,
      json: true,
      messages: [
        { role: 'system', content: topic ? `${SYSTEM_PROMPT} ${TOPIC_PROMPT}` : SYSTEM_PROMPT },
        { role: 'user', content: JSON.stringify({ language, ...(topic ? { topic } : {}), clips }) },
      ],
      signal,
      timeoutMs: 90_000,
    });
    const scores = parseClipScores(content, batch.length);
    if (!scores) throw new Error('the answer is not the asked JSON');
    return scores;
  }
}
