/**
 * What the operator CLI's `preset create --configured` saves for a user in
 * place of the editor: the same kinds of media the editor saves through
 * savePresetMedia (a caption look, a hook title, a colour look), and a logo
 * picture and a music bed it makes and adds to the user's library.
 */
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../app.js';
import type { Prisma } from '../db/client.js';
import { uploadUserMedia } from '../library/user-media.js';
import { runProgram } from '../media/program.js';
import { savePresetMedia } from './media.js';
import type { MediaToggle } from './saved-media.js';

type Preset = Prisma.PresetModel;

const FF = ['-hide_banner', '-loglevel', 'error', '-y'];

/** A 320x120 badge with the word BRAND, as a PNG, and a 20 s soft two-note bed, as AAC: real media for the user's library. */
async function makeBrandFiles(dir: string) {
  const logo = path.join(dir, 'logo.png');
  const music = path.join(dir, 'music.m4a');
  await runProgram('ffmpeg', [
    ...FF,
    '-f',
    'lavfi',
    '-i',
    'color=c=0x7B2CFF:s=320x120',
    '-vf',
    "drawtext=text='BRAND':font='Roboto':fontcolor=white:fontsize=64:x=(w-tw)/2:y=(h-th)/2",
    '-frames:v',
    '1',
    logo,
  ]);
  await runProgram('ffmpeg', [
    ...FF,
    '-f',
    'lavfi',
    '-i',
    'sine=f=220:d=20',
    '-f',
    'lavfi',
    '-i',
    'sine=f=330:d=20',
    '-filter_complex',
    'amix=inputs=2,volume=0.4,afade=t=in:d=1,afade=t=out:st=19:d=1',
    '-c:a',
    'aac',
    music,
  ]);
  return { logo, music };
}

/**
 * A preset with the given kinds of saved media, saved as the editor saves them
 * (savePresetMedia); the logo and music are made and added to the user's
 * library. Its toggles stay off until the user enables them; its music volume
 * starts at the saved music's.
 */
export async function createPresetWithSavedMedia(
  app: Pick<App, 'db' | 'storage' | 'config'>,
  userId: string,
  name: string,
  kinds: readonly MediaToggle[],
): Promise<Preset> {
  const preset = await app.db.preset.create({ data: { userId, name } });
  if (!kinds.length) return preset;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'brand-'));
  try {
    const made = kinds.includes('logo') || kinds.includes('music') ? await makeBrandFiles(dir) : null;
    const upload = async (file: string, mimetype: string) =>
      (await uploadUserMedia(app, userId, { filename: path.basename(file), mimetype, stream: createReadStream(file) })).id;
    const input: Record<string, unknown> = {};
    if (kinds.includes('captions')) input.captions = { templateName: 'highlight' };
    if (kinds.includes('hookTitle')) input.hookTitle = { template: 'banner' };
    if (kinds.includes('colorFilter')) input.colorFilter = { name: 'warm', intensity: 60 };
    if (made && kinds.includes('logo')) input.logo = { userMediaId: await upload(made.logo, 'image/png'), position: 'top-right', sizePercent: 18, opacity: 90 };
    if (made && kinds.includes('music')) input.music = { userMediaId: await upload(made.music, 'audio/mp4'), volume: 50 };
    await savePresetMedia(app.db, userId, preset.id, input);
    // saved, not applied: the user switches each on
    return await app.db.preset.update({ where: { id: preset.id }, data: Object.fromEntries(kinds.map((k) => [k, false])) });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
