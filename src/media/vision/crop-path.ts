/**
 * From the speaker's face at each sample (face-track.ts) to the path of a
 * fixed-size crop of the output's aspect: the full source height of a
 * landscape source, moved sideways the way a camera operator would.
 *
 * - Dead zone: no move while the face's centre stays within DEAD_ZONE of a
 *   crop width of the crop's centre; once it leaves, the crop pans until the
 *   face is centred again (hysteresis: small jitter never starts a pan).
 * - Pan speed at most MAX_PAN_SPEED crop widths a second (456 px/s for the
 *   608 px crop of a 1920x1080 source), constant: no overshoot.
 * - The path is made after the fact, so each move heads for where the face
 *   is at the next sample: the crop arrives with the face, never behind it.
 * - A sample without a face holds the position; after MISS_HOLD_SECONDS
 *   without one the crop drifts back to the centre at DRIFT_SPEED.
 * - At a shot change the crop jumps (one key) to the new shot's first face
 *   (when one shows within MISS_HOLD_SECONDS), else to the centre.
 * - Keys: one where a move starts or the crop jumps, and during a pan up to
 *   KEYS_PER_SECOND evenly spaced (ending on each sample's time), enough for
 *   a per-frame-ish `sendcmd`. A key holds until the next one.
 *
 * A source as narrow as the aspect or narrower gets a centred fixed crop, as
 * does a clip where no face was found: one key at t=0.
 */
import type { ReframeKey as CropKey, ReframePath as CropPath } from '../render/graph.js';
import type { FaceSample } from './face-track.js';

export interface CropPathOptions {
  /** the displayed source's size (rotation applied), px */
  sourceWidth: number;
  sourceHeight: number;
  /** the output's width / height, e.g. 9/16 */
  outputAspect: number;
  /** the clip's length, s: samples and keys beyond it are dropped */
  duration: number;
  /** at most this many keys a second during a pan (default KEYS_PER_SECOND) */
  keysPerSecond?: number;
}

/** half-width of the dead zone, as a share of the crop width */
export const DEAD_ZONE = 0.1;
/** crop widths per second */
export const MAX_PAN_SPEED = 0.75;
/** seconds without a face before the crop drifts back to the centre */
export const MISS_HOLD_SECONDS = 2;
/** crop widths per second, drifting back to the centre */
export const DRIFT_SPEED = 0.25;
/** at most this many keys a second during a pan, by default (the renderer sends one command per key) */
export const KEYS_PER_SECOND = 10;

const EPS = 1e-6;

/** The crop of the output's aspect inside the source, both sides even. */
export function cropSize(sourceWidth: number, sourceHeight: number, outputAspect: number): { width: number; height: number } {
  const even = (v: number, max: number) => Math.min(max - (max % 2), Math.max(2, 2 * Math.round(v / 2)));
  if (sourceWidth / sourceHeight > outputAspect) return { width: even(sourceHeight * outputAspect, sourceWidth), height: even(sourceHeight, sourceHeight) };
  return { width: even(sourceWidth, sourceWidth), height: even(sourceWidth / outputAspect, sourceHeight) };
}

export function cropPathOf(samples: FaceSample[], shotChanges: number[], opts: CropPathOptions): CropPath {
  const { sourceWidth: W, sourceHeight: H, outputAspect, duration, keysPerSecond = KEYS_PER_SECOND } = opts;
  if (!(W > 0 && H > 0 && outputAspect > 0 && keysPerSecond > 0)) throw new RangeError('source size, aspect and keys per second must be positive');
  const { width, height } = cropSize(W, H, outputAspect);
  const y = Math.round((H - height) / 2);
  const centred: CropPath = { width, height, keys: [{ t: 0, x: Math.round((W - width) / 2), y }] };

  const seen = samples.filter((s) => s.t >= 0 && s.t <= duration + EPS).sort((a, b) => a.t - b.t);
  // no room to move sideways, or nothing to follow
  if (W - width < 2 || !seen.some((s) => s.face)) return centred;

  // positions are the crop's centre, kept where the whole crop is inside the frame
  const lo = width / 2;
  const hi = W - width / 2;
  const clamp = (c: number) => Math.min(hi, Math.max(lo, c));
  const faceCentre = (s: FaceSample) => (s.face ? s.face.x + s.face.w / 2 : null);
  const deadZone = DEAD_ZONE * width;
  const panSpeed = MAX_PAN_SPEED * width;
  const driftSpeed = DRIFT_SPEED * width;

  const cuts = [...shotChanges].sort((a, b) => a - b);
  const startsShot = (k: number) => k > 0 && cuts.some((c) => c > seen[k - 1].t + EPS && c <= seen[k].t + EPS);

  const keys: CropKey[] = [];
  const emit = (t: number, c: number) => {
    const x = Math.round(clamp(c) - width / 2);
    const last = keys[keys.length - 1];
    if (last && last.x === x) return;
    const at = Math.round(t * 1000) / 1000;
    if (last && last.t === at) last.x = x;
    else keys.push({ t: at, x, y });
  };

  let pos = W / 2;
  let panning = false;
  let lastFaceAt = 0;
  for (let k = 0; k < seen.length; k++) {
    const s = seen[k];
    if (k === 0 || startsShot(k)) {
      // a new shot: jump to its first face, when one shows soon enough
      const shotStart = k === 0 ? 0 : s.t;
      let first: number | null = null;
      for (let j = k; j < seen.length && (j === k || !startsShot(j)) && seen[j].t - shotStart <= MISS_HOLD_SECONDS + EPS; j++) {
        first = faceCentre(seen[j]);
        if (first !== null) break;
      }
      pos = clamp(first ?? W / 2);
      panning = false;
      lastFaceAt = shotStart;
      emit(shotStart, pos);
      continue;
    }
    const from = seen[k - 1].t;
    const dt = s.t - from;
    const fc = faceCentre(s);
    let aim = pos;
    let speed = panSpeed;
    if (fc !== null) {
      lastFaceAt = s.t;
      if (panning || Math.abs(fc - pos) > deadZone) {
        aim = clamp(fc);
        panning = true;
      }
    } else if (s.t - lastFaceAt > MISS_HOLD_SECONDS + EPS) {
      aim = clamp(W / 2);
      speed = driftSpeed;
      panning = false;
    }
    const step = Math.max(-speed * dt, Math.min(speed * dt, aim - pos));
    const next = pos + step;
    if (Math.abs(aim - next) < 0.5) panning = false;
    if (Math.round(next) !== Math.round(pos)) {
      // the move runs over the interval before this sample, in evenly spaced keys
      const n = Math.max(1, Math.floor(dt * keysPerSecond + EPS));
      for (let i = 1; i <= n; i++) emit(from + (dt * i) / n, pos + (step * i) / n);
    }
    pos = next;
  }
  return { width, height, keys: keys.filter((key) => key.t <= duration + EPS) };
}
