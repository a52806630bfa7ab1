import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionsHook, createAiProviders, StrongestLineHook, TitleCardBroll, transcriptText, trimAtWord } from '../../src/ai/providers.js';
import { HOOK_MIN_CONFIDENCE, HOOK_WORDS } from '../../src/ai/hook.js';
import type { TimedWord } from '../../src/media/transcript.js';
import { loadConfig } from '../../src/config.js';
import { wrapText } from '../../src/ai/broll.js';
import { probe } from '../../src/media/ffprobe.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ai-test-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('TitleCardBroll (offline B-roll)', () => {
  it('renders an mp4 of the asked duration and size, whatever the prompt holds', async () => {
    const g = new TitleCardBroll(dir);
    const prompt = "A city at night: neon, rain & 100% 'quotes' \\ %{pts} — and a very long tail ".repeat(40).slice(0, 2500);
    const file = await g.generate(prompt, { durationSeconds: 2.5, width: 360, height: 640 });
    const p = await probe(file);
    expect(p.kind).toBe('VIDEO');
    expect(p.formatName).toMatch(/mp4/);
    expect(p.duration).toBeGreaterThan(2.4);
    expect(p.duration).toBeLessThan(2.6);
    expect(p.video).toMatchObject({ width: 360, height: 640 });
    expect(p.audio).toBeNull();
    // only the clip is left behind (text files removed)
    expect((await fs.readdir(dir)).filter((f) => !f.endsWith('.mp4'))).toEqual([]);
    await fs.rm(file);
  }, 60_000);

  it('rounds odd sizes to even ones (H.264 4:2:0)', async () => {
    const file = await new TitleCardBroll(dir).generate('lake', { durationSeconds: 2, width: 321, height: 241 });
    expect((await probe(file)).video).toMatchObject({ width: 322, height: 242 });
    await fs.rm(file);
  }, 60_000);

  it('stops when the signal aborts', async () => {
    const c = new AbortController();
    const run = new TitleCardBroll(dir).generate('slow', { durationSeconds: 12, width: 1080, height: 1920, signal: c.signal });
    setTimeout(() => c.abort(), 200);
    await expect(run).rejects.toThrow();
  }, 30_000);

  it('wraps text at spaces into at most 5 lines', () => {
    expect(wrapText('a city skyline at night', 10)).toEqual(['a city', 'skyline at', 'night']);
    const lines = wrapText('word '.repeat(100), 10);
    expect(lines).toHaveLength(5);
    expect(lines[4].endsWith('…')).toBe(true);
  });

  it('BROLL_PROVIDER other than offline is refused', async () => {
    const broll = (env: Record<string, string>) => createAiProviders(loadConfig({ DATA_DIR: dir, ...env })).broll;
    expect(broll({})).toBeInstanceOf(TitleCardBroll);
    await expect(broll({ BROLL_PROVIDER: 'elsewhere' }).generate('x', { durationSeconds: 1, width: 64, height: 64 })).rejects.toThrow(/offline/);
  });
});

