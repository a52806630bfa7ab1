// Finding a long video's moments: sentences, candidate windows, the offline
// and chat scorers, the sound's features, and the choice of clips.
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionsClipScorer, createAiProviders, parseClipScores } from '../../src/ai/providers.js';
import { loadConfig } from '../../src/config.js';
import type { Word } from '../../src/media/transcript.js';
import { readAudioFeatures } from '../../src/magic-clips/audio-features.js';
import { candidateCap, findMoments } from '../../src/magic-clips/moments.js';
import { OfflineClipScorer, SCORING_RULES, titleFrom, totalOf, type ClipScore, type ClipScoringContext } from '../../src/magic-clips/scoring.js';
import { PAUSE_SECONDS, sentencesOf } from '../../src/magic-clips/sentences.js';
import type { AudioFeatures, ClipWindow, ScoredWindow, Sentence } from '../../src/magic-clips/types.js';
import { candidateWindows, clipCountFor, pickBest, windowOf } from '../../src/magic-clips/windows.js';
import { writeWav } from '../support/wav.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-test-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

let ids = 0;
const el = (text: string, startTime: number, endTime: number, type: Word['type'] = 'word'): Word => ({ id: `w${ids++}`, text, type, startTime, endTime });

/**
 * A talk as a transcript: each sentence's tokens as words (punctuation
 * attached as written) of `wordSeconds`, `gap` apart, and a silence element
 * of `pause` between sentences.
 */
function talk(sentences: readonly string[], { at = 0, wordSeconds = 0.3, gap = 0.05, pause = 0.6 } = {}): Word[] {
  const out: Word[] = [];
  let t = at;
  for (const s of sentences) {
    for (const token of s.split(/\s+/).filter(Boolean)) {
      out.push(el(token, t, t + wordSeconds));
      t += wordSeconds + gap;
    }
    t -= gap;
    out.push(el('', t, t + pause, 'silence'));
    t += pause;
  }
  return out;
}

const unpunctuated = (s: string) => s.replace(/[.,!?]/g, '').toLowerCase();

/** The spoken elements of the transcript, each exactly once, in order, across the sentences. */
function coverage(words: readonly Word[], sentences: readonly Sentence[]): number[] {
  return sentences.flatMap((s) => words.slice(s.first, s.last + 1).map((w, i) => (w.type === 'silence' ? -1 : s.first + i))).filter((i) => i >= 0);
}
const spokenIndexes = (words: readonly Word[]) => words.flatMap((w, i) => (w.type !== 'silence' && w.text.trim() ? [i] : []));

const TALK = [
  'Have you ever wondered why most startups fail in their first year?',
  'I spent ten years building companies, and I made every mistake you can imagine.',
  'The first one was simple.',
  'I hired my friends instead of the best people for the job.',
  'It felt safe, but it was a disaster.',
  'We argued about everything and nobody wanted to make the hard calls.',
  'Then one morning our biggest customer called and cancelled the contract.',
  'That was the moment I understood what leadership really means.',
  'You have to tell people the truth, even when it hurts.',
  'So I sat down with the team and we rebuilt the company from scratch.',
  'Six months later we had doubled our revenue.',
  'Here is the secret nobody tells you.',
  'Growth does not come from working harder.',
  'It comes from saying no to almost everything.',
];

