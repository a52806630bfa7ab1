import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cropPathOf, cropSize, DEAD_ZONE, DRIFT_SPEED, KEYS_PER_SECOND, MAX_PAN_SPEED, MISS_HOLD_SECONDS } from '../../src/media/vision/crop-path.js';
import { FaceTrackError, pickSpeaker, trackFaces, type FaceSample, type FaceTrack } from '../../src/media/vision/face-track.js';
import type { CropPath } from '../../src/magic-clips/types.js';
import { probe } from '../../src/media/ffprobe.js';
import { createFaceDetector, type Face, type FaceDetector } from '../../src/media/vision/face-detector.js';
import { acrossTheFrame, FACE_PICTURE, FACE_PICTURE_SIZE, makeMovingFaceVideo, type MovingFace } from '../support/faces.js';
import { FF } from '../support/media.js';

const run = promisify(execFile);
const NINE_SIXTEEN = 9 / 16;

let dir: string;
let detector: FaceDetector;
/** the face's centre inside the 512 px picture, as the detector sees it on the picture alone */
let faceInPicture: { x: number; y: number };

const centreOf = (f: Face) => ({ x: f.x + f.w / 2, y: f.y + f.h / 2 });

async function rgbOf(input: string[], vf: string): Promise<Buffer> {
  const { stdout } = await run('ffmpeg', [...FF, ...input, '-vf', vf, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 1 << 26,
  });
  return stdout;
}

/** Where the face's centre is in a MovingFace video at time t. */
function expectedCentre(m: MovingFace, t: number) {
  const p = m.at(t);
  const k = m.size / FACE_PICTURE_SIZE;
  return { x: p.x + faceInPicture.x * k, y: p.y + faceInPicture.y * k };
}