describe('hook writers', () => {
  /**
   * A transcript as pocketsphinx gives it: no punctuation, sentences apart by
   * pauses of 0.8 s. `word*0.4` is a word heard with confidence 0.4, `word!` one
   * typed without confidence; others are heard sure (0.97).
   */
  const talk = (...sentences: string[]): TimedWord[] => {
    const out: TimedWord[] = [];
    let t = 0.5;
    for (const sentence of sentences) {
      for (const token of sentence.split(' ')) {
        const [, text, c, typed] = /^(.+?)(?:\*([\d.]+)|(!))?$/.exec(token)!;
        out.push({
          text,
          type: /^[.,?!]$/.test(text) ? 'punctuation' : 'word',
          startTime: t,
          endTime: t + 0.3,
          ...(typed ? {} : { confidence: c ? Number(c) : 0.97 }),
        });
        t += 0.32;
      }
      out.push({ text: '', type: 'silence', startTime: t, endTime: t + 0.8 });
      t += 0.8;
    }
    return out;
  };
  const hook = (words: TimedWord[], language?: string) => new StrongestLineHook().write(words, { language });
  const wordsOf = (h: string) => h.split(' ').length;

  it("takes a short line of the strongest sentence, never the transcript's start", async () => {
    const words = talk(
      'and then we went to the office',
      'so that was the morning and it was fine',
      'three out of four people kept going for a full year',
      'the meeting ended at noon',
    );
    const h = await hook(words);
    expect(h).toBe('Three out of four people kept going');
    expect(wordsOf(h)).toBeGreaterThanOrEqual(HOOK_WORDS.min);
    expect(wordsOf(h)).toBeLessThanOrEqual(HOOK_WORDS.max);
    expect(transcriptText(words).toLowerCase().startsWith(h.toLowerCase())).toBe(false);
    // a question beats a number; a whole question gets its mark
    expect(await hook(talk('three out of four people kept going', 'why do most people quit'))).toBe('Why do most people quit?');
    // punctuated transcripts (Whisper) keep their sentences and the question mark
    expect(await hook(talk('It was fine .', 'Is this the worst habit you have ?', 'Then we left .'))).toBe('Is this the worst habit you have?');
  });

  it('leaves out fillers and repeats', async () => {
    expect(await hook(talk('um so like the secret is is really simple you know'))).toBe('The secret is really simple');
    expect(await hook(talk('uh you know I mean we we want to to show you everything'))).toBe('We want to show you everything');
    // "like" that means something stays
    expect(await hook(talk('I like my coffee every single morning'))).toBe('I like my coffee every single morning');
  });

  it('never uses a word the engine was unsure of, and gives no hook rather than junk', async () => {
    const unsure = `autobots*${HOOK_MIN_CONFIDENCE - 0.01}`;
    const words = talk(`the secret is that ${unsure} beat big plans every single time`, 'it was fine');
    const h = await hook(words);
    expect(h).not.toMatch(/autobots/i);
    expect(h).toBe('Beat big plans every single time');
    // words at the threshold, or typed by the user (no confidence), are sure
    expect(await hook(talk(`the secret is that autobots*${HOOK_MIN_CONFIDENCE} beat big plans`))).toBe('The secret is that autobots beat big plans');
    expect(await hook(talk('the secret is that autobots! beat big plans'))).toBe('The secret is that autobots beat big plans');
    // nothing sure enough, or only fillers and dangling words: no hook
    expect(await hook(talk('have*0.2 you*0.5 ever*0.1 wondered*0.3 why*0.4', 'the*0.9 part*0.1 is*0.2 hard*0.5'))).toBe('');
    expect(await hook(talk('so um and then', 'it was the'))).toBe('');
    expect(await hook([])).toBe('');
  });

  it('outside English keeps every word but hesitations and repeats', async () => {
    expect(await hook(talk('um das ist das das Geheimnis von 3 Leuten'), 'de')).toBe('Das ist das Geheimnis von 3 Leuten');
  });

  it('trims to 100 characters at a word boundary', () => {
    expect(trimAtWord('x'.repeat(150))).toHaveLength(100);
    expect(trimAtWord('word '.repeat(30)).length).toBeLessThanOrEqual(100);
  });

  it('the chat-completions writer asks the server, and falls back offline when it fails', async () => {
    const seen: any[] = [];
    let fail = false;
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) });
        if (fail) return void res.writeHead(500).end('{}');
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { content: '"You will not believe this"' } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    try {
      const writer = new ChatCompletionsHook({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'k', model: 'm' });
      const words = talk('Hello there .', `the secret is that autobots*0.3 beat big plans every single time`);
      expect(await writer.write(words)).toBe('You will not believe this');
      expect(seen[0]).toMatchObject({ url: '/v1/chat/completions', auth: 'Bearer k', body: { model: 'm' } });
      expect(seen[0].body.messages[0].content).toContain(`${HOOK_WORDS.min} to ${HOOK_WORDS.max} words`);
      // the words the engine was unsure of are masked
      expect(seen[0].body.messages[1].content).toBe('Hello there. the secret is that [?] beat big plans every single time');
      // the fallback is the offline writer
      fail = true;
      expect(await writer.write(words)).toBe('Beat big plans every single time');
      expect(await writer.write([])).toBe('');
    } finally {
      server.close();
    }
  });

  it('is chosen by environment', () => {
    const hookWriterFor = (env: Record<string, string>) => createAiProviders(loadConfig(env)).hook;
    expect(hookWriterFor({})).toBeInstanceOf(StrongestLineHook);
    expect(hookWriterFor({ HOOK_WRITER: 'openai' })).toBeInstanceOf(StrongestLineHook);
    expect(hookWriterFor({ HOOK_WRITER: 'openai', OPENAI_API_KEY: 'k' })).toBeInstanceOf(ChatCompletionsHook);
  });
});
