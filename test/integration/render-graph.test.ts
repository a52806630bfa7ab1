import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureLoudness, normalizingGain, TARGET_LOUDNESS } from '../../src/media/audio-levels.js';
import { probe } from '../../src/media/ffprobe.js';
import { renderVideo, RenderError } from '../../src/media/render/ffmpeg.js';
import { FF, frameAt, isRed, meanVolume, pixel } from '../support/media.js';
import { COLOR_FILTERS, colorFilterChain } from '../../src/catalog/color-filters.js';
import {
  audioJoins,
  BLUR_FILL_RATE,
  blurredFill,
  buildRenderGraph,
  layoutBox,
  zoomExpression,
  escapeFilterValue,
  chooseFit,
  PREVIEW,
  previewSize,
  type RenderPlan,
} from '../../src/media/render/graph.js';

const run = promisify(execFile);
let dir: string;
const f = (name: string) => path.join(dir, name);

const ffmpeg = (args: string[]) => run('ffmpeg', [...FF, ...args], { maxBuffer: 64 << 20 });

async function streams(file: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,codec_name,width,height,r_frame_rate,nb_frames,duration,sample_rate,channels',
    '-of',
    'json',
    file,
  ]);
  const list = (JSON.parse(stdout) as { streams: Array<Record<string, string | number>> }).streams;
  return { video: list.find((s) => s.codec_type === 'video')!, audio: list.find((s) => s.codec_type === 'audio') };
}

const plan = (over: Partial<RenderPlan> & Pick<RenderPlan, 'source'>): RenderPlan => ({
  output: { width: 320, height: 240, fps: 24, preset: 'ultrafast' },
  keep: [{ start: 0, end: over.source.duration }],
  audio: { clean: false },
  ...over,
});

