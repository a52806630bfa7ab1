// Content sniffing: refuse a web page after its first bytes, not after all of them.

export type SniffResult = 'html' | 'text' | 'media' | 'unknown';

const ascii = (buf: Buffer, start: number, end: number) => buf.toString('latin1', start, end);

/** Known media signatures (video, audio, image) at the start of a file. */
function isMediaSignature(b: Buffer): boolean {
  if (b.length < 2) return false;
  const at4 = b.length >= 8 ? ascii(b, 4, 8) : '';
  // ISO BMFF (MP4, M4A, M4V, 3GP, HEIF) and QuickTime atoms
  if (['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].includes(at4)) return true;
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3) return true; // EBML: WebM, Matroska
  if (ascii(b, 0, 3) === 'ID3') return true; // MP3 with an ID3v2 tag
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return true; // JPEG
  if (b[0] === 0xff && (b[1] & 0xe0) === 0xe0 && b[1] !== 0xfe /* UTF-16 byte order mark */) {
    const layer = (b[1] >> 1) & 0x03;
    if (layer !== 0) return ((b[1] >> 3) & 0x03) !== 1; // MPEG audio frame (version bits 01 are reserved)
    return (b[1] & 0xf6) === 0xf0; // AAC ADTS
  }
  const first4 = ascii(b, 0, 4);
  if (first4 === 'RIFF' && b.length >= 12) return ['WAVE', 'AVI ', 'WEBP'].includes(ascii(b, 8, 12));
  if (first4 === 'FORM' && b.length >= 12) return ['AIFF', 'AIFC'].includes(ascii(b, 8, 12));
  if (first4 === 'OggS' || first4 === 'fLaC' || ascii(b, 0, 3) === 'FLV') return true;
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return true; // PNG
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return true;
  if (b.length >= 4 && b.readUInt32BE(0) === 0x000001ba) return true; // MPEG program stream
  if (b.length >= 4 && b.readUInt32BE(0) === 0x3026b275) return true; // ASF / WMV
  // MPEG transport stream: a sync byte every 188 bytes ('G' alone could start a text)
  return b.length >= 377 && b[0] === 0x47 && b[188] === 0x47 && b[376] === 0x47;
}

/** Mostly printable UTF-8 (a multi-byte sequence cut at the end is fine). */
function looksLikeText(b: Buffer): boolean {
  let control = 0;
  for (const byte of b) {
    if (byte === 0) return false;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) control++;
  }
  if (control > b.length / 100 + 1) return false;
  // drop a trailing incomplete sequence before the strict decode
  let end = b.length;
  for (let i = Math.max(0, b.length - 3); i < b.length; i++) {
    const lead = b[i];
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (need > 1 && i + need > b.length) {
      end = i;
      break;
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

const HTML_MARKERS = /<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|script[\s>]|iframe[\s>]|title>|meta\s|link\s|div[\s>]|form[\s>])/i;

/**
 * A cheap first look at a download: `html` (a web page), `text` (XML, JSON,
 * plain text), `media` (a known video, audio or image signature) or `unknown`.
 * ffprobe stays the final judge of media; this only refuses pages early.
 */
export function sniffMedia(firstBytes: Buffer, contentType?: string): SniffResult {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (firstBytes.length === 0) {
    if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
    if (type.startsWith('text/') || type.endsWith('/json') || type.endsWith('+json') || type.endsWith('/xml') || type.endsWith('+xml')) return 'text';
    return 'unknown';
  }
  if (isMediaSignature(firstBytes)) return 'media';
  if (!looksLikeText(firstBytes.subarray(0, 4096))) return 'unknown';
  const head = firstBytes
    .toString('utf8', 0, Math.min(firstBytes.length, 4096))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('<') && HTML_MARKERS.test(head)) return 'html';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  return 'text';
}
