/**
 * A brand kit that renders: a preset's saved media made through the editor's
 * door (savePresetMedia, GraphQL only), every rule at once; the eight colour
 * looks measured on frames; a project made with the preset drawing its
 * logo (corner, size, opacity) over its colour look, end to end; fonts and
 * .cube LUTs uploaded to the library, parsed, named by a style and a colour
 * look, and drawn.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLOR_FILTERS, colorFilterChain } from '../../src/catalog/color-filters.js';
import { createUser, gql, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { FF, frameAt, mediaFixtures, serveFolder, type FileServer, type Frame } from '../support/media.js';
import { DEFAULT_CAPTION_TEMPLATE } from '../../src/catalog/caption-templates.js';
import { overStyle } from '../../src/catalog/caption-style.js';
import { renderStylePreview } from '../../src/themes/previews.js';
import { renamedFont, SCRIPT_FONT, swapRedBlueCube } from '../support/fonts.js';

const run = promisify(execFile);
let app: TestApp;
let files: FileServer;
let user: TestUser;
let other: TestUser;
let dir: string;
let logoId: string;
let audioId: string;

const SAVE =
  'mutation($id: ID!, $input: SavePresetMediaInput!) { savePresetMedia(presetId: $id, input: $input) { id logo colorFilter music captions hookTitle musicVolume configured { logo colorFilter music captions hookTitle } savedMedia } }';

/** POST /v1/user-media/upload of bytes under a name */
function uploadBytes(key: string, bytes: Buffer | string, name: string, type = 'application/octet-stream') {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), name);
  return request(app, 'POST', '/v1/user-media/upload', { key, body: form });
}

