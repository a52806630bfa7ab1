import { describe, expect, it } from 'vitest';
import { buildRenderGraph } from '../../src/media/render/graph.js';
import type { FaceSample } from '../../src/media/vision/face-track.js';
import { MIN_SHOT_SECONDS, planSpeakers, seatCrop, shotsOf, twoSeats, whoSpeaks, type Turn } from '../../src/media/vision/speaker-layout.js';
import type { VoiceSides } from '../../src/media/voice-sides.js';

const W = 1920;
const H = 1080;
const LEFT = { x: 380, y: 380, w: 240, h: 300, score: 0.9 };
const RIGHT = { x: 1300, y: 380, w: 240, h: 300, score: 0.9 };

/** Samples at 3 a second over `duration` s, both faces in each, the mouths' motion given per seat. */
function samples(duration: number, motion: (t: number) => { left: number; right: number } = () => ({ left: 0, right: 0 })): FaceSample[] {
  return Array.from({ length: Math.ceil(duration * 3) }, (_, k) => {
    const t = k / 3;
    const m = motion(t);
    return {
      t,
      face: LEFT,
      faces: [
        { ...LEFT, motion: m.left },
        { ...RIGHT, motion: m.right },
      ],
    };
  });
}

/** Channel loudness on 0.1 s steps: each turn's voice at -20 dB on its side, the other side `other` dB below, silence between. */
function sides(duration: number, turns: Array<Turn & { side: 'left' | 'right' | 'both' }>, other = 15): VoiceSides {
  const n = Math.ceil(duration / 0.1);
  const left = new Float32Array(n).fill(-120);
  const right = new Float32Array(n).fill(-120);
  for (const t of turns) {
    for (let i = Math.floor(t.start / 0.1); i < Math.ceil(t.end / 0.1) && i < n; i++) {
      left[i] = t.side === 'right' ? -20 - other : -20;
      right[i] = t.side === 'left' ? -20 - other : -20;
    }
  }
  return { step: 0.1, left, right };
}

const TURNS = [
  { start: 0.5, end: 4, side: 'left' as const },
  { start: 4.8, end: 8, side: 'right' as const },
  { start: 8.8, end: 12, side: 'both' as const },
  { start: 12.8, end: 16, side: 'left' as const },
];