/** The crop's left edge in force at time t (a key holds until the next). */
function cropXAt(path: CropPath, t: number): number {
  let x = path.keys[0].x;
  for (const k of path.keys) if (k.t <= t + 1e-9) x = k.x;
  return x;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'face-tracking-'));
  detector = await createFaceDetector();
  const faces = await detector.detect(await rgbOf(['-i', FACE_PICTURE], 'null'), FACE_PICTURE_SIZE, FACE_PICTURE_SIZE);
  expect(faces).toHaveLength(1);
  faceInPicture = centreOf(faces[0]);
});
afterAll(async () => {
  await detector?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('face detector (BlazeFace on onnxruntime)', () => {
  it('finds the one face of the portrait where it is: between the eyes and the mouth', async () => {
    const [face] = await detector.detect(await rgbOf(['-i', FACE_PICTURE], 'null'), 512, 512);
    // by eye: the eyes at y≈185, the mouth at y≈262, the cheeks at x≈175 and x≈355
    expect(face.score).toBeGreaterThan(0.8);
    expect(centreOf(face).x).toBeGreaterThan(245);
    expect(centreOf(face).x).toBeLessThan(290);
    expect(centreOf(face).y).toBeGreaterThan(185);
    expect(centreOf(face).y).toBeLessThan(260);
    expect(face.w).toBeGreaterThan(140);
    expect(face.w).toBeLessThan(240);
  });

  it('gives the box in the pixels of the frame it was given, whatever its size and aspect', async () => {
    // the picture at 200 px, top-left (1000, 420), in a 1280x720 frame given at 1280x720 and at 320x180
    const input = ['-f', 'lavfi', '-i', 'color=c=0x304050:s=1280x720:d=1', '-i', FACE_PICTURE];
    for (const [w, h] of [
      [1280, 720],
      [320, 180],
    ]) {
      const { stdout } = await run(
        'ffmpeg',
        [
          ...FF,
          ...input,
          '-filter_complex',
          `[1:v]scale=200:200[f];[0:v][f]overlay=1000:420,scale=${w}:${h}`,
          '-frames:v',
          '1',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgb24',
          'pipe:1',
        ],
        { encoding: 'buffer', maxBuffer: 1 << 26 },
      );
      const faces = await detector.detect(stdout, w, h);
      expect(faces).toHaveLength(1);
      const k = 1280 / w;
      const c = centreOf(faces[0]);
      expect(Math.abs(c.x * k - (1000 + (faceInPicture.x * 200) / 512))).toBeLessThan(12);
      expect(Math.abs(c.y * k - (420 + (faceInPicture.y * 200) / 512))).toBeLessThan(12);
    }
  });

  it('finds no face in test patterns', async () => {
    for (const src of ['testsrc2=s=640x360', 'mandelbrot=s=640x360', 'smptehdbars=s=640x360', 'color=c=0x5a6b7c:s=640x360']) {
      const rgb = await rgbOf(['-f', 'lavfi', '-i', src], 'null');
      expect(await detector.detect(rgb, 640, 360), src).toEqual([]);
    }
  });

  it('refuses a buffer that is not the size it is said to be', async () => {
    await expect(detector.detect(new Uint8Array(100), 640, 360)).rejects.toThrow(/not 640x360 RGB/);
  });
});

describe('trackFaces', () => {
  let moving: MovingFace;
  let movingFile: string;
  let track3: FaceTrack;

  beforeAll(async () => {
    moving = acrossTheFrame(1280, 720, 8);
    movingFile = path.join(dir, 'moving.mp4');
    await makeMovingFaceVideo(movingFile, moving);
    track3 = await trackFaces({ path: movingFile, start: 0, duration: 8, width: 1280, height: 720 });
  });

  const accuracy = (m: MovingFace, track: FaceTrack, offset = 0) => {
    const good = track.samples.filter((s) => {
      if (!s.face) return false;
      const want = expectedCentre(m, s.t + offset);
      const got = centreOf(s.face);
      return Math.abs(got.x - want.x) < 0.05 * m.width && Math.abs(got.y - want.y) < 0.05 * m.width;
    });
    return good.length / track.samples.length;
  };

  /** how far right of where it should be the face is on average (it moves right: a late sample leads) */
  const meanLead = (m: MovingFace, track: FaceTrack, offset = 0) =>
    track.samples.reduce((sum, s) => sum + centreOf(s.face!).x - expectedCentre(m, s.t + offset).x, 0) / track.samples.length;

  it('samples the window at 3 fps by default, at k/3 s, and finds the moving face in ≥ 95 % within 5 % of the width', () => {
    expect(track3.samples.map((s) => s.t)).toEqual(Array.from({ length: 24 }, (_, k) => Math.round((k / 3) * 1000) / 1000));
    expect(accuracy(moving, track3)).toBeGreaterThanOrEqual(0.95);
    // sample k is the frame at k/3 s: plain fps=3 takes frame 10k+4 of this 30 fps video, 0.13 s late, and the face ~14 px further right
    expect(Math.abs(meanLead(moving, track3))).toBeLessThan(0.006 * moving.width);
    expect(track3.shotChanges).toEqual([]);
    // the detector's box is the size of the face drawn (the picture's face is ~40 % of it)
    for (const s of track3.samples) if (s.face) expect(s.face.w / moving.size).toBeGreaterThan(0.25);
  });

  it('analyses just the window asked for, at 5 fps: times from the window start, positions of the source', async () => {
    // a start between two frames (2.51 s; frames every 1/30 s): sample k is still the frame shown at start + k/5
    const track = await trackFaces({ path: movingFile, start: 2.51, duration: 4, width: 1280, height: 720 }, { fps: 5 });
    expect(track.samples).toHaveLength(20);
    expect(track.samples[0].t).toBe(0);
    expect(track.samples[19].t).toBe(3.8);
    expect(accuracy(moving, track, 2.51)).toBeGreaterThanOrEqual(0.95);
    expect(Math.abs(meanLead(moving, track, 2.51))).toBeLessThan(0.006 * moving.width);
  });

  it('maps faces to the displayed picture of a rotated source (ffmpeg turns it upright; the probe gives the displayed size)', async () => {
    // coded 720x1280, turned a quarter clockwise, and tagged to be shown turned back: displayed as the landscape original
    const coded = path.join(dir, 'coded.mp4');
    const rotated = path.join(dir, 'rotated.mp4');
    await run('ffmpeg', [...FF, '-i', movingFile, '-vf', 'transpose=clock', '-c:v', 'libx264', '-preset', 'ultrafast', coded]);
    await run('ffmpeg', [...FF, '-i', coded, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', rotated]);
    const info = await probe(rotated);
    expect(info.video).toMatchObject({ width: 1280, height: 720, rotation: 90 });
    const track = await trackFaces({ path: rotated, start: 0, duration: 8, width: info.video!.width, height: info.video!.height }, { fps: 2 });
    expect(track.samples).toHaveLength(16);
    expect(accuracy(moving, track)).toBeGreaterThanOrEqual(0.95);
  });

  it('finds no face in a face-free video, and its crop is the centred one', async () => {
    const file = path.join(dir, 'pattern.mp4');
    await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=30:d=4', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
    const track = await trackFaces({ path: file, start: 0, duration: 4, width: 1280, height: 720 }, { fps: 5 });
    expect(track.samples).toHaveLength(20);
    expect(track.samples.filter((s) => s.face)).toEqual([]);
    const crop = cropPathOf(track.samples, track.shotChanges, { sourceWidth: 1280, sourceHeight: 720, outputAspect: NINE_SIXTEEN, duration: 4 });
    expect(crop).toEqual({ width: 406, height: 720, keys: [{ t: 0, x: 437, y: 0 }] });
  });

  it('finds the cut between two shots and the crop jumps there; the face stays inside the crop at every sample', async () => {
    // shot 1 (0-4 s): the face still at the left; shot 2 (4-8 s): another background, the face at the right
    const file = path.join(dir, 'cut.mp4');
    const picture = ['-loop', '1', '-framerate', '30', '-t', '4', '-i', FACE_PICTURE];
    await run('ffmpeg', [
      ...FF,
      '-f',
      'lavfi',
      '-i',
      'color=c=0x5a6b7c:s=1280x720:r=30:d=4',
      '-f',
      'lavfi',
      '-i',
      'color=c=0xc8b070:s=1280x720:r=30:d=4',
      ...picture,
      ...picture,
      '-filter_complex',
      '[2:v]scale=300:300,setsar=1[f1];[3:v]scale=300:300,setsar=1[f2];[0:v][f1]overlay=100:200:shortest=1[a];[1:v][f2]overlay=880:150:shortest=1[b];[a][b]concat=n=2:v=1,format=yuv420p[v]',
      '-map',
      '[v]',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      file,
    ]);
    const track = await trackFaces({ path: file, start: 0, duration: 8, width: 1280, height: 720 }, { fps: 3 });
    expect(track.shotChanges).toEqual([4]);
    expect(track.samples.every((s) => s.face)).toBe(true);
    const crop = cropPathOf(track.samples, track.shotChanges, { sourceWidth: 1280, sourceHeight: 720, outputAspect: NINE_SIXTEEN, duration: 8 });
    // one key per shot: held still, then one jump at the cut
    expect(crop.keys.map((k) => k.t)).toEqual([0, 4]);
    expect(crop.keys[1].x - crop.keys[0].x).toBeGreaterThan(600);
    for (const s of track.samples) {
      const x = cropXAt(crop, s.t);
      expect(s.face!.x).toBeGreaterThanOrEqual(x);
      expect(s.face!.x + s.face!.w).toBeLessThanOrEqual(x + crop.width);
    }
  });

  it('keeps the moving face inside the crop at every sample, panning no faster than the limit', () => {
    const crop = cropPathOf(track3.samples, track3.shotChanges, { sourceWidth: 1280, sourceHeight: 720, outputAspect: NINE_SIXTEEN, duration: 8 });
    expect(crop).toMatchObject({ width: 406, height: 720 });
    for (const s of track3.samples) {
      const x = cropXAt(crop, s.t);
      expect(s.face!.x, `t=${s.t}`).toBeGreaterThanOrEqual(x);
      expect(s.face!.x + s.face!.w, `t=${s.t}`).toBeLessThanOrEqual(x + crop.width);
    }
    expectSpeedWithin(crop, MAX_PAN_SPEED * crop.width);
    expect(crop.keys.length).toBeLessThanOrEqual(KEYS_PER_SECOND * 8 + 1);
    // it did follow the face across the frame
    expect(crop.keys[crop.keys.length - 1].x - crop.keys[0].x).toBeGreaterThan(700);
  });

  it('refuses a sampling rate outside 2-5 fps; a file ffmpeg cannot read fails with its reason', async () => {
    await expect(trackFaces({ path: movingFile, start: 0, duration: 1, width: 1280, height: 720 }, { fps: 10 })).rejects.toThrow(RangeError);
    const junk = path.join(dir, 'junk.mp4');
    await fs.writeFile(junk, 'not a video at all');
    await expect(trackFaces({ path: junk, start: 0, duration: 1, width: 1280, height: 720 })).rejects.toThrow(FaceTrackError);
  });

  it('stops at once when aborted', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const pending = trackFaces({ path: movingFile, start: 0, duration: 8, width: 1280, height: 720 }, { fps: 5, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(pending).rejects.toThrow('stop');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

function expectSpeedWithin(crop: CropPath, pxPerSecond: number) {
  for (let i = 1; i < crop.keys.length; i++) {
    const a = crop.keys[i - 1];
    const b = crop.keys[i];
    // a key holds until the next one: the move to b happens at b.t, and is a pan step when keys are close
    if (b.t - a.t > 0) expect(Math.abs(b.x - a.x), `keys at ${a.t} and ${b.t}`).toBeLessThanOrEqual(pxPerSecond * (b.t - a.t) + 1);
  }
}

describe('pickSpeaker', () => {
  const face = (x: number, y: number, w: number, score = 0.9): Face => ({ x, y, w, h: w, score });

  it('takes the largest face, the more central one when they are alike, and none of nothing', () => {
    expect(pickSpeaker([face(100, 100, 100), face(900, 300, 200)], 1920, 1080, null)).toEqual(face(900, 300, 200));
    // same size: the one nearer the centre
    expect(pickSpeaker([face(50, 50, 150), face(880, 470, 150)], 1920, 1080, null)).toEqual(face(880, 470, 150));
    expect(pickSpeaker([], 1920, 1080, null)).toBeNull();
  });

  it('stays with the previous speaker while that face is still at least half as prominent', () => {
    const previous = face(200, 400, 150);
    expect(pickSpeaker([face(210, 400, 150), face(900, 400, 170)], 1920, 1080, previous)).toEqual(face(210, 400, 150));
    expect(pickSpeaker([face(210, 400, 150), face(900, 400, 170)], 1920, 1080, null)).toEqual(face(900, 400, 170));
    // the other face is now much larger: it takes over
    expect(pickSpeaker([face(210, 400, 100), face(900, 400, 300)], 1920, 1080, previous)).toEqual(face(900, 400, 300));
  });
});

describe('cropPathOf', () => {
  const W = 1920;
  const H = 1080;
  const opts = (duration: number) => ({ sourceWidth: W, sourceHeight: H, outputAspect: NINE_SIXTEEN, duration });
  const CROP = 608;
  /** a 200 px face centred at `cx` */
  const at = (t: number, cx: number | null): FaceSample => ({ t, face: cx === null ? null : { x: cx - 100, y: 300, w: 200, h: 200, score: 0.9 } });
  const every = (fps: number, duration: number, cx: (t: number) => number | null) =>
    Array.from({ length: Math.floor(duration * fps) }, (_, k) => at(k / fps, cx(k / fps)));

  it('sizes the crop to the aspect: full height of a landscape source, even sides', () => {
    expect(cropSize(1920, 1080, NINE_SIXTEEN)).toEqual({ width: 608, height: 1080 });
    expect(cropSize(1280, 720, NINE_SIXTEEN)).toEqual({ width: 406, height: 720 });
    expect(cropSize(1080, 1080, NINE_SIXTEEN)).toEqual({ width: 608, height: 1080 });
    expect(cropSize(1440, 1080, 1)).toEqual({ width: 1080, height: 1080 });
  });

  it('without a face: one centred key at t=0', () => {
    expect(cropPathOf([], [], opts(10))).toEqual({ width: CROP, height: H, keys: [{ t: 0, x: 656, y: 0 }] });
    expect(
      cropPathOf(
        every(3, 10, () => null),
        [],
        opts(10),
      ).keys,
    ).toEqual([{ t: 0, x: 656, y: 0 }]);
  });

  it('a source as narrow as the aspect or narrower: a centred fixed crop, whatever the faces do', () => {
    const faces = every(3, 6, (t) => 100 + t * 100);
    expect(cropPathOf(faces, [2], { sourceWidth: 1080, sourceHeight: 1920, outputAspect: NINE_SIXTEEN, duration: 6 })).toEqual({
      width: 1080,
      height: 1920,
      keys: [{ t: 0, x: 0, y: 0 }],
    });
    expect(cropPathOf(faces, [], { sourceWidth: 720, sourceHeight: 1600, outputAspect: NINE_SIXTEEN, duration: 6 })).toEqual({
      width: 720,
      height: 1280,
      keys: [{ t: 0, x: 0, y: 160 }],
    });
  });

  it('starts on the first face (even one found a little after the start) and holds still through jitter inside the dead zone', () => {
    // at most 0.9 of the dead zone from wherever the crop starts
    const jitter = DEAD_ZONE * CROP * 0.45;
    const samples = every(5, 10, (t) => (t < 0.5 ? null : 1200 + jitter * Math.sin(t * 7)));
    const path = cropPathOf(samples, [], opts(10));
    expect(path.keys).toHaveLength(1);
    expect(path.keys[0].t).toBe(0);
    // centred on the first face found (at 0.6 s)
    expect(path.keys[0].x + CROP / 2).toBeCloseTo(samples[3].face!.x + 100, 0);
  });

  it('pans to a face that left the dead zone at no more than the pan speed, with at most KEYS_PER_SECOND keys a second, then stays', () => {
    // the face steps from 400 to 1500 at 2 s
    const samples = every(3, 10, (t) => (t < 2 ? 400 : 1500));
    const path = cropPathOf(samples, [], opts(10));
    const speed = MAX_PAN_SPEED * CROP;
    expectSpeedWithin(path, speed);
    const pan = path.keys.slice(1);
    expect(pan[0].t).toBeGreaterThan(5 / 3 - 1e-9);
    const duration = pan[pan.length - 1].t - pan[0].t;
    expect(duration).toBeGreaterThanOrEqual(1100 / speed - 0.5);
    expect(pan.length).toBeLessThanOrEqual(Math.ceil((duration + 1 / 3) * KEYS_PER_SECOND) + 1);
    // the pan ends centred on the face, and nothing moves after
    expect(pan[pan.length - 1].x + CROP / 2).toBe(1500);
    expect(pan[pan.length - 1].t).toBeLessThan(2 + 1100 / speed + 0.5);
  });

  it('moves ahead with a face crossing the frame so that the face is inside the crop at every sample', () => {
    const samples = every(3, 12, (t) => 300 + 110 * t);
    const path = cropPathOf(samples, [], opts(12));
    for (const s of samples) {
      const x = cropXAt(path, s.t);
      expect(s.face!.x).toBeGreaterThanOrEqual(x);
      expect(s.face!.x + s.face!.w).toBeLessThanOrEqual(x + CROP);
    }
    expectSpeedWithin(path, MAX_PAN_SPEED * CROP);
  });

  it('jumps at a shot change, in one key, to the new shot first face', () => {
    const samples = every(3, 8, (t) => (t < 4 ? 500 : 1500));
    const path = cropPathOf(samples, [4], opts(8));
    expect(path.keys).toEqual([
      { t: 0, x: 500 - CROP / 2, y: 0 },
      { t: 4, x: 1500 - CROP / 2, y: 0 },
    ]);
    // a new shot whose face shows only later starts centred, then follows the face once found
    const late = every(3, 8, (t) => (t < 4 ? 500 : t < 6.5 ? null : 1500));
    const lateKeys = cropPathOf(late, [4], opts(8)).keys;
    expect(lateKeys[1]).toEqual({ t: 4, x: 656, y: 0 });
  });

  it('holds the last position through missed samples, and drifts back to the centre only after MISS_HOLD_SECONDS without a face', () => {
    // the face at 1600 until 2 s, then lost for good
    const samples = every(4, 10, (t) => (t < 2 ? 1600 : null));
    const path = cropPathOf(samples, [], opts(10));
    const start = path.keys[0].x;
    expect(start).toBe(1600 - CROP / 2);
    // held until the face has been gone MISS_HOLD_SECONDS
    expect(cropXAt(path, 1.75 + MISS_HOLD_SECONDS)).toBe(start);
    expect(path.keys[1].t).toBeGreaterThan(1.75 + MISS_HOLD_SECONDS);
    expectSpeedWithin(path, DRIFT_SPEED * CROP);
    expect(cropXAt(path, 9.9)).toBeLessThan(start);
    // a short miss changes nothing
    const blink = every(4, 10, (t) => (t > 3 && t < 4.5 ? null : 1600));
    expect(cropPathOf(blink, [], opts(10)).keys).toEqual([{ t: 0, x: 1600 - CROP / 2, y: 0 }]);
  });

  it('keeps the crop inside the frame for a face at the very edge, and drops what lies past the clip end', () => {
    const left = cropPathOf(
      every(3, 4, () => 20),
      [],
      opts(4),
    );
    expect(left.keys).toEqual([{ t: 0, x: 0, y: 0 }]);
    const right = cropPathOf(
      every(3, 4, () => 1910),
      [],
      opts(4),
    );
    expect(right.keys).toEqual([{ t: 0, x: W - CROP, y: 0 }]);
    const late = cropPathOf(
      every(3, 10, (t) => (t < 5 ? 400 : 1500)),
      [],
      opts(4.5),
    );
    expect(late.keys).toEqual([{ t: 0, x: 400 - CROP / 2, y: 0 }]);
  });
});
