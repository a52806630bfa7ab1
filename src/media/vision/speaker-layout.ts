/**
 * Two people on screen (an interview, a podcast): per sentence, follow the
 * one who speaks, or show both stacked (a split of the tall frame: the left
 * seat on top, the right below).
 *
 * - Two speakers: two faces of comparable size side by side in at least
 *   TWO_FACE_SHARE of the samples. Each seat is the median box of its side's
 *   faces.
 * - Who speaks, per sentence: first the sound (voice-sides.ts): a voice
 *   louder by SIDE_DB on one channel for most of the sentence's voiced steps
 *   is that side's seat; both sides each holding a fair share is both. When
 *   the sound cannot tell (a mono mix), the mouths (face-track.ts
 *   SampledFace.motion): one seat's mouth moving MOTION_RATIO times the
 *   other's.
 * - The layout (`auto` by default): `follow` keeps to one face, holding the
 *   last known speaker where a sentence cannot tell; `split` stacks both
 *   throughout; `auto` follows a known speaker and stacks both where both
 *   speak or nothing tells.
 * - Changes only between sentences, midway through the pause: never inside
 *   one. A shot shorter than MIN_SHOT_SECONDS joins the one before it.
 *
 * The result is the renderer's crop path (crop-path.ts, through the seat of
 * each shot) with `split`: the two seats' crops and the windows they show.
 */
import type { ReframePath, ReframeSplit } from '../render/graph.js';
import { readVoiceSides, type VoiceSides } from '../voice-sides.js';
import { cropPathOf, type CropPathOptions } from './crop-path.js';
import type { FaceSample, FaceTrack } from './face-track.js';

export type SpeakerLayout = (typeof SPEAKER_LAYOUTS)[number];
export const SPEAKER_LAYOUTS = ['auto', 'follow', 'split'] as const;

/** at least this share of the samples shows two faces for a window to have two speakers */
export const TWO_FACE_SHARE = 0.6;
/** the smaller of the two faces has at least this share of the larger's area */
export const FACE_AREA_RATIO = 0.35;
/** dB between the channels for a step to lean to a side */
export const SIDE_DB = 4;
/** the share of a sentence's voiced steps leaning one way that makes it that side's */
export const SIDE_SHARE = 0.6;
/** each side holding at least this share of the voiced steps: both speak */
export const BOTH_SHARE = 0.2;
/** a step is voiced within this many dB of the sentence's loudest step (and above VOICED_DB) */
const VOICED_RANGE_DB = 25;
const VOICED_DB = -50;
/** one mouth moving this many times the other's (and at least MIN_MOTION) speaks */
export const MOTION_RATIO = 1.5;
export const MIN_MOTION = 1;
/** shots shorter than this join the one before */
export const MIN_SHOT_SECONDS = 1.5;
/** a seat's crop in a split: its height this many face heights (less when the source is not as tall) */
export const SPLIT_FACE_HEIGHTS = 2.4;

export type Seat = 'left' | 'right';
export type Speaking = Seat | 'both' | null;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Turn {
  start: number;
  end: number;
}

export interface Shot {
  start: number;
  end: number;
  /** the seat followed, or both stacked */
  show: Seat | 'split';
}

export interface SpeakerPlan {
  seats: Record<Seat, Box>;
  /** per turn, who the sound or the mouths say speaks */
  speaking: Speaking[];
  shots: Shot[];
  path: ReframePath;
}

/** The two seats when the track shows two speakers side by side, else null. */
export function twoSeats(samples: readonly FaceSample[]): Record<Seat, Box> | null {
  const pairs: Array<[Box, Box]> = [];
  for (const s of samples) {
    const pair = pairOf(s);
    if (pair) pairs.push(pair);
  }
  if (!samples.length || pairs.length < TWO_FACE_SHARE * samples.length) return null;
  return { left: medianBox(pairs.map((p) => p[0])), right: medianBox(pairs.map((p) => p[1])) };
}

/** The sample's two largest faces when they are of comparable size and side by side, left first. */
function pairOf(s: FaceSample): [Box, Box] | null {
  if (!s.faces || s.faces.length < 2) return null;
  const [a, b] = [...s.faces].sort((p, q) => q.w * q.h - p.w * p.h);
  if (b.w * b.h < FACE_AREA_RATIO * a.w * a.h) return null;
  const [l, r] = a.x <= b.x ? [a, b] : [b, a];
  // side by side: their centres at least a face width apart
  if (r.x + r.w / 2 - (l.x + l.w / 2) < Math.max(l.w, r.w)) return null;
  return [l, r];
}