describe('two speakers', () => {
  it('finds two seats only when two comparable faces sit side by side in most samples', () => {
    expect(twoSeats(samples(10))).toEqual({ left: expect.objectContaining({ x: LEFT.x }), right: expect.objectContaining({ x: RIGHT.x }) });
    // one face in most samples
    const mostlyOne = samples(10).map((s, i) => (i % 3 === 0 ? s : { ...s, faces: [{ ...LEFT, motion: 0 }] }));
    expect(twoSeats(mostlyOne)).toBeNull();
    // a small face in the background is no second speaker
    const small = samples(10).map((s) => ({
      ...s,
      faces: [
        { ...LEFT, motion: 0 },
        { ...RIGHT, w: 80, h: 100, motion: 0 },
      ],
    }));
    expect(twoSeats(small)).toBeNull();
  });

  it('reads who speaks from the sound’s side, and from the mouths when the sound is mono', () => {
    const seats = twoSeats(samples(16))!;
    const stereo = sides(16, TURNS);
    expect(TURNS.map((t) => whoSpeaks(t, stereo, samples(16), seats))).toEqual(['left', 'right', null, 'left']);
    // a turn where the two sides take turns within it: both
    const alternating = sides(4, [
      { start: 0, end: 2, side: 'left' },
      { start: 2, end: 4, side: 'right' },
    ]);
    expect(whoSpeaks({ start: 0, end: 4 }, alternating, samples(4), seats)).toBe('both');
    // mono: the same on both channels; the right mouth moves, the left does not
    const mono = sides(
      16,
      TURNS.map((t) => ({ ...t, side: 'both' as const })),
    );
    const rightTalks = samples(16, () => ({ left: 0.3, right: 4 }));
    expect(whoSpeaks(TURNS[0], mono, rightTalks, seats)).toBe('right');
    expect(
      whoSpeaks(
        TURNS[0],
        mono,
        samples(16, () => ({ left: 3, right: 3.5 })),
        seats,
      ),
    ).toBe('both');
    // still pictures and mono sound: nothing tells
    expect(whoSpeaks(TURNS[0], mono, samples(16), seats)).toBeNull();
  });

  it('lays out shots by the layout, changing midway between sentences, never inside one', () => {
    const speaking = ['left', 'right', null, 'left'] as const;
    const auto = shotsOf(TURNS, speaking, 'auto', 16.5, 'left');
    expect(auto.map((s) => s.show)).toEqual(['left', 'right', 'split', 'left']);
    expect(auto.map((s) => s.start)).toEqual([0, 4.4, 8.4, 12.4]);
    expect(auto.at(-1)!.end).toBe(16.5);
    for (const shot of auto) for (const t of TURNS) expect(shot.start <= t.start || shot.start >= t.end).toBe(true);
    expect(shotsOf(TURNS, speaking, 'follow', 16.5, 'left').map((s) => s.show)).toEqual(['left', 'right', 'left']);
    expect(shotsOf(TURNS, speaking, 'split', 16.5, 'left')).toEqual([{ start: 0, end: 16.5, show: 'split' }]);
    // follow before anyone is known: the first known speaker
    expect(shotsOf(TURNS, [null, 'right', null, null], 'follow', 16.5, 'left').map((s) => s.show)).toEqual(['right']);
  });

  it('joins a shot too short to watch to the one before it', () => {
    const turns = [
      { start: 0, end: 3 },
      { start: 3.2, end: 3.9 },
      { start: 4.1, end: 8 },
    ];
    const shots = shotsOf(turns, ['left', 'right', 'left'], 'auto', 8, 'left');
    expect(shots).toEqual([{ start: 0, end: 8, show: 'left' }]);
    for (const s of shotsOf(TURNS, ['left', 'right', 'both', 'left'], 'auto', 16.5, 'left')) expect(s.end - s.start).toBeGreaterThanOrEqual(MIN_SHOT_SECONDS);
  });

  it('crops each seat to its half of the frame, the face inside it, within the source', () => {
    const crop = seatCrop(LEFT, 1080 / 960, W, H);
    expect(crop.w / crop.h).toBeCloseTo(1080 / 960, 1);
    expect(crop.x).toBeLessThanOrEqual(LEFT.x);
    expect(crop.x + crop.w).toBeGreaterThanOrEqual(LEFT.x + LEFT.w);
    expect(crop.y).toBeLessThanOrEqual(LEFT.y);
    expect(crop.y + crop.h).toBeLessThanOrEqual(H);
    expect([crop.x % 2, crop.y % 2, crop.w % 2, crop.h % 2]).toEqual([0, 0, 0, 0]);
  });

  it('plans a path through the speaking seat, with the split windows the renderer stacks', () => {
    const plan = planSpeakers({
      track: { samples: samples(16.5), shotChanges: [] },
      turns: TURNS,
      sides: sides(16.5, TURNS),
      layout: 'auto',
      output: { width: 1080, height: 1920 },
      crop: { sourceWidth: W, sourceHeight: H, duration: 16.5 },
    })!;
    const xAt = (t: number) => plan.path.keys.filter((k) => k.t <= t + 1e-9).at(-1)!.x;
    const centreAt = (t: number) => xAt(t) + plan.path.width / 2;
    expect(Math.abs(centreAt(2) - (LEFT.x + LEFT.w / 2))).toBeLessThan(10);
    expect(Math.abs(centreAt(6) - (RIGHT.x + RIGHT.w / 2))).toBeLessThan(10);
    expect(Math.abs(centreAt(14) - (LEFT.x + LEFT.w / 2))).toBeLessThan(10);
    expect(plan.path.split?.windows).toEqual([{ start: 8.4, end: 12.4 }]);

    // the graph draws each frame once: the moving crop before and after, the two crops stacked in the window, joined before the cut
    const graph = buildRenderGraph({
      source: { path: 'in.mp4', width: W, height: H, fps: 30, rotation: 0, duration: 16.5, hasAudio: true },
      output: { width: 1080, height: 1920, fps: 30, fit: 'path' },
      reframe: plan.path,
      keep: [{ start: 0, end: 16.5 }],
      audio: { clean: false },
    });
    const script = graph.filterScript;
    expect(script).toContain('split=3[rs0][rs1][rs2]');
    expect(script).toMatch(/\[rs0\]trim=end=8\.4,(sendcmd=[^\n]*,)?crop@reframe0=/);
    expect(script).toMatch(/\[rs1\]trim=start=8\.4:end=12\.4,split=2/);
    expect(script).toContain('vstack=inputs=2');
    expect(script).toMatch(/\[rs2\]trim=start=12\.4,(sendcmd=[^\n]*,)?crop@reframe2=/);
    expect(script).toContain('[rp0][rp1][rp2]concat=n=3:v=1:a=0');
  });
});
