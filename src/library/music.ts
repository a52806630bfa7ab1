import path from 'node:path';
import type { App } from '../app.js';
import { AppError } from '../errors.js';
import type { MusicTrack } from '../generated/prisma/client.ts';
import { NotMediaError, probe } from '../media/ffprobe.js';
import { isFetchError } from '../net/guarded-fetch.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { assertDecodes } from './decodes.js';
import { checkMediaUrl, downloadMedia } from './fetch-media.js';

/** Music tracks are a few minutes of audio at most; 200 MB leaves room for lossless files. */
const MAX_TRACK_BYTES = 200 * 1024 ** 2;

type Deps = Pick<App, 'config' | 'db' | 'storage'>;

/**
 * Adds a trendy-music track (operator CLI): the URL is checked, the file
 * downloaded and probed now, so the operator learns at once whether it works.
 * A track that fails leaves nothing behind.
 */
export async function addMusicTrack(app: Deps, name: string, url: string): Promise<MusicTrack> {
  const checked = await checkMediaUrl(app, url);
  const track = await app.db.musicTrack.create({ data: { name, sourceUrl: checked.url, status: 'pending' } });
  const ext = path
    .extname(checked.fileName)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '')
    .slice(0, 6);
  const key = `music/${track.id}/track${ext}`;
  try {
    const res = await downloadMedia(app, checked.url, MAX_TRACK_BYTES);
    const contentType = String(res.headers['content-type'] ?? 'audio/mpeg').split(';')[0];
    await app.storage.put(key, res.body, { contentType, maxBytes: MAX_TRACK_BYTES });
    const duration = await inWorkDir(app.config.dataDir, `music-${track.id}`, async (dir) => {
      const file = await app.storage.readableFile(key, dir);
      const p = await probe(file);
      if (!p.audio || p.duration === null) throw new NotMediaError('The file has no audio track');
      await assertDecodes(file, { ...p, kind: 'AUDIO' });
      return p.duration;
    });
    return await app.db.musicTrack.update({
      where: { id: track.id },
      data: { status: 'ready', storageKey: key, duration: Math.round(duration * 1000) / 1000 },
    });
  } catch (e) {
    await app.storage.delete(key).catch(() => {});
    await app.db.musicTrack.delete({ where: { id: track.id } }).catch(() => {});
    if (e instanceof NotMediaError)
      throw new AppError('VALIDATION_ERROR', `url: ${e.message}`, { details: [{ field: 'url', message: e.message, value: url }] });
    if (isFetchError(e)) throw new AppError('VALIDATION_ERROR', `url: ${e.message}`, { details: [{ field: 'url', message: e.message, value: url }] });
    throw e;
  }
}

/** The catalogue, alphabetical: only tracks that are ready to use. */
export const listMusicTracks = (app: Pick<App, 'db'>) => app.db.musicTrack.findMany({ where: { status: 'ready' }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
