/**
 * The child process that holds a whisper.cpp model (whisper.ts starts it): loads the model
 * once, then transcribes one piece of a WAV file at a time on request (only its samples are
 * read), reporting each segment as it is decoded, its times from the piece's start.
 * Messages: see HostRequest and HostReply in whisper.ts.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { readWavInfo } from '../wav.js';
import type { HostReply, HostRequest, NativeSegment } from './whisper.js';

interface Binding {
  WhisperModel: { load(file: string, gpu: boolean): Promise<NativeModel> };
  TranscribeTask: {
    run(
      model: NativeModel,
      pcm: Float32Array,
      params: Record<string, unknown>,
    ): Promise<{ result: Promise<NativeSegment[] | Error>; on(event: 'transcribed', f: (s: NativeSegment) => void): void }>;
  };
}
interface NativeModel {
  free(): Promise<void>;
}

const send = (reply: HostReply) => process.send?.(reply);
let model: NativeModel | undefined;

/** Sample frames [from, to) of 16 kHz mono 16-bit PCM, as the floats whisper.cpp takes. */
async function readPcm(file: string, from: number, to: number): Promise<Float32Array> {
  const info = await readWavInfo(file);
  if (info.sampleRate !== 16_000 || info.channels !== 1 || info.bitsPerSample !== 16) {
    throw new Error(`${file} is not 16 kHz mono 16-bit PCM`);
  }
  const total = Math.floor(info.dataBytes / 2);
  const first = Math.min(Math.max(0, from), total);
  const data = Buffer.alloc((Math.min(Math.max(first, to), total) - first) * 2);
  const fh = await fs.open(file, 'r');
  try {
    await fh.read(data, 0, data.length, info.dataOffset + first * 2);
  } finally {
    await fh.close();
  }
  const pcm = new Float32Array(data.length / 2);
  for (let i = 0; i < pcm.length; i++) pcm[i] = data.readInt16LE(i * 2) / 32768;
  return pcm;
}

async function handle(req: HostRequest) {
  switch (req.op) {
    case 'load': {
      const binding = createRequire(import.meta.url)('smart-whisper') as Binding;
      model = await binding.WhisperModel.load(req.model, false);
      send({ op: 'loaded' });
      return;
    }
    case 'transcribe': {
      if (!model) throw new Error('no model loaded');
      const binding = createRequire(import.meta.url)('smart-whisper') as Binding;
      const pcm = await readPcm(req.wav, req.from, req.to);
      const task = await binding.TranscribeTask.run(model, pcm, req.params);
      task.on('transcribed', (s) => send({ op: 'segment', id: req.id, to: s.to }));
      const result = await task.result;
      // the binding resolves with the Error when whisper_full fails
      if (result instanceof Error) throw result;
      send({ op: 'result', id: req.id, segments: result });
      return;
    }
    case 'free':
      await model?.free();
      model = undefined;
      send({ op: 'freed' });
      return;
  }
}

process.on('message', (req: HostRequest) => {
  handle(req).catch((e: unknown) => send({ op: 'error', id: 'id' in req ? req.id : undefined, message: e instanceof Error ? e.message : String(e) }));
});
// the parent gone: nothing left to answer
process.on('disconnect', () => process.exit(0));
