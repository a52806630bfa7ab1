/**
 * `npm run bench -- concurrency`: a transcription and a render started together, each against
 * its time alone, under the rule of src/media/cpu.ts (whisper.cpp on one core fewer than there
 * are, renders at nice 10), and without it (whisper.cpp on every core, renders at normal
 * priority) to show what the rule prevents.
 *
 * The transcription is the Whisper engine on 30 s of espeak-ng speech, with WHISPER_MODEL when
 * it is set, else the tests' generated tiny.en-shaped model (random weights: its time is
 * whisper.cpp's work on junk, not a real model's). The render is a 20 s 720x1280 clip with
 * sound exported to 1080x1920 through the service's renderer (graph.ts + ffmpeg.ts).
 *
 * Then the model's turns (src/media/transcription/turns.ts): a four-minute recording of a
 * batch job, transcribed whole and in pieces, and the 30 s one of an interactive job asked a
 * second after it started: how long the short one takes beside each.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CPU_CORES, RENDER_NICENESS, whisperThreads } from '../src/media/cpu.js';
import { renderVideo } from '../src/media/render/ffmpeg.js';
import { buildRenderGraph } from '../src/media/render/graph.js';
import { readWhisperModel } from '../src/media/transcription/ggml-model.js';
import { createWhisperTranscriber } from '../src/media/transcription/whisper.js';
import { PIECE_SECONDS } from '../src/media/transcription/pieces.js';
import { JOB_NAMES } from '../src/jobs/names.js';
import { runInClass } from '../src/jobs/priority.js';
import { generatedTinyEn } from '../test/support/whisper-model.js';
import type { Row } from './row.js';

const run = promisify(execFile);
const SECTION = 'concurrency';
const FF = ['-hide_banner', '-loglevel', 'error', '-y'];
const SPEECH =
  'Here is the thing nobody tells you about editing short videos. You cut the pauses, you punch in on the key line, and you keep the captions big.';

interface Rule {
  label: string;
  threads: number;
  niceness: number;
}

export async function concurrency(): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-concurrency-'));
  try {
    const one = path.join(dir, 'one.wav');
    const speech = path.join(dir, 'speech.wav');
    const video = path.join(dir, 'talk.mp4');
    await run('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', one, SPEECH]);
    await run('ffmpeg', [...FF, '-stream_loop', '-1', '-i', one, '-t', '30', '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', speech]);
    await run('ffmpeg', [
      ...FF,
      ...['-f', 'lavfi', '-i', 'testsrc2=s=720x1280:r=30:d=20', '-f', 'lavfi', '-i', 'sine=f=220:d=20:sample_rate=48000'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video],
    ]);
    const modelPath = process.env.WHISPER_MODEL || generatedTinyEn();
    const model = readWhisperModel(modelPath);
    const graph = buildRenderGraph({
      source: { path: video, width: 720, height: 1280, fps: 30, rotation: 0, hasAudio: true, duration: 20 },
      output: { width: 1080, height: 1920, fps: 30 },
      keep: [{ start: 0, end: 20 }],
      audio: { clean: false },
    });

    const rules: Rule[] = [
      { label: 'rule', threads: whisperThreads(), niceness: RENDER_NICENESS },
      { label: 'no rule', threads: Math.min(4, CPU_CORES), niceness: 0 },
    ];
    const rows: Row[] = [];
    const note = `${CPU_CORES} cores, ${model.type} ${process.env.WHISPER_MODEL ? '' : '(random weights) '}on 30 s of speech, 20 s render to 1080x1920`;
    for (const rule of rules) {
      const engine = createWhisperTranscriber({ model, threads: rule.threads });
      try {
        const transcribe = async () => {
          const t0 = performance.now();
          await engine.transcribe(speech, { language: 'en' });
          return (performance.now() - t0) / 1000;
        };
        const render = async () => {
          const t0 = performance.now();
          await renderVideo(graph, path.join(dir, 'out.mp4'), { niceness: rule.niceness });
          return (performance.now() - t0) / 1000;
        };
        await transcribe(); // loads the model: the jobs after it find it loaded
        const whisperAlone = await transcribe();
        const renderAlone = await render();
        const [whisperTogether, renderTogether] = await Promise.all([transcribe(), render()]);
        const detail = `${rule.threads} whisper thread(s), renders at nice ${rule.niceness}`;
        rows.push(
          { section: SECTION, metric: `${rule.label}: transcription alone`, value: whisperAlone, unit: 's', note: `${detail}; ${note}` },
          { section: SECTION, metric: `${rule.label}: render alone`, value: renderAlone, unit: 's', note: detail },
          {
            section: SECTION,
            metric: `${rule.label}: transcription beside a render`,
            value: whisperTogether / whisperAlone,
            unit: '× alone',
            note: `${whisperTogether.toFixed(1)} s`,
          },
          {
            section: SECTION,
            metric: `${rule.label}: render beside a transcription`,
            value: renderTogether / renderAlone,
            unit: '× alone',
            note: `${renderTogether.toFixed(1)} s`,
          },
        );
      } finally {
        await engine.close?.();
      }
    }
    rows.push(
      ...(await turns(
        model,
        speech,
        dir,
        `${CPU_CORES} cores, ${model.type} ${process.env.WHISPER_MODEL ? '' : '(random weights) '}on the 30 s of speech eight times`,
      )),
    );
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A long batch transcription, whole and in pieces, and a short interactive one asked a second into it. */
async function turns(model: ReturnType<typeof readWhisperModel>, speech: string, dir: string, note: string): Promise<Row[]> {
  const long = path.join(dir, 'long.wav');
  await run('ffmpeg', [...FF, '-stream_loop', '7', '-i', speech, '-c', 'copy', long]);
  const rows: Row[] = [];
  for (const [label, pieceSeconds] of [
    ['whole', Number.POSITIVE_INFINITY],
    ['in pieces', PIECE_SECONDS],
  ] as const) {
    const engine = createWhisperTranscriber({ model, pieceSeconds });
    try {
      await engine.transcribe(speech, { language: 'en' }); // loads the model
      const t0 = performance.now();
      const longDone = runInClass(JOB_NAMES.processMagicClips, () => engine.transcribe(long, { language: 'en' })).then(() => (performance.now() - t0) / 1000);
      await new Promise((r) => setTimeout(r, 1000));
      const t1 = performance.now();
      await runInClass(JOB_NAMES.processProject, () => engine.transcribe(speech, { language: 'en' }));
      const short = (performance.now() - t1) / 1000;
      const longSeconds = await longDone;
      rows.push(
        { section: SECTION, metric: `turns: 240 s of a batch job, ${label}`, value: longSeconds, unit: 's', note },
        {
          section: SECTION,
          metric: `turns: 30 s of an interactive job asked 1 s into it, ${label}`,
          value: short,
          unit: 's',
          note: label === 'whole' ? 'waits for the whole recording' : `waits for one piece of about ${PIECE_SECONDS} s`,
        },
      );
    } finally {
      await engine.close?.();
    }
  }
  return rows;
}