const sourceOf = (file: string, width: number, height: number, duration: number, hasAudio = true, fps = 24): RenderPlan['source'] => ({
  path: file,
  width,
  height,
  fps,
  rotation: 0,
  hasAudio,
  duration,
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-graph-'));
  const enc = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  await Promise.all([
    // landscape talking head stand-in: 30 fps, tone
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=30:d=6', '-f', 'lavfi', '-i', 'sine=f=440:d=6', ...enc, '-c:a', 'aac', '-shortest', f('wide.mp4')]),
    // many cuts: tiny, 24 fps, 13 s
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=24:d=13', '-f', 'lavfi', '-i', 'sine=f=300:d=13', ...enc, '-c:a', 'aac', '-shortest', f('long.mp4')]),
    // no audio at all
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=25:d=3', ...enc, f('mute.mp4')]),
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=24:d=5', '-f', 'lavfi', '-i', 'sine=f=440:d=5', ...enc, '-c:a', 'aac', '-shortest', f('base.mp4')]),
    ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=64x48', '-frames:v', '1', f('red.png')]),
    ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x00ff00:s=64x48', '-frames:v', '1', f('green.png')]),
    ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x00ff00:s=200x100:r=30:d=3', ...enc, f('green.mp4')]),
    // "speech" (a 200 Hz tone) for 2 s, then 2 s of silence
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=160x120:r=24:d=4',
      '-f',
      'lavfi',
      '-i',
      'sine=f=200:d=2,apad=whole_dur=4',
      ...enc,
      '-c:a',
      'aac',
      '-t',
      '4',
      f('talk.mp4'),
    ]),
    ffmpeg(['-f', 'lavfi', '-i', 'sine=f=2000:d=1.5', '-c:a', 'libmp3lame', f('music.mp3')]),
    // white 30 px frame around black: a zoom crops the frame away
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=black:s=320x240:r=24:d=4,drawbox=x=0:y=0:w=iw:h=ih:color=white:t=30',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=48000:cl=mono',
      ...enc,
      '-c:a',
      'aac',
      '-t',
      '4',
      f('framed.mp4'),
    ]),
    // coded landscape, left half white, right half black (rotated below)
    ffmpeg(['-f', 'lavfi', '-i', 'color=c=black:s=640x360:r=24:d=2,drawbox=x=0:y=0:w=320:h=360:color=white:t=fill', ...enc, f('coded.mp4')]),
  ]);
  // a phone's portrait video: landscape frames plus a rotation (ffmpeg 5.1 writes the tag on stream copy; -display_rotation is 6.0+)
  await ffmpeg(['-i', f('coded.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', f('phone.mp4')]);
  // a solid red box drawn by libass at the top-left, to check that captions are burned in
  fs.writeFileSync(
    f("subs: it's, [x].ass"),
    [
      '[Script Info]',
      'ScriptType: v4.00+',
      'PlayResX: 320',
      'PlayResY: 240',
      '',
      '[V4+ Styles]',
      'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
      'Style: Default,DejaVu Sans,20,&H000000FF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,7,0,0,0,1',
      '',
      '[Events]',
      'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
      'Dialogue: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,{\\pos(0,0)\\p1}m 0 0 l 100 0 100 80 0 80{\\p0}',
      '',
    ].join('\n'),
  );
}, 60_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('render graph text', () => {
  const base = plan({ source: sourceOf('/in.mp4', 320, 240, 10) });

  it('puts fps before the cut and cuts audio in frame-sized chunks', () => {
    const g = buildRenderGraph({
      ...base,
      keep: [
        { start: 0, end: 1 },
        { start: 2, end: 3 },
      ],
    });
    const v = g.filterScript.split('\n').find((l) => l.startsWith('[0:v]'))!;
    expect(v.indexOf('fps=24')).toBeLessThan(v.indexOf('select='));
    expect(v).toContain('setpts=N/FRAME_RATE/TB');
    const a = g.filterScript.split('\n').find((l) => l.startsWith('[0:a]'))!;
    expect(a.indexOf('asetnsamples=n=2000')).toBeLessThan(a.indexOf('aselect='));
    expect(a).toContain('asetpts=N/SR/TB');
    expect(g.filterScript).not.toContain('zoompan');
    expect(g.outputArgs).toEqual(expect.arrayContaining(['libx264', 'yuv420p', 'aac', '160k', '+faststart']));
    expect(g.duration).toBeCloseTo(2, 9);
  });

  it('a preview is a second output of the one graph: the final picture and sound split, small and at a low frame rate', () => {
    expect(previewSize(1080, 1920)).toEqual({ width: 136, height: 240 });
    expect(previewSize(1920, 1080)).toEqual({ width: 240, height: 136 });
    expect(previewSize(160, 120)).toEqual({ width: 160, height: 120 }); // never larger than the export
    expect(buildRenderGraph(base).previewArgs).toBeUndefined();
    expect(buildRenderGraph(base).filterScript).not.toContain('split');
    const g = buildRenderGraph({ ...base, assPath: '/c.ass', audio: { clean: false, music: { path: '/m.mp3', volume: 50 } }, preview: true });
    const lines = g.filterScript.trim().split(';\n');
    expect(lines).toContain('[vfull]split=2[vout][pvfull]');
    expect(lines).toContain('[afull]asplit=2[aout][paout]');
    expect(lines.find((l) => l.startsWith('[pvfull]'))).toBe(`[pvfull]fps=${PREVIEW.fps},scale=240:180:flags=bilinear,setsar=1,format=yuv420p[pvout]`);
    // the captions and the music are in what is split
    expect(lines.find((l) => l.endsWith('[vfull]'))).toContain('ass=');
    expect(lines.find((l) => l.endsWith('[afull]'))).toContain('amix=');
    expect(g.outputArgs.filter((a) => a.startsWith('['))).toEqual(['[vout]', '[aout]']);
    expect(g.previewArgs!.filter((a) => a.startsWith('['))).toEqual(['[pvout]', '[paout]']);
    expect(g.previewArgs).toEqual(expect.arrayContaining(['-r', String(PREVIEW.fps), '-maxrate', `${PREVIEW.maxVideoKbps}k`, '-ac', '1', '+faststart']));
  });

  it('draws a rounded mask once, on a one-frame colour source', () => {
    const g = buildRenderGraph({ ...base, overlays: [{ path: '/b.mp4', kind: 'VIDEO', start: 1, end: 2, layout: 'rounded' }] });
    const geq = g.filterScript.split('\n').filter((l) => l.includes('geq='));
    expect(geq).toHaveLength(1);
    expect(geq[0]).toMatch(/^color=c=black:s=\d+x\d+:r=24:d=0\.041667,format=gray,geq=/);
    expect(g.filterScript).toContain('alphamerge');
  });

  it('escapes paths in filter options', () => {
    expect(escapeFilterValue("/tmp/a b:c'd,e.ass")).toBe("/tmp/a b\\\\:c\\\\\\'d\\,e.ass");
    const g = buildRenderGraph({ ...base, assPath: '/tmp/x:y.ass', fontsDir: '/fonts' });
    expect(g.filterScript).toContain('ass=filename=/tmp/x\\\\:y.ass:fontsdir=/fonts,format=yuv420p[vout]');
  });

  it('chooses crop or blurred fill by aspect, and lays out every layout inside the frame', () => {
    expect(chooseFit({ width: 1080, height: 1080 }, { width: 1080, height: 1920 })).toBe('crop');
    expect(chooseFit({ width: 1920, height: 1080 }, { width: 1080, height: 1920 })).toBe('blur');
    for (const layout of [
      'cover',
      'contain',
      'rounded',
      'square',
      'split-50-50',
      'split-35-65',
      'split-50-50-bordered',
      'split-35-65-bordered',
      'pip-top-right',
      'pip-bottom-right',
    ] as const) {
      for (const [W, H] of [
        [1080, 1920],
        [1920, 1080],
      ]) {
        const b = layoutBox(layout, W, H);
        expect(b.x >= 0 && b.y >= 0 && b.x + b.w <= W && b.y + b.h <= H, `${layout} ${W}x${H}`).toBe(true);
        expect((b.w % 2) + (b.h % 2)).toBe(0);
        if (b.source) expect(b.source.w * b.source.h + b.w * b.h).toBe(W * H);
      }
    }
    expect(zoomExpression([])).toBe('1');
  });

  it('builds the blurred fill from the fitted picture and two bands, stacked the way the frame needs', () => {
    const tall = blurredFill({ width: 1920, height: 1080 }, 1080, 1920, '[0:v]', 'f').join(';');
    expect(tall).toContain('scale=1080:608,'); // the whole picture, full width
    expect(tall.match(/scale=1080:656:flags=fast_bilinear/g)).toHaveLength(2); // (1920 - 608) / 2 above and below
    expect(tall).toContain('[f_a][f_fg][f_z]vstack=inputs=3[f]');
    const wide = blurredFill({ width: 1080, height: 1920 }, 1920, 1080, '[0:v]', 'f').join(';');
    expect(wide).toContain('scale=608:1080,');
    expect(wide.match(/scale=656:1080:flags=fast_bilinear/g)).toHaveLength(2);
    expect(wide).toContain('hstack=inputs=3[f]');
    // odd leftovers: the bands stay even and fill the frame
    const odd = blurredFill({ width: 1000, height: 1000 }, 202, 1000, '[0:v]', 'f').join(';');
    const bands = [...odd.matchAll(/scale=202:(\d+):flags/g)].map((m) => Number(m[1]));
    expect(bands.every((b) => b % 2 === 0)).toBe(true);
    expect(bands.reduce((a, b) => a + b, 0) + 202).toBe(1000);
  });
});