function medianBox(boxes: Box[]): Box {
  const median = (vs: number[]) => {
    const s = [...vs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  };
  return { x: median(boxes.map((b) => b.x)), y: median(boxes.map((b) => b.y)), w: median(boxes.map((b) => b.w)), h: median(boxes.map((b) => b.h)) };
}

const centreX = (b: Box) => b.x + b.w / 2;

/** The face of `seat` in a sample: the one nearest the seat, within a seat's width of it. */
function faceAt(s: FaceSample, seats: Record<Seat, Box>, seat: Seat): (Box & { motion?: number }) | null {
  const faces = s.faces ?? (s.face ? [s.face] : []);
  let best: (Box & { motion?: number }) | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const f of faces) {
    const mine = Math.abs(centreX(f) - centreX(seats[seat]));
    const other = Math.abs(centreX(f) - centreX(seats[seat === 'left' ? 'right' : 'left']));
    if (mine < other && mine <= seats[seat].w && mine < bestD) {
      best = f;
      bestD = mine;
    }
  }
  return best;
}

/** Who speaks in [start, end): the sound's side, else the mouths', else null. */
export function whoSpeaks(turn: Turn, sides: VoiceSides | null, samples: readonly FaceSample[], seats: Record<Seat, Box>): Speaking {
  const bySound = sides ? soundSide(turn, sides) : null;
  if (bySound) return bySound;
  return mouthSide(turn, samples, seats);
}

function soundSide(turn: Turn, sides: VoiceSides): Speaking {
  const from = Math.max(0, Math.floor(turn.start / sides.step));
  const to = Math.min(sides.left.length, Math.ceil(turn.end / sides.step));
  let loudest = -Infinity;
  for (let i = from; i < to; i++) loudest = Math.max(loudest, sides.left[i], sides.right[i]);
  let voiced = 0;
  let left = 0;
  let right = 0;
  for (let i = from; i < to; i++) {
    const l = sides.left[i];
    const r = sides.right[i];
    if (Math.max(l, r) < Math.max(VOICED_DB, loudest - VOICED_RANGE_DB)) continue;
    voiced++;
    if (l - r >= SIDE_DB) left++;
    else if (r - l >= SIDE_DB) right++;
  }
  if (!voiced) return null;
  if (left >= SIDE_SHARE * voiced) return 'left';
  if (right >= SIDE_SHARE * voiced) return 'right';
  if (left >= BOTH_SHARE * voiced && right >= BOTH_SHARE * voiced) return 'both';
  return null;
}

function mouthSide(turn: Turn, samples: readonly FaceSample[], seats: Record<Seat, Box>): Speaking {
  const sum = { left: 0, right: 0 };
  let n = 0;
  for (const s of samples) {
    if (s.t < turn.start || s.t >= turn.end) continue;
    const l = faceAt(s, seats, 'left');
    const r = faceAt(s, seats, 'right');
    // both faces seen, both with a movement measured (not a shot's first sample)
    if (!l || !r || l.motion === undefined || r.motion === undefined || (l.motion === 0 && r.motion === 0)) continue;
    sum.left += l.motion;
    sum.right += r.motion;
    n++;
  }
  if (!n) return null;
  const l = sum.left / n;
  const r = sum.right / n;
  if (Math.max(l, r) < MIN_MOTION) return null;
  if (l >= MOTION_RATIO * r) return 'left';
  if (r >= MOTION_RATIO * l) return 'right';
  return 'both';
}

/** The shots of a window: one per turn by the layout, changing midway between turns, short ones joined. */
export function shotsOf(turns: readonly Turn[], speaking: readonly Speaking[], layout: SpeakerLayout, duration: number, firstSeat: Seat): Shot[] {
  const shows: Array<Shot['show']> = [];
  let held: Seat | null = null;
  speaking.forEach((who, i) => {
    if (who === 'left' || who === 'right') held = who;
    if (layout === 'split') shows[i] = 'split';
    else if (layout === 'auto') shows[i] = who === 'left' || who === 'right' ? who : 'split';
    // follow: the last known speaker; before any, the next one known
    else shows[i] = held ?? (speaking.slice(i).find((w): w is Seat => w === 'left' || w === 'right') || firstSeat);
  });
  const shots: Shot[] = [];
  turns.forEach((turn, i) => {
    const start = i === 0 ? 0 : (turns[i - 1].end + turn.start) / 2;
    const end = i === turns.length - 1 ? duration : (turn.end + turns[i + 1].start) / 2;
    const last = shots[shots.length - 1];
    if (last && last.show === shows[i]) last.end = end;
    else shots.push({ start, end, show: shows[i] });
  });
  // too short to look at: joined to the shot before (the first to the one after)
  for (let i = 0; i < shots.length && shots.length > 1; ) {
    if (shots[i].end - shots[i].start >= MIN_SHOT_SECONDS) {
      i++;
      continue;
    }
    if (i > 0) shots[i - 1].end = shots[i].end;
    else shots[1].start = shots[0].start;
    shots.splice(i, 1);
    // neighbours now the same: one shot
    for (let j = Math.max(1, i - 1); j < shots.length; j++) {
      if (shots[j].show === shots[j - 1].show) {
        shots[j - 1].end = shots[j].end;
        shots.splice(j, 1);
        j--;
      }
    }
    i = Math.max(0, i - 1);
  }
  return shots;
}

