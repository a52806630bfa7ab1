import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionsHook, createAiProviders, FirstSentenceHook, TitleCardBroll, transcriptText, trimAtWord } from '../src/ai/providers.js';
import { loadConfig } from '../src/config.js';
import { wrapText } from '../src/ai/broll.js';
import { probe } from '../src/media/ffprobe.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ai-test-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const w = (text: string, type: 'word' | 'silence' | 'punctuation' = 'word') => ({ text, type });

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
  it('the offline writer takes the first sentence', async () => {
    const words = [w('Hello'), w('', 'silence'), w('world'), w('.', 'punctuation'), w('Second'), w('one'), w('!', 'punctuation')];
    expect(transcriptText(words)).toBe('Hello world. Second one!');
    expect(await new FirstSentenceHook().write(words)).toBe('Hello world.');
    expect(await new FirstSentenceHook().write([])).toBe('');
  });

  it('trims to 100 characters at a word boundary', async () => {
    const long = Array.from({ length: 40 }, (_, i) => w(`word${i}`));
    const hook = await new FirstSentenceHook().write(long);
    expect(hook.length).toBeLessThanOrEqual(100);
    expect(long.map((x) => x.text).join(' ').startsWith(hook)).toBe(true);
    expect(hook.endsWith(' ')).toBe(false);
    expect(trimAtWord('x'.repeat(150))).toHaveLength(100);
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
      const words = [w('Hello'), w('there'), w('.', 'punctuation')];
      expect(await writer.write(words)).toBe('You will not believe this');
      expect(seen[0]).toMatchObject({ url: '/v1/chat/completions', auth: 'Bearer k', body: { model: 'm' } });
      expect(seen[0].body.messages[1].content).toBe('Hello there.');
      fail = true;
      expect(await writer.write(words)).toBe('Hello there.');
    } finally {
      server.close();
    }
  });

  it('is chosen by environment', () => {
    const hookWriterFor = (env: Record<string, string>) => createAiProviders(loadConfig(env)).hook;
    expect(hookWriterFor({})).toBeInstanceOf(FirstSentenceHook);
    expect(hookWriterFor({ HOOK_WRITER: 'openai' })).toBeInstanceOf(FirstSentenceHook);
    expect(hookWriterFor({ HOOK_WRITER: 'openai', OPENAI_API_KEY: 'k' })).toBeInstanceOf(ChatCompletionsHook);
  });
});