describe('the blurred fill, held', () => {
  /** One MD5 per frame of `crop` of the fill of wide.mp4 (640x360) into 360x640 at 30 fps, holding the bands over `hold` frames. */
  async function fillHashes(hold: number, crop: string): Promise<string[]> {
    const lines = blurredFill({ width: 640, height: 360 }, 360, 640, '[0:v]fps=30,setpts=N/FRAME_RATE/TB', 'f', { hold });
    const { stdout } = await run(
      'ffmpeg',
      [...FF, '-i', f('wide.mp4'), '-filter_complex', `${lines.join(';')};[f]${crop}[out]`, '-map', '[out]', '-f', 'framemd5', '-'],
      { maxBuffer: 16 << 20 },
    );
    return stdout
      .split('\n')
      .filter((l) => /^\d/.test(l))
      .map((l) => l.split(',').pop()!.trim());
  }

  it('repeats each band picture over a group of frames, keeping the picture between them in step, frame for frame', async () => {
    // geometry of 640x360 fitted into 360x640: the picture is 360x202 at y 218, the upper band 218 high
    const picture = 'crop=360:202:0:218';
    const band = 'crop=360:218:0:0';
    const [heldPicture, everyPicture, heldBand, everyBand] = await Promise.all([
      fillHashes(3, picture),
      fillHashes(1, picture),
      fillHashes(3, band),
      fillHashes(1, band),
    ]);
    expect(heldPicture).toHaveLength(180);
    // the picture is the same, frame for frame, whether or not the bands are held: the stack stays in step
    expect(heldPicture).toEqual(everyPicture);
    expect(new Set(everyPicture).size).toBeGreaterThan(170);
    expect(heldBand).toHaveLength(180);
    // held: the same band within each group of 3, a new one at each group's first frame, as the unheld one then is
    for (let i = 0; i < 180; i++) {
      const first = i - (i % 3);
      expect(heldBand[i], `frame ${i}`).toBe(heldBand[first]);
      if (i % 3 === 0) expect(heldBand[i], `frame ${i}`).toBe(everyBand[i]);
    }
    // the band moves (testsrc2's top part stands still now and then): most groups show a new picture
    expect(new Set(heldBand).size).toBeGreaterThan(30);
    expect(new Set(heldBand).size).toBeLessThanOrEqual(60);
  });

  it('holds the bands at BLUR_FILL_RATE in an export, and not in a still of a few frames', () => {
    const wide = (fps: number, end: number) =>
      buildRenderGraph(
        plan({
          source: sourceOf(f('wide.mp4'), 640, 360, 6, true, 30),
          output: { width: 360, height: 640, fps, preset: 'ultrafast' },
          keep: [{ start: 0, end }],
        }),
      ).filterScript;
    expect(BLUR_FILL_RATE).toBe(10);
    expect(wide(30, 6)).toContain('shuffleframes=0 0 0,');
    expect(wide(60, 6)).toContain('shuffleframes=0 0 0 0 0 0,');
    expect(wide(24, 6)).toContain('shuffleframes=0 0,');
    expect(wide(30, 2 / 30)).not.toContain('shuffleframes');
  });

  it('puts the colour look on the fitted picture and on each item, never on the stacked frame or the captions', async () => {
    const look = 'hue=s=0';
    const built = buildRenderGraph(
      plan({
        source: sourceOf(f('wide.mp4'), 640, 360, 6, true, 30),
        output: { width: 360, height: 640, fps: 30, preset: 'ultrafast' },
        overlays: [{ path: f('green.mp4'), kind: 'VIDEO', start: 1, end: 2, layout: 'cover' }],
        colorFilter: look,
      }),
    );
    const script = built.filterScript;
    // once before the picture's split (the bands are blurred from the looked picture), once on the item
    expect(script.split(look)).toHaveLength(3);
    expect(script.indexOf(look)).toBeLessThan(script.indexOf('split=2[framed_fg][framed_c]'));
    expect(script).toMatch(/\[1:v\][^;]*hue=s=0,format=yuva420p\[ov0\]/);
    await renderVideo(built, f('look.mp4'));
    const grey = ([r, g, b]: readonly number[]) => Math.max(r, g, b) - Math.min(r, g, b) < 24;
    const before = await frameAt(f('look.mp4'), 0.5);
    // the picture (testsrc2's colour bars) and its blurred bands have no colour left
    for (const y of [100, 320, 560]) for (const x of [40, 180, 320]) expect(grey(pixel(before, x, y)), `${x},${y}`).toBe(true);
    const during = await frameAt(f('look.mp4'), 1.5);
    expect(grey(pixel(during, 180, 320))).toBe(true); // the green item, greyed too
    expect(pixel(during, 180, 320)[1]).toBeGreaterThan(60);
  });

  it('keeps a transparent picture transparent under every look', async () => {
    // left half transparent, right half red, over a blue source
    await Promise.all([
      ffmpeg([
        '-f',
        'lavfi',
        '-i',
        'color=c=black@0:s=90x320,format=rgba',
        '-f',
        'lavfi',
        '-i',
        'color=c=red:s=90x320,format=rgba',
        '-filter_complex',
        'hstack,format=rgba',
        '-frames:v',
        '1',
        f('half.png'),
      ]),
      ffmpeg(['-f', 'lavfi', '-i', 'color=c=blue:s=180x320:r=10:d=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', f('blue.mp4')]),
    ]);
    await Promise.all(
      COLOR_FILTERS.map(async (name) => {
        const built = buildRenderGraph(
          plan({
            source: sourceOf(f('blue.mp4'), 180, 320, 1, false, 10),
            output: { width: 180, height: 320, fps: 10, preset: 'ultrafast' },
            overlays: [{ path: f('half.png'), kind: 'IMAGE', start: 0, end: 1, layout: 'cover' }],
            colorFilter: colorFilterChain(name, 60),
          }),
        );
        await renderVideo(built, f(`half-${name}.mp4`));
        const frame = await frameAt(f(`half-${name}.mp4`), 0.5);
        const [r1, g1, b1] = pixel(frame, 45, 160);
        // mono greys the blue: then the source shows as a mid grey, never the black of a lost alpha plane
        if (name === 'mono') expect(Math.min(r1, g1, b1), `${name}: the source shows through the transparent half`).toBeGreaterThan(15);
        else expect(b1, `${name}: the source shows through the transparent half`).toBeGreaterThan(Math.max(r1, g1) + 30);
        const [r2, g2, b2] = pixel(frame, 135, 160);
        if (name !== 'mono') expect(r2, `${name}: the opaque half`).toBeGreaterThan(Math.max(g2, b2) + 30);
      }),
    );
  });
});