describe('sentences', () => {
  it('ends sentences at the punctuation the engine gives, and only there', () => {
    // a pause inside a punctuated sentence does not end it; "Mr." does not either
    const words = [
      el('Hello', 0, 0.3),
      el('there,', 0.35, 0.6),
      el('Mr.', 1.2, 1.4),
      el('Smith.', 1.45, 1.8),
      el('How', 1.9, 2.1),
      el('are', 2.15, 2.3),
      el('you', 2.35, 2.5),
      el('?', 2.5, 2.5, 'punctuation'),
      el('', 2.5, 3.5, 'silence'),
      el('Great', 3.5, 3.8),
      el('!', 3.8, 3.8, 'punctuation'),
      el('“', 3.9, 3.9, 'punctuation'),
      el('Fine', 3.9, 4.1),
      el('then', 4.15, 4.3),
      el('”', 4.3, 4.3, 'punctuation'),
    ];
    const s = sentencesOf(words);
    expect(s.map((x) => x.text)).toEqual(['Hello there, Mr. Smith.', 'How are you?', 'Great!', '“Fine then”']);
    expect(s.map((x) => [x.first, x.last, x.start, x.end])).toEqual([
      [0, 3, 0, 1.8],
      [4, 7, 1.9, 2.5],
      [9, 10, 3.5, 3.8],
      [11, 14, 3.9, 4.3],
    ]);
    expect(coverage(words, s)).toEqual(spokenIndexes(words));
  });

  it('a punctuated transcript still ends a sentence at a long pause', () => {
    const s = sentencesOf([el('One', 0, 0.3), el('two', 0.4, 0.6), el('three', 3, 3.3), el('four.', 3.4, 3.7)]);
    expect(s.map((x) => x.text)).toEqual(['One two', 'three four.']);
  });

  it(`without punctuation ends sentences at pauses of ${PAUSE_SECONDS} s (a gap or a silence), never inside a word`, () => {
    const words = [
      el('so', 0, 0.2),
      el('this', 0.25, 0.5),
      el('is', 0.8, 1), // a 0.30 s gap: same sentence
      el('it', 1.05, 1.2),
      el('now', 1.6, 1.9), // a 0.40 s gap: new sentence
      el('we', 1.95, 2.1),
      el('', 2.1, 2.5, 'silence'), // a 0.40 s silence element
      el('go', 2.5, 2.8),
      el('home', 2.8, 3.0),
      el('', 3.0, 3.2, 'silence'), // a 0.20 s silence: same sentence
      el('today', 3.2, 3.6),
    ];
    const s = sentencesOf(words);
    expect(s.map((x) => x.text)).toEqual(['so this is it', 'now we', 'go home today']);
    expect(s.map((x) => [x.start, x.end])).toEqual([
      [0, 1.2],
      [1.6, 2.1],
      [2.5, 3.6],
    ]);
    expect(coverage(words, s)).toEqual(spokenIndexes(words));
    // every boundary is a gap between two words
    for (const x of s) {
      expect(words[x.first].type).toBe('word');
      expect(words[x.last].type).toBe('word');
    }
    expect(sentencesOf([])).toEqual([]);
    expect(sentencesOf([el('', 0, 5, 'silence')])).toEqual([]);
  });

  it('a talk gives one sentence per spoken sentence, with or without punctuation', () => {
    const punctuated = talk(TALK);
    const plain = talk(TALK.map(unpunctuated));
    expect(sentencesOf(punctuated).map((s) => s.text)).toEqual(TALK);
    expect(sentencesOf(plain).map((s) => s.text)).toEqual(TALK.map(unpunctuated));
  });
});