/** A seat's crop of the shape `aspect` (width / height): its face SPLIT_FACE_HEIGHTS high, inside the source, even sides. */
export function seatCrop(seat: Box, aspect: number, sourceWidth: number, sourceHeight: number): Box {
  const even = (v: number) => Math.max(2, 2 * Math.floor(v / 2));
  let h = Math.min(sourceHeight, seat.h * SPLIT_FACE_HEIGHTS);
  let w = h * aspect;
  if (w > sourceWidth) {
    w = sourceWidth;
    h = w / aspect;
  }
  const cw = even(w);
  const ch = even(h);
  const cx = centreX(seat) - cw / 2;
  // the face a little above the middle, where a portrait puts it
  const cy = seat.y + seat.h * 0.55 - ch / 2;
  const clamp = (v: number, max: number) => even(Math.min(Math.max(0, v), max));
  return { x: clamp(cx, sourceWidth - cw), y: clamp(cy, sourceHeight - ch), w: cw, h: ch };
}

export interface SpeakerLayoutInput {
  track: FaceTrack;
  /** the sentences, on the track's timeline */
  turns: readonly Turn[];
  sides: VoiceSides | null;
  layout: SpeakerLayout;
  /** the output's frame */
  output: { width: number; height: number };
  crop: Omit<CropPathOptions, 'outputAspect'>;
}

/** The plan of a window with two speakers, or null when it does not show two. */
export function planSpeakers(input: SpeakerLayoutInput & { seats?: Record<Seat, Box> }): SpeakerPlan | null {
  const { track, sides, layout, output, crop } = input;
  const seats = input.seats ?? twoSeats(track.samples);
  if (!seats) return null;
  const turns = input.turns.length ? [...input.turns].sort((a, b) => a.start - b.start) : [{ start: 0, end: crop.duration }];
  const speaking = turns.map((t) => whoSpeaks(t, sides, track.samples, seats));
  // the seat to start on when nothing tells: the larger face
  const firstSeat: Seat = seats.left.w * seats.left.h >= seats.right.w * seats.right.h ? 'left' : 'right';
  const shots = shotsOf(turns, speaking, layout, crop.duration, firstSeat);

  // the followed path: through each shot's seat, a jump at each change of shot
  const seatOf = (t: number): Seat => {
    const shot = shots.find((s) => t < s.end) ?? shots[shots.length - 1];
    if (shot.show !== 'split') return shot.show;
    // under a split the path is hidden: it holds the last seat followed (no jump to show when the split ends early)
    const before = shots.filter((s) => s.end <= shot.start && s.show !== 'split').at(-1);
    return before ? (before.show as Seat) : firstSeat;
  };
  const samples: FaceSample[] = track.samples.map((s) => {
    const seat = seatOf(s.t);
    const face = faceAt(s, seats, seat) ?? seats[seat];
    return { t: s.t, face: { x: face.x, y: face.y, w: face.w, h: face.h, score: 1 } };
  });
  const changes = [...track.shotChanges, ...shots.slice(1).map((s) => s.start)];
  const path = cropPathOf(samples, changes, { ...crop, outputAspect: output.width / output.height });
  const windows = shots.filter((s) => s.show === 'split').map((s) => ({ start: round(s.start), end: round(s.end) }));
  if (!windows.length) return { seats, speaking, shots, path };
  const topHeight = 2 * Math.floor(output.height / 4);
  const split: ReframeSplit = {
    top: seatCrop(seats.left, output.width / topHeight, crop.sourceWidth, crop.sourceHeight),
    bottom: seatCrop(seats.right, output.width / (output.height - topHeight), crop.sourceWidth, crop.sourceHeight),
    windows,
  };
  return { seats, speaking, shots, path: { ...path, split } };
}

const round = (v: number) => Math.round(v * 1000) / 1000;

export interface FollowInput {
  track: FaceTrack;
  /** the video the track was taken of (a local file or a store's URL) and its window there */
  source: { path: string; start: number; duration: number };
  sourceWidth: number;
  sourceHeight: number;
  output: { width: number; height: number };
  /** the sentences, on the track's timeline */
  turns: readonly Turn[];
  /** null: auto */
  layout: SpeakerLayout | null;
  signal?: AbortSignal;
}

/**
 * The crop path of a picture that follows faces: through the one speaking
 * (and both stacked) when two people are on screen, else along the one face
 * (crop-path.ts). The sound's sides are read only for two. `plan`: the
 * speakers' plan, null for one face.
 */
export async function followPath(input: FollowInput): Promise<{ path: ReframePath; plan: SpeakerPlan | null }> {
  const { track, source, sourceWidth, sourceHeight, output } = input;
  const crop = { sourceWidth, sourceHeight, duration: source.duration };
  const seats = twoSeats(track.samples);
  if (seats) {
    const sides = await readVoiceSides(source, { signal: input.signal });
    const plan = planSpeakers({ track, seats, turns: input.turns, sides, layout: input.layout ?? 'auto', output, crop });
    if (plan) return { path: plan.path, plan };
  }
  return { path: cropPathOf(track.samples, track.shotChanges, { ...crop, outputAspect: output.width / output.height }), plan: null };
}