describe('one-pass render', () => {
  it('cuts, reframes 640x360 into 360x640 at 24 fps, cleans the audio and reports progress', async () => {
    const keep = [
      { start: 0, end: 1 },
      { start: 1.5, end: 2.5 },
      { start: 3, end: 3.5 },
      { start: 4.25, end: 5.5 },
    ];
    const progress: number[] = [];
    const g = buildRenderGraph(
      plan({
        source: sourceOf(f('wide.mp4'), 640, 360, 6, true, 30),
        output: { width: 360, height: 640, fps: 24, preset: 'ultrafast' },
        keep,
        audio: { clean: true },
      }),
    );
    await renderVideo(g, f('a.mp4'), { onProgress: (p) => progress.push(p) });
    const { video, audio } = await streams(f('a.mp4'));
    expect([video.width, video.height, video.r_frame_rate]).toEqual([360, 640, '24/1']);
    expect(Number(video.nb_frames)).toBe(Math.round(3.75 * 24));
    expect(Math.abs(Number(video.duration) - 3.75)).toBeLessThanOrEqual(1 / 24 + 1e-6);
    expect(audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    expect(Math.abs(Number(audio!.duration) - 3.75)).toBeLessThanOrEqual(1 / 24 + 0.03);
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((p, i) => i === 0 || p >= progress[i - 1])).toBe(true);
  });

  it('clean audio brings a quiet voice to the target loudness with its peaks under -1 dBFS', async () => {
    // a voice-band tone 20 dB under the usual level, with a burst that would clip once raised
    await ffmpeg([
      ...[
        '-f',
        'lavfi',
        '-i',
        'testsrc2=s=160x120:r=24:d=4',
        '-f',
        'lavfi',
        '-i',
        'sine=f=300:d=4,volume=-22dB,volume=enable=between(t\\,2\\,2.2):volume=20dB',
      ],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_s16le', '-shortest', f('quiet.mov')],
    ]);
    const before = await measureLoudness(f('quiet.mov'));
    expect(before.loudness!).toBeLessThan(-35);
    const g = buildRenderGraph(
      plan({
        source: sourceOf(f('quiet.mov'), 160, 120, 4),
        output: { width: 160, height: 120, fps: 24, preset: 'ultrafast' },
        audio: { clean: true, gainDb: normalizingGain(before.loudness) },
      }),
    );
    await renderVideo(g, f('loud.mp4'));
    const after = await measureLoudness(f('loud.mp4'));
    expect(Math.abs(after.loudness! - TARGET_LOUDNESS)).toBeLessThan(2);
    expect(after.peak!).toBeLessThan(-0.5);
  });

  it('fades the sound out and in at every cut, so a join in the middle of a tone does not click', async () => {
    // a loud 440 Hz tone; the second cut jumps 234.67 cycles, into another phase of the wave
    await ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=30:d=4', '-f', 'lavfi', '-i', 'sine=f=440:d=4,volume=4'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_s16le', f('tone.mov')],
    ]);
    const keep = [
      { start: 0, end: 1 },
      { start: 1.5333333, end: 2.2 },
      { start: 3.1, end: 4 },
    ];
    const g = buildRenderGraph(
      plan({ source: sourceOf(f('tone.mov'), 160, 120, 4, true, 30), output: { width: 160, height: 120, fps: 30, preset: 'ultrafast' }, keep }),
    );
    expect(audioJoins(keep, 4, 30, 1600)).toEqual([1, expect.closeTo(1 + 20 / 30, 9)]);
    const pcm = async (file: string) => {
      const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-vn', '-ac', '1', '-ar', '48000', '-f', 's16le', 'pipe:1'], {
        encoding: 'buffer',
        maxBuffer: 64 << 20,
      });
      return new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
    };
    const look = (x: Int16Array, from: number, to: number) => {
      let peak = 0;
      let jump = 0;
      for (let i = Math.round(from * 48000) + 1; i < Math.round(to * 48000); i++) {
        peak = Math.max(peak, Math.abs(x[i]));
        jump = Math.max(jump, Math.abs(x[i] - x[i - 1]));
      }
      return { peak, jump };
    };
    await renderVideo(g, f('faded.mp4'));
    const faded = await pcm(f('faded.mp4'));
    const steady = look(faded, 0.3, 0.6);
    for (const join of [1, 1 + 20 / 30]) {
      const at = look(faded, join - 0.003, join + 0.003);
      expect(at.peak).toBeLessThan(0.5 * steady.peak); // the sound dips at the join
      expect(at.jump).toBeLessThanOrEqual(1.2 * steady.jump); // and no step: the wave's own slope at most
    }
    // the same cut without the fades steps at the first join
    await renderVideo({ ...g, filterScript: g.filterScript.replace(/,aeval=[^;]*?enable='[^']*'/, '') }, f('hard.mp4'));
    expect(look(await pcm(f('hard.mp4')), 0.99, 1.01).jump).toBeGreaterThan(3 * steady.jump);
  });

  it('carries the voice as it was said: the stereo track decodes to the source waveform within 1 % (40 dB)', async () => {
    // 3 s of speech in lossless PCM under a test picture
    await run('espeak-ng', ['-v', 'en-us', '-s', '170', '-w', f('said.wav'), 'Every word you say reaches the viewer as you said it.']);
    await ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=30:d=3', '-i', f('said.wav')],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_s16le', '-ar', '48000', '-t', '3', f('said.mov')],
    ]);
    const g = buildRenderGraph(
      plan({ source: sourceOf(f('said.mov'), 160, 120, 3, true, 30), output: { width: 160, height: 120, fps: 30, preset: 'ultrafast' } }),
    );
    await renderVideo(g, f('said.mp4'));
    expect((await streams(f('said.mp4'))).audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    const pcm = async (file: string) => {
      const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-vn', '-ac', '1', '-ar', '48000', '-f', 'f32le', 'pipe:1'], {
        encoding: 'buffer',
        maxBuffer: 64 << 20,
      });
      return new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.length));
    };
    const said = await pcm(f('said.mov'));
    const heard = await pcm(f('said.mp4'));
    // the encoder's delay is trimmed on decoding; allow a few samples either way, then compare sample for sample
    const from = 4800;
    const to = Math.min(said.length, heard.length) - 4800;
    let best = { lag: 0, energy: -Infinity };
    for (let lag = -64; lag <= 64; lag++) {
      let e = 0;
      for (let i = from; i < to; i += 3) e += said[i] * heard[i + lag];
      if (e > best.energy) best = { lag, energy: e };
    }
    let signal = 0;
    let noise = 0;
    for (let i = from; i < to; i++) {
      signal += said[i] ** 2;
      noise += (said[i] - heard[i + best.lag]) ** 2;
    }
    expect(signal).toBeGreaterThan(0);
    expect(10 * Math.log10(signal / noise)).toBeGreaterThan(40);
  });

  it('keeps 151 segments (150 cuts) in sync through the balanced tree', async () => {
    const keep = Array.from({ length: 151 }, (_, k) => ({ start: (2 * k) / 24, end: (2 * k + 1) / 24 }));
    const g = buildRenderGraph(
      plan({ source: sourceOf(f('long.mp4'), 160, 120, 13), output: { width: 160, height: 120, fps: 24, preset: 'ultrafast' }, keep }),
    );
    expect(g.filterScript).not.toMatch(/(between\([^)]*\)\+){3}/); // no flat sums
    await renderVideo(g, f('b.mp4'));
    const { video, audio } = await streams(f('b.mp4'));
    expect(Number(video.nb_frames)).toBe(151);
    expect(Math.abs(Number(audio!.duration) - 151 / 24)).toBeLessThanOrEqual(1 / 24 + 0.03);
  });

  it('gives a source without audio a silent AAC track', async () => {
    const g = buildRenderGraph(
      plan({
        source: sourceOf(f('mute.mp4'), 320, 240, 3, false, 25),
        keep: [
          { start: 0, end: 1 },
          { start: 2, end: 3 },
        ],
      }),
    );
    await renderVideo(g, f('c.mp4'));
    const { video, audio } = await streams(f('c.mp4'));
    expect(Number(video.nb_frames)).toBe(48);
    expect(audio).toMatchObject({ codec_name: 'aac', channels: 2 });
    expect(Math.abs(Number(audio!.duration) - 2)).toBeLessThan(0.06);
    expect(await meanVolume(f('c.mp4'), 0, 2)).toBeLessThan(-80);
  });

  it('shows a cover image only inside its window and a pip in the top-right corner', async () => {
    const g = buildRenderGraph(
      plan({
        source: sourceOf(f('base.mp4'), 320, 240, 5),
        overlays: [
          { path: f('red.png'), kind: 'IMAGE', start: 1, end: 2, layout: 'cover' },
          { path: f('red.png'), kind: 'IMAGE', start: 3, end: 4, layout: 'pip-top-right' },
        ],
      }),
    );
    await renderVideo(g, f('d.mp4'));
    const points = [
      [10, 10],
      [160, 120],
      [300, 220],
      [40, 200],
      [280, 30],
    ];
    const before = await frameAt(f('d.mp4'), 0.5);
    const inside = await frameAt(f('d.mp4'), 1.5);
    const after = await frameAt(f('d.mp4'), 2.5);
    expect(points.every(([x, y]) => isRed(pixel(inside, x, y)))).toBe(true);
    expect(points.filter(([x, y]) => isRed(pixel(before, x, y))).length).toBeLessThan(3);
    expect(points.filter(([x, y]) => isRed(pixel(after, x, y))).length).toBeLessThan(3);

    const pip = await frameAt(f('d.mp4'), 3.5);
    const box = layoutBox('pip-top-right', 320, 240);
    expect(box.x).toBeGreaterThanOrEqual(160);
    expect(box.y + box.h).toBeLessThanOrEqual(120);
    const redShare = (x0: number, y0: number) => {
      let red = 0;
      let all = 0;
      for (let y = y0; y < y0 + 120; y += 4)
        for (let x = x0; x < x0 + 160; x += 4) {
          all++;
          if (isRed(pixel(pip, x, y))) red++;
        }
      return red / all;
    };
    for (let y = box.y + 2; y < box.y + box.h - 2; y += 6) for (let x = box.x + 2; x < box.x + box.w - 2; x += 6) expect(isRed(pixel(pip, x, y))).toBe(true);
    expect(redShare(160, 0)).toBeGreaterThan(0.3);
    for (const [x0, y0] of [
      [0, 0],
      [0, 120],
      [160, 120],
    ])
      expect(redShare(x0, y0)).toBeLessThan(redShare(160, 0) / 2);
  });

  it('splits the frame between a video B-roll and the source, and rounds corners', async () => {
    const g = buildRenderGraph(
      plan({
        source: sourceOf(f('framed.mp4'), 320, 240, 4),
        output: { width: 240, height: 320, fps: 24, preset: 'ultrafast' },
        overlays: [
          { path: f('green.mp4'), kind: 'VIDEO', start: 0.5, end: 1.5, layout: 'split-50-50-bordered' },
          { path: f('red.png'), kind: 'IMAGE', start: 2, end: 3, layout: 'rounded' },
        ],
      }),
    );
    await renderVideo(g, f('s.mp4'));
    const isGreen = ([r, g2, b]: readonly number[]) => g2 > 180 && r < 80 && b < 80;
    const split = await frameAt(f('s.mp4'), 1);
    const box = layoutBox('split-50-50-bordered', 240, 320);
    expect(isGreen(pixel(split, 120, 60))).toBe(true); // media on top
    expect(Math.min(...pixel(split, 120, box.h - 2))).toBeGreaterThan(200); // white border line
    expect(Math.max(...pixel(split, 120, 240))).toBeLessThan(60); // the source's centre below
    const after = await frameAt(f('s.mp4'), 1.8);
    expect(isGreen(pixel(after, 120, 60))).toBe(false);

    const card = await frameAt(f('s.mp4'), 2.5);
    const r = layoutBox('rounded', 240, 320);
    expect(isRed(pixel(card, 120, 160))).toBe(true);
    expect(isRed(pixel(card, r.x + r.w / 2, r.y + 2))).toBe(true);
    expect(isRed(pixel(card, r.x + 1, r.y + 1))).toBe(false); // corner cut away
    expect(isRed(pixel(card, r.x + r.w - 2, r.y + r.h - 2))).toBe(false);
  });

  it('mixes music audibly in silence and ducks it under speech', async () => {
    const g = buildRenderGraph(
      plan({
        source: sourceOf(f('talk.mp4'), 160, 120, 4),
        output: { width: 160, height: 120, fps: 24, preset: 'ultrafast' },
        audio: { clean: false, music: { path: f('music.mp3'), volume: 100, startFrom: 0.2, fade: false, duck: true } },
      }),
    );
    await renderVideo(g, f('f.mp4'));
    const band = 'highpass=f=1200,highpass=f=1200,highpass=f=1200,';
    const underSpeech = await meanVolume(f('f.mp4'), 0.5, 1, band);
    const inSilence = await meanVolume(f('f.mp4'), 2.6, 1, band);
    expect(inSilence).toBeGreaterThan(-30); // the looped track is there after the speech
    expect(underSpeech).toBeLessThan(inSilence - 6); // ducked (measured: 10 dB)
    expect(underSpeech).toBeGreaterThan(inSilence - 20); // and still heard
    expect(await meanVolume(f('f.mp4'), 0.5, 1)).toBeGreaterThan(-30); // the voice itself stays
    const { audio } = await streams(f('f.mp4'));
    expect(Math.abs(Number(audio!.duration) - 4)).toBeLessThan(0.06);
  });

  it('zooms into the centre with eval=frame scale and crop', async () => {
    const g = buildRenderGraph(plan({ source: sourceOf(f('framed.mp4'), 320, 240, 4), zooms: [{ start: 1, end: 3, scale: 1.5 }] }));
    await renderVideo(g, f('g.mp4'));
    const edges = (fr: Awaited<ReturnType<typeof frameAt>>) =>
      [pixel(fr, 5, 120), pixel(fr, 314, 120), pixel(fr, 160, 5), pixel(fr, 160, 234)].map((p) => p[0]);
    const off = await frameAt(f('g.mp4'), 0.5);
    const on = await frameAt(f('g.mp4'), 2);
    const back = await frameAt(f('g.mp4'), 3.6);
    expect(edges(off).every((v) => v > 200)).toBe(true);
    expect(edges(on).every((v) => v < 50)).toBe(true);
    expect(edges(back).every((v) => v > 200)).toBe(true);
    expect(pixel(on, 160, 120)[0]).toBeLessThan(50);
  });

  it('renders a rotated phone video upright at the asked size', async () => {
    const info = await probe(f('phone.mp4'));
    if (info.video?.rotation !== 90 && info.video?.rotation !== 270) {
      console.warn('ffmpeg did not write the rotation: rotation test skipped');
      return;
    }
    expect([info.video.width, info.video.height]).toEqual([360, 640]);
    // upright = as ffmpeg (and players) display it: one half white, the other black, stacked vertically
    const shown = await frameAt(f('phone.mp4'), 1);
    const top = pixel(shown, 180, 100)[0];
    const bottom = pixel(shown, 180, 540)[0];
    expect(Math.abs(top - bottom)).toBeGreaterThan(150);
    const g = buildRenderGraph(
      plan({
        source: { ...sourceOf(f('phone.mp4'), info.video.width, info.video.height, 2, false), rotation: info.video.rotation },
        output: { width: 180, height: 320, fps: 24, preset: 'ultrafast' },
      }),
    );
    await renderVideo(g, f('i.mp4'));
    const { video } = await streams(f('i.mp4'));
    expect([video.width, video.height]).toEqual([180, 320]);
    const fr = await frameAt(f('i.mp4'), 1);
    expect(Math.abs(pixel(fr, 90, 50)[0] - top)).toBeLessThan(40);
    expect(Math.abs(pixel(fr, 90, 270)[0] - bottom)).toBeLessThan(40);
  });

  it('burns the captions of an ASS file last, over the overlays', async () => {
    const g = buildRenderGraph(
      plan({
        source: sourceOf(f('framed.mp4'), 320, 240, 4),
        keep: [{ start: 0, end: 2 }],
        overlays: [{ path: f('green.png'), kind: 'IMAGE', start: 0, end: 2, layout: 'contain' }],
        assPath: f("subs: it's, [x].ass"),
        fontsDir: dir,
      }),
    );
    await renderVideo(g, f('e.mp4'));
    const on = await frameAt(f('e.mp4'), 0.5);
    const off = await frameAt(f('e.mp4'), 1.5);
    expect(isRed(pixel(on, 50, 40))).toBe(true); // libass box over the green overlay
    expect(isRed(pixel(on, 200, 200))).toBe(false);
    expect(isRed(pixel(off, 50, 40))).toBe(false);
  });

  it('writes the preview in the same run: the cut, captioned output, small, at the preview frame rate, as long as the export', async () => {
    const keep = [
      { start: 0, end: 1.5 },
      { start: 2, end: 3.5 },
    ];
    const g = buildRenderGraph(
      plan({
        source: sourceOf(f('framed.mp4'), 320, 240, 4),
        keep,
        assPath: f("subs: it's, [x].ass"),
        fontsDir: dir,
        audio: { clean: true, music: { path: f('music.mp3'), volume: 50 } },
        preview: true,
      }),
    );
    await expect(renderVideo(g, f('p-alone.mp4'))).rejects.toThrow(/preview/);
    await renderVideo(g, { video: f('p.mp4'), preview: f('p-preview.mp4') });
    const main = await streams(f('p.mp4'));
    expect([main.video.width, main.video.height, main.video.r_frame_rate]).toEqual([320, 240, '24/1']);
    expect(Number(main.video.nb_frames)).toBe(72);
    const preview = await streams(f('p-preview.mp4'));
    const size = previewSize(320, 240);
    expect([preview.video.width, preview.video.height, preview.video.r_frame_rate]).toEqual([size.width, size.height, `${PREVIEW.fps}/1`]);
    expect(Math.abs(Number(preview.video.nb_frames) - 3 * PREVIEW.fps)).toBeLessThanOrEqual(1);
    expect(preview.audio).toMatchObject({ codec_name: 'aac', channels: 1 });
    const [whole, small] = await Promise.all([probe(f('p.mp4')), probe(f('p-preview.mp4'))]);
    expect(Math.abs(small.duration! - whole.duration!)).toBeLessThanOrEqual(1 / PREVIEW.fps);
    // small: its picture a fraction of the export's, its sound within its own rate (on a 3 s export of a tone the
    // sound, coded to what it needs, can weigh less in the export than the preview's)
    const rates = async (file: string) =>
      Object.fromEntries(
        (await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,bit_rate', '-of', 'csv=p=0', file])).stdout
          .trim()
          .split('\n')
          .map((l) => l.split(','))
          .map(([kind, rate]) => [kind, Number(rate)]),
      );
    const [exported, previewed] = await Promise.all([rates(f('p.mp4')), rates(f('p-preview.mp4'))]);
    expect(previewed.video).toBeLessThan(exported.video / 2);
    expect(previewed.audio).toBeLessThanOrEqual(1.1 * PREVIEW.audioKbps * 1000);
    // the burned caption box (100x80 at the top-left of 320x240) is in the preview, scaled
    const on = await frameAt(f('p-preview.mp4'), 0.5);
    expect(isRed(pixel(on, (50 * size.width) / 320, (40 * size.height) / 240))).toBe(true);
    expect(isRed(pixel(await frameAt(f('p-preview.mp4'), 2), (50 * size.width) / 320, (40 * size.height) / 240))).toBe(false);
  });

  it('kills ffmpeg on abort and on timeout, and reports ffmpeg errors', async () => {
    const live = () => {
      const g = buildRenderGraph(plan({ source: sourceOf('testsrc2=s=160x120:r=24:d=60', 160, 120, 60, false) }));
      g.inputs[0] = { path: 'testsrc2=s=160x120:r=24:d=60', args: ['-re', '-f', 'lavfi'] };
      return g;
    };
    const running = (out: string) =>
      fs
        .readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .some((p) => {
          try {
            return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(out);
          } catch {
            return false;
          }
        });

    const ac = new AbortController();
    const out = f('h-abort.mp4');
    const seen: number[] = [];
    const job = renderVideo(live(), out, { signal: ac.signal, onProgress: (p) => seen.push(p) });
    await new Promise((r) => setTimeout(r, 1500));
    expect(running(out)).toBe(true);
    ac.abort();
    await expect(job).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise((r) => setTimeout(r, 200));
    expect(running(out)).toBe(false);
    expect(fs.existsSync(out)).toBe(false);
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.max(...seen)).toBeLessThan(0.2);

    const out2 = f('h-timeout.mp4');
    await expect(renderVideo(live(), out2, { timeoutMs: 500 })).rejects.toThrow(/timed out/);
    await new Promise((r) => setTimeout(r, 200));
    expect(running(out2)).toBe(false);

    const bad = buildRenderGraph(plan({ source: sourceOf(f('missing.mp4'), 320, 240, 2) }));
    const err = await renderVideo(bad, f('h-bad.mp4')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).stderr).toContain('missing.mp4');
  });

  it('stops a render whose output does not advance: a source that never sends a byte', async () => {
    // a FIFO nobody writes to: ffmpeg waits in open() forever, as it spun forever on a looped image that never decodes
    const fifo = f('silent.fifo');
    await run('mkfifo', [fifo]);
    const g = buildRenderGraph(plan({ source: sourceOf(fifo, 160, 120, 4) }));
    const out = f('h-stall.mp4');
    const t0 = Date.now();
    await expect(renderVideo(g, out, { stallMs: 400, timeoutMs: 60_000 })).rejects.toThrow('the render made no progress for 0.4 s');
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('the stall limit leaves a render alone while its output advances, and while it reads through a cut', async () => {
    // a live source at real-time speed: 0.5 s of output per progress report, under a limit of 4 s (ffmpeg's start on a busy machine included)
    const live = (seconds: number, keep: Array<{ start: number; end: number }>) => {
      const g = buildRenderGraph(plan({ source: sourceOf(`testsrc2=s=160x120:r=24:d=${seconds}`, 160, 120, seconds, false), keep }));
      g.inputs[0] = { path: `testsrc2=s=160x120:r=24:d=${seconds}`, args: ['-re', '-f', 'lavfi'] };
      return g;
    };
    const steady = live(3, [{ start: 0, end: 3 }]);
    expect(steady.longestCut).toBe(0);
    await renderVideo(steady, f('h-steady.mp4'), { stallMs: 4_000 });
    expect((await probe(f('h-steady.mp4'))).duration).toBeCloseTo(3, 0);

    // 5.5 s of source are read before the first kept frame, longer than the limit: the cut's length is added to it
    const cut = live(7, [{ start: 5.5, end: 6.5 }]);
    expect(cut.longestCut).toBe(5.5);
    await renderVideo(cut, f('h-cut.mp4'), { stallMs: 4_000 });
    expect((await probe(f('h-cut.mp4'))).duration).toBeCloseTo(1, 0);
    expect(
      buildRenderGraph(
        plan({
          source: sourceOf(f('long.mp4'), 160, 120, 13),
          keep: [
            { start: 1, end: 2 },
            { start: 6, end: 7 },
            { start: 8, end: 13 },
          ],
        }),
      ).longestCut,
    ).toBe(4);
  });
});