describe('candidate windows', () => {
  const sentences = sentencesOf(talk([...TALK, ...TALK, ...TALK]));

  it('are the runs of whole consecutive sentences whose span fits the lengths', () => {
    const lengths = { minLength: 15, maxLength: 30 };
    const windows = candidateWindows(sentences, lengths);
    expect(windows.length).toBeGreaterThan(0);
    // every run that fits, and only those
    let expected = 0;
    for (let i = 0; i < sentences.length; i++) {
      for (let j = i; j < sentences.length; j++) {
        const span = sentences[j].end - sentences[i].start;
        if (span >= 15 && span <= 30) expected++;
      }
    }
    expect(windows).toHaveLength(expected);
    for (const w of windows) {
      expect(w.end - w.start).toBeGreaterThanOrEqual(15);
      expect(w.end - w.start).toBeLessThanOrEqual(30);
      const first = sentences.indexOf(w.sentences[0]);
      expect(first).toBeGreaterThanOrEqual(0);
      expect(w.sentences).toEqual(sentences.slice(first, first + w.sentences.length));
      expect(w.start).toBe(w.sentences[0].start);
      expect(w.end).toBe(w.sentences[w.sentences.length - 1].end);
      expect(w.text).toBe(w.sentences.map((s) => s.text).join(' '));
    }
    expect(candidateWindows(sentences, { minLength: 500, maxLength: 600 })).toEqual([]);
  });

  it('clip count: one per 3 minutes of source, at least 1, at most 10', () => {
    expect([0, 30, 60, 269, 270, 600, 1800, 3600, 7200].map(clipCountFor)).toEqual([1, 1, 1, 1, 2, 3, 10, 10, 10]);
  });

  it('pickBest takes the best totals that do not overlap, in time order', () => {
    const scored = (start: number, end: number, total: number): ScoredWindow => ({
      start,
      end,
      sentences: [],
      text: '',
      title: 't',
      scores: { total, hook_strength: total, shareability: total, story_quality: total, emotional_impact: total },
    });
    const all = [scored(0, 20, 50), scored(10, 30, 90), scored(25, 45, 80), scored(30, 50, 70), scored(50, 70, 60), scored(60, 80, 95)];
    const best = pickBest(all, 3);
    expect(best.map((w) => [w.start, w.scores.total])).toEqual([
      [10, 90],
      [30, 70],
      [60, 95],
    ]);
    for (let i = 1; i < best.length; i++) expect(best[i].start).toBeGreaterThanOrEqual(best[i - 1].end);
    expect(pickBest(all, 1).map((w) => w.scores.total)).toEqual([95]);
    // fewer when fewer fit
    expect(pickBest([scored(0, 20, 50), scored(5, 25, 60)], 3)).toHaveLength(1);
  });
});

/** One window per text, each a transcript of its own (a sentence per '|'), scored offline. */
async function scoreTexts(texts: string[], ctx: Partial<ClipScoringContext> = {}): Promise<ClipScore[]> {
  const windows = texts.map((t) => {
    const s = sentencesOf(talk(t.split('|').map((x) => x.trim())));
    return windowOf(s, 0, s.length - 1);
  });
  return new OfflineClipScorer().score(windows, { words: [], audio: null, language: 'en', ...ctx });
}