/** a file of the fixtures uploaded to the user's library: its id */
async function upload(key: string, file: string, type: string) {
  const r = await uploadBytes(key, await fs.readFile(file), path.basename(file), type);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.userMediaId as string;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'brand-kit-'));
  const fx = await mediaFixtures();
  [app, files] = await Promise.all([startTestApp({ role: 'all' }), serveFolder(fx.dir)]);
  [user, other] = await Promise.all([createUser(app), createUser(app)]);
  await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'color=c=red:s=100x100', '-frames:v', '1', path.join(dir, 'logo.png')]);
  logoId = await upload(user.key, path.join(dir, 'logo.png'), 'image/png');
  audioId = await upload(user.key, fx.audio, 'audio/mpeg');
}, 120_000);
afterAll(async () => {
  await files?.close();
  await app?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

const newPreset = async (userId = user.id) => (await app.runtime.app.db.preset.create({ data: { userId, name: 'Brand' } })).id;

describe('savePresetMedia', () => {
  it('saves each medium given with its toggle on, removes one given as null with its toggle off, keeps the rest', async () => {
    const id = await newPreset();
    const r = await gql(app, user.key, SAVE, {
      id,
      input: {
        captions: { templateName: 'neon', style: { font: { size: 120 } } },
        hookTitle: { template: 'banner' },
        logo: { userMediaId: logoId, position: 'bottom-left', sizePercent: 20, opacity: 50 },
        colorFilter: { name: 'mono' },
        music: { userMediaId: audioId, volume: 30 },
      },
    });
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
    const p = r.body.data.savePresetMedia;
    expect(p).toMatchObject({ logo: true, colorFilter: true, music: true, captions: true, hookTitle: true, musicVolume: 30 });
    expect(p.configured).toEqual({ logo: true, colorFilter: true, music: true, captions: true, hookTitle: true });
    expect(p.savedMedia.logo).toEqual({ userMediaId: logoId, position: 'bottom-left', sizePercent: 20, opacity: 50, marginPercent: 4 });
    expect(p.savedMedia.colorFilter).toEqual({ name: 'mono', intensity: 60 });
    expect(p.savedMedia.music).toEqual({ userMediaId: audioId, volume: 30, startFromTime: 0, fade: true, source: 'library' });
    const removed = (await gql(app, user.key, SAVE, { id, input: { music: null } })).body.data.savePresetMedia;
    expect(removed).toMatchObject({ music: false, musicVolume: null, logo: true, configured: { music: false, logo: true } });
    // /v1 reads the toggles as SPEC.md has them, and cannot set saved media
    const rest = await request(app, 'GET', `/v1/presets/${id}`, { key: user.key });
    expect(rest.body).toMatchObject({ logo: true, colorFilter: true, music: false, configured: { logo: true, music: false } });
    expect((await request(app, 'PUT', `/v1/presets/${id}`, { key: user.key, json: { savedLogo: { userMediaId: logoId } } })).body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: [{ field: 'savedLogo', message: 'is not a known field' }],
    });
  });

  it('refuses every wrong medium at once, naming each field, and changes nothing', async () => {
    const id = await newPreset();
    const foreignLogo = (
      await app.runtime.app.db.userMedia.create({ data: { userId: other.id, type: 'IMAGE', status: 'ready', fileName: 'x.png', storageKey: 'k' } })
    ).id;
    const r = await gql(app, user.key, SAVE, {
      id,
      input: {
        captions: { templateName: 'neon', userThemeId: '00000000-0000-4000-8000-000000000000' },
        logo: { userMediaId: audioId, sizePercent: 70, position: 'middle' },
        colorFilter: { name: 'sepia', intensity: 101 },
        music: { userMediaId: foreignLogo, volume: 0 },
      },
    });
    const ext = r.body.errors?.[0]?.extensions;
    expect(ext?.code, JSON.stringify(r.body)).toBe('VALIDATION_ERROR');
    expect(ext!.details.map((d: { field: string }) => d.field).sort()).toEqual(
      [
        'captions.templateName',
        'captions.userThemeId',
        'logo.userMediaId',
        'logo.sizePercent',
        'logo.position',
        'colorFilter.name',
        'colorFilter.intensity',
        'music.volume',
        'music.userMediaId',
      ].sort(),
    );
    expect(await app.runtime.app.db.preset.findUniqueOrThrow({ where: { id } })).toMatchObject({ savedLogo: null, logo: false, savedColorFilter: null });
    // an empty body, another user's preset
    expect((await gql(app, user.key, SAVE, { id, input: {} })).body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
    expect((await gql(app, other.key, SAVE, { id, input: { colorFilter: null } })).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

/** mean saturation (max-min of the channels), mean red minus blue, luma spread, and the darkest luma of a frame */
function measure(f: Frame) {
  let sat = 0;
  let rb = 0;
  let sum = 0;
  let sq = 0;
  let darkest = 255;
  const n = f.w * f.h;
  for (let i = 0; i < f.rgb.length; i += 3) {
    const [r, g, b] = [f.rgb[i], f.rgb[i + 1], f.rgb[i + 2]];
    sat += Math.max(r, g, b) - Math.min(r, g, b);
    rb += r - b;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    sum += y;
    sq += y * y;
    darkest = Math.min(darkest, y);
  }
  const mean = sum / n;
  return { sat: sat / n, rb: rb / n, spread: Math.sqrt(sq / n - mean * mean), darkest };
}

describe('the colour looks, on frames', () => {
  let plain: ReturnType<typeof measure>;
  const look = async (chain: string | null) => {
    const out = path.join(dir, `look-${Math.random().toString(36).slice(2)}.png`);
    // a picture of moderate colour and contrast, as a talking video is
    await run('ffmpeg', [
      ...FF,
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=160x120',
      '-vf',
      `eq=saturation=0.45:contrast=0.8,${chain ? `${chain},` : ''}format=rgb24`,
      '-frames:v',
      '1',
      out,
    ]);
    return frameAt(out, 0);
  };
  beforeAll(async () => {
    plain = measure(await look(null));
  });

  it.each(COLOR_FILTERS.map((name) => ({ name })))('$name changes the picture as it says; intensity 0 leaves it', async ({ name }) => {
    const m = measure(await look(colorFilterChain(name, 100)));
    const expected: Record<string, boolean> = {
      warm: m.rb > plain.rb + 10,
      cool: m.rb < plain.rb - 10,
      vintage: m.sat < plain.sat * 0.7 && m.rb > plain.rb,
      mono: m.sat < 3,
      'high-contrast': m.spread > plain.spread * 1.15,
      fade: m.darkest > plain.darkest + 20 && m.sat < plain.sat,
      'teal-orange': Math.abs(m.rb - plain.rb) > 3 || Math.abs(m.sat - plain.sat) > 3,
      vivid: m.sat > plain.sat * 1.2,
    };
    expect(expected[name], JSON.stringify({ plain, look: m })).toBe(true);
    const none = measure(await look(colorFilterChain(name, 0)));
    expect(Math.abs(none.sat - plain.sat)).toBeLessThan(2);
    expect(Math.abs(none.rb - plain.rb)).toBeLessThan(2);
  });
});

describe('a project made with the preset', () => {
  it('draws the logo in its corner at its size and opacity, over the colour look', async () => {
    const id = await newPreset();
    const saved = await gql(app, user.key, SAVE, {
      id,
      input: {
        logo: { userMediaId: logoId, position: 'bottom-left', sizePercent: 20, opacity: 50, marginPercent: 5 },
        colorFilter: { name: 'mono', intensity: 100 },
      },
    });
    expect(saved.body.errors).toBeUndefined();
    const created = await request(app, 'POST', '/v1/projects', {
      key: user.key,
      json: { title: 'Branded', language: 'en', videoUrl: files.url('talk.mp4'), presetId: id, disableCaptions: true },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const done = await waitProject(app, user.key, created.body.id, (p) => p.status === 'completed' && p.downloadUrl, 120_000);
    const file = path.join(dir, 'branded.mp4');
    await fs.writeFile(file, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
    const f = await frameAt(file, 1);
    // the source's own size (320x240): a logo 64 px wide (20 %), 12 px (5 % of 240) from the left and bottom edges
    expect([f.w, f.h]).toEqual([320, 240]);
    const px = (x: number, y: number) => [0, 1, 2].map((c) => f.rgb[(y * f.w + x) * 3 + c]);
    const inside = px(12 + 32, 240 - 12 - 32);
    // half red over grey: red well above green and blue, but not pure red
    expect(inside[0] - inside[1], JSON.stringify(inside)).toBeGreaterThan(60);
    expect(inside[1]).toBeGreaterThan(30);
    // outside the logo the look is mono: no colour anywhere else
    let coloured = 0;
    for (let y = 0; y < f.h; y++)
      for (let x = 0; x < f.w; x++) {
        if (x < 12 + 64 + 4 && y > 240 - 12 - 64 - 4) continue;
        const [r, g, b] = px(x, y);
        if (Math.max(r, g, b) - Math.min(r, g, b) > 40) coloured++;
      }
    expect(coloured).toBeLessThan(f.w * f.h * 0.01);
  });
});

/** mean absolute difference of two frames' channels, over the rows [top, bottom) */
function difference(a: Frame, b: Frame, top = 0, bottom = a.h) {
  let sum = 0;
  for (let i = top * a.w * 3; i < bottom * a.w * 3; i++) sum += Math.abs(a.rgb[i] - b.rgb[i]);
  return sum / ((bottom - top) * a.w * 3);
}

describe('fonts and colour LUTs in the library', () => {
  const FAMILY = 'Brand Script';
  let fontId: string;
  let lutId: string;
  const fields = (r: { body: { details?: Array<{ field: string }> } }) => r.body.details?.map((d) => d.field).sort();

  beforeAll(async () => {
    const font = await uploadBytes(user.key, await renamedFont(SCRIPT_FONT, FAMILY), 'BrandScript-Regular.otf', 'font/otf');
    expect(font.status, JSON.stringify(font.body)).toBe(201);
    fontId = font.body.userMediaId;
    const lut = await uploadBytes(user.key, swapRedBlueCube(2), 'swap.cube');
    expect(lut.status, JSON.stringify(lut.body)).toBe(201);
    lutId = lut.body.userMediaId;
  });

  it('takes a TTF or OTF as FONT and a .cube as LUT, parsed, and lists them by type', async () => {
    const fonts = await request(app, 'GET', '/v1/user-media?type=FONT', { key: user.key });
    expect(fonts.body.items).toEqual([
      expect.objectContaining({
        id: fontId,
        type: 'FONT',
        status: 'ready',
        metadata: { family: FAMILY, style: 'Regular', glyphs: expect.any(Number), fileSize: expect.any(Number) },
      }),
    ]);
    const luts = await request(app, 'GET', '/v1/user-media?type=LUT', { key: user.key });
    expect(luts.body.items).toEqual([
      expect.objectContaining({ id: lutId, type: 'LUT', metadata: { lutSize: 2, title: 'swap red and blue', fileSize: expect.any(Number) } }),
    ]);
  });

  it('refuses a damaged font, a web font and a broken LUT with the reason, keeping nothing', async () => {
    const before = await app.runtime.app.db.userMedia.count({ where: { userId: user.id } });
    const font = await fs.readFile(SCRIPT_FONT);
    const cut = await uploadBytes(user.key, font.subarray(0, 4000), 'cut.otf');
    expect(cut.status).toBe(415);
    expect(cut.body).toMatchObject({
      error: 'UNSUPPORTED_MEDIA_TYPE',
      message: expect.stringMatching(/^The font cannot be read: its .* table runs past the end/),
    });
    const woff = await uploadBytes(user.key, Buffer.concat([Buffer.from('wOFF'), font.subarray(4, 400)]), 'brand.woff');
    expect(woff.body.message).toMatch(/WOFF web fonts are not taken/);
    const lut = await uploadBytes(user.key, 'LUT_3D_SIZE 2\n0 0 0\n', 'short.cube');
    expect(lut.status).toBe(415);
    expect(lut.body.message).toBe('The LUT cannot be read: it has 1 entries; LUT_3D_SIZE 2 needs 8');
    expect(await app.runtime.app.db.userMedia.count({ where: { userId: user.id } })).toBe(before);
  });

  it('lets a style name a library font by its family, and refuses a family neither built in nor in your library', async () => {
    const theme = (key: string, family: string) => request(app, 'POST', '/v1/themes', { key, json: { name: 'Branded', style: { font: { family } } } });
    const mine = await theme(user.key, FAMILY);
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    const theirs = await theme(other.key, FAMILY);
    expect(theirs.status).toBe(400);
    expect(theirs.body.details).toEqual([
      expect.objectContaining({
        field: 'style.font.family',
        message: expect.stringMatching(/^is neither a built-in font \(Lato, .*\) nor the family of a FONT in your library/),
      }),
    ]);
    // a project's own style, at creation, every problem at once
    const bad = await request(app, 'POST', '/v1/projects', {
      key: other.key,
      json: { title: 'x', language: 'en', videoUrl: files.url('talk.mp4'), style: { font: { family: FAMILY, size: 1 } } },
    });
    expect(fields(bad)).toEqual(['style.font.family', 'style.font.size']);
    // a preset's saved captions
    const saved = await gql(app, other.key, SAVE, { id: await newPreset(other.id), input: { captions: { style: { font: { family: FAMILY } } } } });
    expect(saved.body.errors?.[0]?.extensions?.details.map((d: { field: string }) => d.field)).toEqual(['captions.style.font.family']);
  });

  it('refuses a font or a LUT where a picture or a sound goes, and a LUT id that is no LUT', async () => {
    const created = await request(app, 'POST', '/v1/projects', {
      key: user.key,
      json: {
        title: 'x',
        language: 'en',
        videoUrl: files.url('talk.mp4'),
        items: [{ type: 'user-media', userMediaId: fontId, startTime: 0, endTime: 1 }],
        music: { userMediaId: lutId, volume: 20 },
      },
    });
    expect(created.body.details).toEqual([
      expect.objectContaining({ field: 'music.userMediaId', message: 'must be an AUDIO library file, not LUT' }),
      expect.objectContaining({ field: 'items[0].userMediaId', message: 'is a FONT file: items show video or images' }),
    ]);
    const id = await newPreset();
    const r = await gql(app, user.key, SAVE, { id, input: { logo: { userMediaId: fontId }, colorFilter: { userMediaId: logoId, name: 'warm' } } });
    expect(r.body.errors?.[0]?.extensions?.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'colorFilter.name',
      'colorFilter.userMediaId',
      'logo.userMediaId',
    ]);
    const wrong = await gql(app, user.key, SAVE, { id, input: { colorFilter: { userMediaId: logoId } } });
    expect(wrong.body.errors?.[0]?.extensions?.details).toEqual([
      expect.objectContaining({ field: 'colorFilter.userMediaId', message: 'must be a LUT (.cube) of your library, not IMAGE' }),
    ]);
  });

  it('draws a library font as the system draws the same face, where the fallback would differ', async () => {
    const fontFile = path.join(dir, 'brand.otf');
    await fs.writeFile(fontFile, await renamedFont(SCRIPT_FONT, FAMILY));
    const still = async (family: string, fontFiles: string[]) => {
      const out = path.join(dir, `still-${family}-${fontFiles.length}.png`);
      const work = await fs.mkdtemp(path.join(dir, 'still-'));
      // the Regular face on both sides: the system also has Dancing Script Bold, the library only the renamed Regular
      await renderStylePreview(overStyle(DEFAULT_CAPTION_TEMPLATE.style, { font: { family, weight: 400 } }), out, work, null, fontFiles);
      return frameAt(out, 0);
    };
    const [library, system, fallback] = await Promise.all([still(FAMILY, [fontFile]), still('Dancing Script', []), still(FAMILY, [])]);
    expect(difference(library, system)).toBeLessThan(0.2);
    expect(difference(fallback, system)).toBeGreaterThan(1);
  });

  it('exports a project of a preset with a LUT look and captions in a library font: the colours swapped, the captions in that face', async () => {
    const exported = async (family: string) => {
      const id = await newPreset();
      const saved = await gql(app, user.key, SAVE, {
        id,
        input: { colorFilter: { userMediaId: lutId, intensity: 100 }, captions: { style: { font: { family, weight: 400 }, layout: { positionY: 50 } } } },
      });
      expect(saved.body.errors, JSON.stringify(saved.body.errors)).toBeUndefined();
      const created = await request(app, 'POST', '/v1/projects', {
        key: user.key,
        json: { title: family, language: 'en', videoUrl: files.url('talk.mp4'), presetId: id },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const done = await waitProject(app, user.key, created.body.id, (p) => p.status === 'completed' && p.downloadUrl, 120_000);
      const file = path.join(dir, `lut-${family}.mp4`);
      await fs.writeFile(file, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
      return { file, words: done.words as Array<{ startTime: number; endTime: number }> };
    };
    const [library, system] = await Promise.all([exported(FAMILY), exported('Dancing Script')]);
    const source = (await mediaFixtures()).talk;
    const at = (library.words[1].startTime + library.words[1].endTime) / 2;
    const [a, b, s] = await Promise.all([frameAt(library.file, at), frameAt(system.file, at), frameAt(source, at)]);
    // the same captions in the same face: the two exports agree everywhere, the caption band included
    expect(difference(a, b)).toBeLessThan(1);
    // above the captions the picture is the source with red and blue swapped
    let swapped = 0;
    let kept = 0;
    const rows = Math.floor(s.h * 0.35);
    for (let i = 0; i < rows * s.w * 3; i += 3) {
      swapped += Math.abs(a.rgb[i] - s.rgb[i + 2]) + Math.abs(a.rgb[i + 2] - s.rgb[i]);
      kept += Math.abs(a.rgb[i] - s.rgb[i]) + Math.abs(a.rgb[i + 2] - s.rgb[i + 2]);
    }
    expect(swapped / (rows * s.w * 2)).toBeLessThan(12);
    expect(kept / (rows * s.w * 2)).toBeGreaterThan(30);
  });
});
