import { decodeFirstFrames, NotMediaError, type ProbeResult } from '../media/ffprobe.js';

/**
 * Sides, in pixels, of a picture the library takes (an image, or a video's
 * frames). Below the minimum the file is damage, not a picture (four junk
 * bytes named .png probe as 0x0); above the maximum one decoded frame of an
 * image looped under a render weighs hundreds of megabytes.
 */
export const PICTURE_SIDE_PX = { min: 16, max: 8192 } as const;

/**
 * Refuses, with NotMediaError and a reason the user can act on, a probed file
 * whose first frames do not decode: an image must decode to a picture of a
 * sane size, a video's first pictures must decode, an audio file's first
 * sound must. Only the first packets are read, so it costs milliseconds.
 */
export async function assertDecodes(file: string, p: ProbeResult): Promise<void> {
  if (p.kind === 'AUDIO') {
    const decoded = p.audio ? await decodeFirstFrames(file, p.audio.index) : null;
    if (!decoded?.frames) throw new NotMediaError('The audio cannot be decoded: the file is truncated or damaged');
    return;
  }
  const decoded = p.video ? await decodeFirstFrames(file, p.video.index) : null;
  const what = p.kind === 'IMAGE' ? 'image' : 'video';
  if (!decoded?.frames || decoded.width === null || decoded.height === null) {
    throw new NotMediaError(
      p.kind === 'IMAGE'
        ? 'The image cannot be decoded: the file is damaged or not an image'
        : "The video's first frames cannot be decoded: the file is truncated or damaged",
    );
  }
  const { min, max } = PICTURE_SIDE_PX;
  const { width, height } = decoded;
  if (width < min || height < min || width > max || height > max) {
    throw new NotMediaError(`The ${what} is ${width}x${height} pixels; pictures must be ${min} to ${max} pixels on each side`);
  }
}