describe('offline scorer', () => {
  it('gives integer scores 0-100 and the documented total', async () => {
    const texts = [
      ...TALK,
      TALK.join(' | '),
      'uh',
      '!!!',
      'Why? Why? Why? You! 100 times! The best, the worst, absolutely incredible!',
      unpunctuated(TALK.slice(0, 5).join(' ')),
    ];
    for (const language of ['en', 'fr', 'ja']) {
      for (const { scores, title } of await scoreTexts(texts, { language })) {
        for (const v of Object.values(scores)) {
          expect(Number.isInteger(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(100);
        }
        expect(scores.total).toBe(totalOf(scores));
        expect(title.length).toBeGreaterThanOrEqual(1);
        expect(title.length).toBeLessThanOrEqual(100);
      }
    }
    const w = SCORING_RULES.weights;
    expect(w.hook_strength + w.shareability + w.story_quality + w.emotional_impact).toBeCloseTo(1, 9);
  });

  it('the same sentence gives the same scores, wherever it is and however often it is scored', async () => {
    const sentence = 'Six months later we had doubled our revenue, and nobody believed it.';
    // the same text at 0 s and at 100 s of one transcript, over the same sound
    const words = [...talk([sentence]), ...talk([sentence], { at: 100 })];
    const s = sentencesOf(words);
    const loudness = new Float32Array(1200).fill(-30);
    const pitch = new Float32Array(1200);
    for (const at of [0, 1000]) for (let i = 0; i < 60; i++) [loudness[at + i], pitch[at + i]] = [-20 + (i % 7), 110 + ((i * 13) % 40)];
    const ctx = { words, audio: { step: 0.1, loudness, pitch }, language: 'en' };
    const windows = [windowOf(s, 0, 0), windowOf(s, 1, 1)];
    const a = await new OfflineClipScorer().score(windows, ctx);
    const b = await new OfflineClipScorer().score([windows[1], windows[0]], ctx);
    expect(a[0]).toEqual(a[1]);
    expect(b[0]).toEqual(a[0]);
  });

  it('hook_strength is higher for a question, a number or "you" than for a flat "and then it was"', async () => {
    const rest = 'We kept going for a while after that.';
    const [flat, question, number, you, claim] = await scoreTexts([
      `and then it was | ${rest}`,
      `Why do startups fail? | ${rest}`,
      `We lost 40 customers in March. | ${rest}`,
      `You need to hear this story. | ${rest}`,
      `This was the biggest mistake of my life. | ${rest}`,
    ]);
    for (const strong of [question, number, you, claim]) expect(strong.scores.hook_strength).toBeGreaterThan(flat.scores.hook_strength);
    // without punctuation a question opener still counts
    const [plainFlat, plainQuestion] = await scoreTexts([`and then it was | ${rest}`, `so why do startups fail | ${rest}`].map(unpunctuated));
    expect(plainQuestion.scores.hook_strength).toBeGreaterThan(plainFlat.scores.hook_strength);
  });

  it("hook_strength rises with the voice's energy against the source's median", async () => {
    const words = talk(['We started the company in a garage.', 'We started the company in a garage.'], { pause: 10 });
    const s = sentencesOf(words);
    const loudness = new Float32Array(300).fill(-26);
    for (let i = 0; i < 30; i++) loudness[i] = -34; // a quiet first opening
    for (let i = 0; i < 30; i++) loudness[Math.round(s[1].start * 10) + i] = -18; // a loud second one
    const ctx = { words, audio: { step: 0.1, loudness, pitch: new Float32Array(300) }, language: 'en' };
    const [quiet, loud] = await new OfflineClipScorer().score([windowOf(s, 0, 0), windowOf(s, 1, 1)], ctx);
    expect(loud.scores.hook_strength).toBeGreaterThan(quiet.scores.hook_strength);
  });

  it('shareability is lower for a clip starting with a dangling reference', async () => {
    const body = 'said the plan would never work. | We proved him wrong within a year.';
    const [dangling, selfContained] = await scoreTexts([`But he ${body}`, `My brother ${body}`]);
    expect(dangling.scores.shareability).toBeLessThan(selfContained.scores.shareability);
    for (const first of ['And', 'So', 'That', 'This', 'It']) {
      const [d] = await scoreTexts([`${first} ${body}`]);
      expect(d.scores.shareability).toBeLessThan(selfContained.scores.shareability);
    }
    // an unpunctuated clip cut after a dangling word ("and") is not a complete thought
    const [cut, whole] = await scoreTexts(['my brother said the plan would work and', 'my brother said the plan would work']);
    expect(cut.scores.shareability).toBeLessThan(whole.scores.shareability);
  });

  it('emotional_impact is higher for strongly emotional text, and for a lively voice', async () => {
    const [calm, strong] = await scoreTexts([
      'The meeting is on Tuesday at the usual room. | We will review the schedule for the next quarter.',
      'I was terrified and furious! | It was the worst, most heartbreaking day of my life, and I hated every second!',
    ]);
    expect(strong.scores.emotional_impact).toBeGreaterThan(calm.scores.emotional_impact + 20);

    const words = talk(['The meeting is on Tuesday at the usual room.', 'The meeting is on Tuesday at the usual room.'], { pause: 10 });
    const s = sentencesOf(words);
    const loudness = new Float32Array(300).fill(-25);
    const pitch = new Float32Array(300).fill(110);
    const lively = Math.round(s[1].start * 10);
    for (let i = 0; i < 40; i++) {
      loudness[lively + i] = -25 + (i % 2 ? 9 : -9);
      pitch[lively + i] = i % 2 ? 220 : 100;
    }
    const ctx = { words, audio: { step: 0.1, loudness, pitch }, language: 'en' };
    const [flatVoice, livelyVoice] = await new OfflineClipScorer().score([windowOf(s, 0, 0), windowOf(s, 1, 1)], ctx);
    expect(livelyVoice.scores.emotional_impact).toBeGreaterThan(flatVoice.scores.emotional_impact);
  });

  it('another language: the word lists score neutral, punctuation and sound still count', async () => {
    const body = 'said the plan would never work. | We proved him wrong.';
    const [dangling, selfContained, calm, strong, statement, question] = await scoreTexts(
      [
        `But he ${body}`,
        `My brother ${body}`,
        'The meeting is on Tuesday.',
        'I was terrified and furious, I hated it.',
        'Nous avons commencé.',
        'Pourquoi avons-nous commencé ?',
      ],
      { language: 'fr' },
    );
    expect(dangling.scores.shareability).toBe(selfContained.scores.shareability);
    expect(strong.scores.emotional_impact).toBe(calm.scores.emotional_impact);
    expect(question.scores.hook_strength).toBeGreaterThan(statement.scores.hook_strength);
  });

  it('titles come from the strongest sentence: 1-100 characters, capitalised, no trailing junk', async () => {
    const [a, b, c] = await scoreTexts([
      'We met in the morning. | Have you ever wondered why most startups fail? | It went on.',
      'so what nobody tells you is that growth comes from saying no',
      `${'really '.repeat(40)}long sentence, with a tail;`,
    ]);
    expect(a.title).toBe('Have you ever wondered why most startups fail?');
    expect(b.title).toBe('What nobody tells you is that growth comes from saying no');
    expect(c.title.length).toBeLessThanOrEqual(SCORING_RULES.title.maxChars);
    expect(c.title).toMatch(/^Really( really)*$/);
    expect(titleFrom('and, “the end”...')).toBe('The end');
    expect(titleFrom('x'.repeat(300)).length).toBeLessThanOrEqual(100);
    // cut mid-sentence, it ends on a word that stands, not one that leads on; a whole sentence keeps its words
    expect(titleFrom('To write that links below and make your own video with the locals and then go out to meet them all')).toBe(
      'To write that links below and make your own video with the locals',
    );
    expect(titleFrom('Tell me what you are thinking of')).toBe('Tell me what you are thinking of');
    expect(titleFrom('Nobody tells you this but the real secret of good habits is what it is when nobody is watching you')).toBe(
      'Nobody tells you this but the real secret of good habits is what it is',
    );
  });
});

/** A local server speaking the chat-completions protocol; `answer` makes each reply's content from the request. */
async function chatServer(answer: (clips: Array<{ index: number; seconds: number; transcript: string }>) => { status?: number; content?: string }) {
  const requests: any[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const parsed = JSON.parse(body);
      requests.push({ url: req.url, auth: req.headers.authorization, body: parsed });
      const { clips } = JSON.parse(parsed.messages[1].content);
      const { status = 200, content = '' } = answer(clips);
      if (status !== 200) return void res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const entry = (index: number, v: number, title = `Clip ${index}`) => ({
  index,
  hook_strength: v,
  shareability: v,
  story_quality: v,
  emotional_impact: v,
  title,
});

describe('chat-completions scorer', () => {
  const sentences = sentencesOf(talk(TALK));
  const windows: ClipWindow[] = [windowOf(sentences, 0, 2), windowOf(sentences, 3, 5), windowOf(sentences, 6, 8)];
  const ctx: ClipScoringContext = { words: talk(TALK), audio: null, language: 'en' };

  it('asks for JSON scores and titles in batches and takes a valid answer', async () => {
    const server = await chatServer((clips) => ({
      content: JSON.stringify({ clips: clips.map((c) => entry(c.index, 40 + c.index * 10.4, ` “${c.transcript.split(' ')[0]} title” `)) }),
    }));
    try {
      const scorer = new ChatCompletionsClipScorer({ baseUrl: server.url, apiKey: 'k', model: 'clip-model', batchWindows: 2 });
      const out = await scorer.score(windows, ctx);
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]).toMatchObject({
        url: '/v1/chat/completions',
        auth: 'Bearer k',
        body: { model: 'clip-model', temperature: 0, response_format: { type: 'json_object' } },
      });
      const sent = JSON.parse(server.requests[0].body.messages[1].content);
      expect(sent).toEqual({
        language: 'en',
        clips: [0, 1].map((i) => ({ index: i, seconds: Math.round((windows[i].end - windows[i].start) * 10) / 10, transcript: windows[i].text })),
      });
      expect(out.map((o) => o.scores.hook_strength)).toEqual([40, 50, 40]);
      expect(out[1].scores).toEqual({ total: 50, hook_strength: 50, shareability: 50, story_quality: 50, emotional_impact: 50 });
      expect(out[2].title).toBe('Then title');
    } finally {
      await server.close();
    }
  });

  it('falls back to the offline scorer on a 500, on bad JSON and on missing or invalid entries', async () => {
    const offline = await new OfflineClipScorer().score(windows, ctx);
    const answers: Array<(clips: Array<{ index: number }>) => { status?: number; content?: string }> = [
      () => ({ status: 500 }),
      () => ({ content: 'Sure! Here are the scores: clip 0 is great.' }),
      (clips) => ({ content: JSON.stringify({ clips: clips.slice(1).map((c) => entry(c.index, 50)) }) }),
      (clips) => ({ content: JSON.stringify({ clips: clips.map((c) => entry(c.index, 150)) }) }),
      (clips) => ({ content: JSON.stringify({ clips: clips.map((c) => entry(c.index, 50, 'x'.repeat(101))) }) }),
      (clips) => ({ content: JSON.stringify({ clips: clips.map((c) => entry(c.index, 50, '  ')) }) }),
      (clips) => ({ content: JSON.stringify({ clips: clips.map((c) => ({ ...entry(c.index, 50), story_quality: '50' })) }) }),
      (clips) => ({ content: JSON.stringify({ clips: clips.map(() => entry(0, 50)) }) }),
    ];
    for (const answer of answers) {
      const server = await chatServer(answer);
      try {
        const out = await new ChatCompletionsClipScorer({ baseUrl: server.url, apiKey: 'k', model: 'm' }).score(windows, ctx);
        expect(server.requests.length).toBeGreaterThan(0);
        expect(out).toEqual(offline);
      } finally {
        await server.close();
      }
    }
    // and when nothing listens
    const gone = await chatServer(() => ({}));
    await gone.close();
    expect(await new ChatCompletionsClipScorer({ baseUrl: gone.url, apiKey: 'k', model: 'm' }).score(windows, ctx)).toEqual(offline);
  });

  it('with a topic: sends it, asks how much each clip is about it, and the answer ranks the clips', async () => {
    // the model finds the third window about "leadership"
    const server = await chatServer((clips) => ({
      content: JSON.stringify({
        clips: clips.map((c) => ({ ...entry(c.index, c.index === 0 ? 80 : 40), topic_relevance: c.transcript.includes('leadership') ? 90 : 5 })),
      }),
    }));
    try {
      const scorer = new ChatCompletionsClipScorer({ baseUrl: server.url, apiKey: 'k', model: 'm' });
      const out = await scorer.score(windows, { ...ctx, topic: 'leadership' });
      const body = server.requests[0].body;
      expect(JSON.parse(body.messages[1].content)).toMatchObject({ language: 'en', topic: 'leadership' });
      expect(body.messages[0].content).toContain('"topic_relevance" (0-100)');
      expect(out.map((o) => o.topicMatch)).toEqual([0.05, 0.05, 0.9]);
      // through findMoments: the model's relevance, not the offline match, decides what is about the topic
      const found = await findMoments(talk(TALK), null, { minLength: 5, maxLength: 12, duration: 60, count: 3, topic: 'leadership', scorer, language: 'en' });
      const first = found.clips.find((c) => c.rank === 1)!;
      expect(first.text).toContain('leadership');
      expect(first.topicMatch).toBe(0.9);
      // an answer without relevance for a topic is still taken: the offline match stands in
      const plain = await chatServer((clips) => ({ content: JSON.stringify({ clips: clips.map((c) => entry(c.index, 50)) }) }));
      try {
        const scored = await new ChatCompletionsClipScorer({ baseUrl: plain.url, apiKey: 'k', model: 'm' }).score(windows, { ...ctx, topic: 'leadership' });
        expect(scored.every((o) => o.topicMatch === undefined && o.scores.total === 50)).toBe(true);
      } finally {
        await plain.close();
      }
      expect(parseClipScores(JSON.stringify({ clips: [{ ...entry(0, 50), topic_relevance: 101 }] }), 1)).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('parses only the exact shape', () => {
    expect(
      parseClipScores('```json\n{"clips":[{"index":0,"hook_strength":1,"shareability":2,"story_quality":3,"emotional_impact":4,"title":"Hi"}]}\n```', 1),
    ).toEqual([
      {
        scores: {
          total: totalOf({ hook_strength: 1, shareability: 2, story_quality: 3, emotional_impact: 4 }),
          hook_strength: 1,
          shareability: 2,
          story_quality: 3,
          emotional_impact: 4,
        },
        title: 'Hi',
      },
    ]);
    expect(parseClipScores('{"clips":[]}', 1)).toBeNull();
    expect(parseClipScores(null, 1)).toBeNull();
    expect(parseClipScores('{"clips":[{"index":1,"hook_strength":1,"shareability":2,"story_quality":3,"emotional_impact":4,"title":"Hi"}]}', 1)).toBeNull();
  });

  it('is chosen by CLIP_SCORER (with a key), offline otherwise', () => {
    const scorerFor = (env: Record<string, string>) => createAiProviders(loadConfig({ DATA_DIR: dir, ...env })).clips;
    expect(scorerFor({})).toBeInstanceOf(OfflineClipScorer);
    expect(scorerFor({ CLIP_SCORER: 'openai' })).toBeInstanceOf(OfflineClipScorer);
    expect(scorerFor({ CLIP_SCORER: 'openai', OPENAI_API_KEY: 'k' })).toBeInstanceOf(ChatCompletionsClipScorer);
    expect(loadConfig({}).openai.clipModel).toBe('gpt-4o-mini');
    expect(loadConfig({ OPENAI_CLIP_MODEL: 'other' }).openai.clipModel).toBe('other');
  });
});

describe('findMoments', () => {
  // about 3 minutes: the talk three times over, the middle one unpunctuated as a pause-only engine gives it
  const words = [...talk(TALK), ...talk(TALK.map(unpunctuated), { at: 62 }), ...talk(TALK, { at: 124 })];
  const sentences = sentencesOf(words);

  it('clips start and end on sentence boundaries, fit the lengths, do not overlap and carry scores in range', async () => {
    const { clips, note } = await findMoments(words, null, { minLength: 15, maxLength: 40, duration: 600, scorer: new OfflineClipScorer(), language: 'en' });
    expect(clips).toHaveLength(clipCountFor(600));
    expect(note).toBeNull();
    for (const [i, c] of clips.entries()) {
      expect(sentences.some((s) => s.start === c.start)).toBe(true);
      expect(sentences.some((s) => s.end === c.end)).toBe(true);
      expect(c.end - c.start).toBeGreaterThanOrEqual(15);
      expect(c.end - c.start).toBeLessThanOrEqual(40);
      if (i > 0) expect(c.start).toBeGreaterThanOrEqual(clips[i - 1].end);
      for (const v of Object.values(c.scores)) expect(v >= 0 && v <= 100 && Number.isInteger(v)).toBe(true);
      expect(c.title.length).toBeGreaterThan(0);
      // no word is cut: the first and last words of the clip lie inside it
      const inside = words.filter((w) => w.type === 'word' && w.endTime > c.start && w.startTime < c.end);
      expect(inside.every((w) => w.startTime >= c.start && w.endTime <= c.end)).toBe(true);
    }
    // the same input gives the same clips
    expect((await findMoments(words, null, { minLength: 15, maxLength: 40, duration: 600, scorer: new OfflineClipScorer(), language: 'en' })).clips).toEqual(
      clips,
    );
  });

  it('is empty when the speech is shorter than minLength', async () => {
    const short = talk(TALK.slice(0, 2));
    expect((await findMoments(short, null, { minLength: 15, maxLength: 60, duration: 600, scorer: new OfflineClipScorer(), language: 'en' })).clips).toEqual(
      [],
    );
    expect((await findMoments([], null, { minLength: 15, maxLength: 60, duration: 600, scorer: new OfflineClipScorer(), language: 'en' })).clips).toEqual([]);
  });

  it("an hour's transcript sends at most a capped number of candidates to a chat scorer, whose ranking decides", async () => {
    const hour: Word[] = [];
    for (let k = 0; k < 58; k++) hour.push(...talk(TALK, { at: k * 62 }));
    let seen = 0;
    // the model likes the windows that mention "revenue"
    const server = await chatServer((clips) => {
      seen += clips.length;
      return { content: JSON.stringify({ clips: clips.map((c) => entry(c.index, c.transcript.includes('revenue') ? 90 : 20)) }) };
    });
    try {
      const started = performance.now();
      const { clips } = await findMoments(hour, null, {
        minLength: 15,
        maxLength: 300,
        duration: 3600,
        scorer: new ChatCompletionsClipScorer({ baseUrl: server.url, apiKey: 'k', model: 'm' }),
        language: 'en',
      });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(seen).toBeLessThanOrEqual(candidateCap(10));
      expect(server.requests.length).toBeLessThanOrEqual(Math.ceil(candidateCap(10) / 10) + 2);
      expect(clips).toHaveLength(10);
      expect(clips.every((c) => c.text.includes('revenue') && c.scores.total === 90)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('audio features', () => {
  it('a sine of known pitch and level gives that pitch (±5 %) and loudness (±1 dB); silence gives no pitch and low loudness', async () => {
    for (const [hz, amplitude] of [
      [120, 0.25],
      [220, 0.5],
      [350, 0.1],
    ]) {
      const file = path.join(dir, `sine-${hz}.wav`);
      // 2 s of the tone, then 1 s of silence
      await writeWav(file, 3, (t) => (t < 2 ? amplitude * Math.sin(2 * Math.PI * hz * t) : 0));
      const a: AudioFeatures = await readAudioFeatures(file);
      expect(a.step).toBeCloseTo(0.1, 9);
      expect(a.loudness).toHaveLength(30);
      const expectedDb = 20 * Math.log10(amplitude / Math.SQRT2);
      for (let i = 1; i < 19; i++) {
        expect(Math.abs(a.pitch[i] - hz) / hz).toBeLessThan(0.05);
        expect(Math.abs(a.loudness[i] - expectedDb)).toBeLessThan(1);
      }
      for (let i = 21; i < 30; i++) {
        expect(a.pitch[i]).toBe(0);
        expect(a.loudness[i]).toBeLessThan(-90);
      }
    }
  });

  it('noise has loudness but no pitch', async () => {
    let seed = 1;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const file = path.join(dir, 'noise.wav');
    await writeWav(file, 2, () => 0.3 * random());
    const a = await readAudioFeatures(file);
    expect(Array.from(a.loudness).every((db) => db > -20 && db < -5)).toBe(true);
    expect(Array.from(a.pitch).filter((hz) => hz > 0).length).toBeLessThanOrEqual(2);
  });

  it('stops when the signal aborts', async () => {
    const file = path.join(dir, 'abort.wav');
    await writeWav(file, 1, (t) => 0.2 * Math.sin(2 * Math.PI * 150 * t));
    await expect(readAudioFeatures(file, { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});
