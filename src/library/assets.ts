/**
 * Library files that are not sound or pictures: fonts (TTF, OTF) a caption
 * style names by family, and colour lookup tables (`.cube`, 3D) a colour look
 * applies. Each is checked by parsing it, not by its name: a font must hold a
 * name table, a character map and glyphs inside the file; a LUT must have its
 * size and every one of its size³ entries.
 */
import { NotMediaError } from '../media/ffprobe.js';

export type AssetKind = 'FONT' | 'LUT';

/** The largest font or LUT the library keeps (a 65-point LUT is about 7 MB; a CJK font 20). */
export const MAX_ASSET_BYTES = 32 * 1024 ** 2;

const SFNT_VERSIONS = new Set([0x00010000, 0x4f54544f /* OTTO */, 0x74727565 /* true */]);
const tagAt = (b: Buffer, at: number) => b.toString('latin1', at, at + 4);

/** What the first bytes of a file say it is among fonts and LUTs, or null: sound and pictures are ffprobe's to judge. */
export function assetKindOf(first: Buffer, fileName: string): AssetKind | null {
  if (first.length >= 4 && (SFNT_VERSIONS.has(first.readUInt32BE(0)) || ['ttcf', 'wOFF', 'wOF2'].includes(tagAt(first, 0)))) return 'FONT';
  if (/\.cube$/i.test(fileName) || isCubeText(first)) return 'LUT';
  return null;
}

/** Text that reads as a .cube LUT: its keywords before any data line. */
export function isCubeText(first: Buffer): boolean {
  if (first.includes(0)) return false;
  const head = first.toString('latin1', 0, Math.min(first.length, 4096));
  return /^\s*(LUT_3D_SIZE|LUT_1D_SIZE)\s+\d+/m.test(head) && !/^\s*</.test(head);
}

export interface FontInfo {
  /** the family name (name ID 1) a style names it by */
  family: string;
  /** the face within the family (name ID 2): Regular, Bold, Italic ... */
  style: string;
  glyphs: number;
}

/**
 * Parses a TrueType or OpenType font: its table directory, the name table's
 * family and face, the glyph count. Collections and web fonts are refused
 * with what to upload instead; anything else that does not parse is refused
 * as damaged.
 */
export function readFont(b: Buffer): FontInfo {
  const bad = (why: string) => new NotMediaError(`The font cannot be read: ${why}`);
  if (b.length < 12) throw bad('the file is too short');
  const head = tagAt(b, 0);
  if (head === 'ttcf') throw new NotMediaError('Font collections (.ttc) are not taken: upload one TTF or OTF file of the family');
  if (head === 'wOFF' || head === 'wOF2') throw new NotMediaError('WOFF web fonts are not taken: upload the TTF or OTF file of the font');
  if (!SFNT_VERSIONS.has(b.readUInt32BE(0))) throw bad('it is not a TrueType or OpenType font');
  const count = b.readUInt16BE(4);
  if (count === 0 || 12 + count * 16 > b.length) throw bad('its table directory is damaged');
  const tables = new Map<string, { offset: number; length: number }>();
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const offset = b.readUInt32BE(at + 8);
    const length = b.readUInt32BE(at + 12);
    if (offset + length > b.length) throw bad(`its ${tagAt(b, at).trim()} table runs past the end of the file`);
    tables.set(tagAt(b, at), { offset, length });
  }
  for (const tag of ['name', 'cmap', 'maxp'] as const) if (!tables.has(tag)) throw bad(`it has no ${tag} table`);
  if (!(tables.has('glyf') && tables.has('loca')) && !tables.has('CFF ') && !tables.has('CFF2')) throw bad('it has no glyphs');
  const maxp = tables.get('maxp')!;
  const glyphs = maxp.length >= 6 ? b.readUInt16BE(maxp.offset + 4) : 0;
  if (glyphs < 2) throw bad('it has no glyphs');
  const names = readNames(b, tables.get('name')!);
  const family = names.get(1)?.trim();
  if (!family) throw bad('it names no family');
  return { family: family.slice(0, 100), style: (names.get(2) ?? 'Regular').trim().slice(0, 100), glyphs };
}

/** The name table's strings by name ID, Windows (Unicode) records first, then Macintosh Roman ones. */
function readNames(b: Buffer, table: { offset: number; length: number }): Map<number, string> {
  const { offset, length } = table;
  if (length < 6) return new Map();
  const count = b.readUInt16BE(offset + 2);
  const strings = offset + b.readUInt16BE(offset + 4);
  const found = new Map<number, { rank: number; text: string }>();
  for (let i = 0; i < count && 6 + (i + 1) * 12 <= length; i++) {
    const r = offset + 6 + i * 12;
    const [platform, encoding, language, id, len, at] = [0, 2, 4, 6, 8, 10].map((k) => b.readUInt16BE(r + k));
    const start = strings + at;
    if (start + len > offset + length || start + len > b.length) continue;
    const bytes = b.subarray(start, start + len);
    // Unicode (0) and Windows Unicode BMP/full (3,1 / 3,10): UTF-16BE; Macintosh Roman (1,0): one byte a letter
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    const roman = platform === 1 && encoding === 0;
    if (!unicode && !roman) continue;
    const rank = platform === 3 && language === 0x409 ? 0 : unicode ? 1 : 2;
    const text = unicode ? utf16be(bytes) : bytes.toString('latin1');
    const current = found.get(id);
    if (!current || rank < current.rank) found.set(id, { rank, text });
  }
  return new Map([...found].map(([id, v]) => [id, v.text.replace(/\0/g, '')]));
}

function utf16be(bytes: Buffer): string {
  const swapped = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  swapped.swap16();
  return swapped.toString('utf16le');
}

export interface CubeLut {
  title: string | null;
  /** points along each axis */
  size: number;
  domainMin: [number, number, number];
  domainMax: [number, number, number];
  /** size³ RGB triples, red changing fastest */
  table: Float32Array;
}

/** The sizes of a 3D LUT the library takes. */
export const LUT_SIZES = { min: 2, max: 65 } as const;

/**
 * Parses an Adobe/Resolve `.cube` 3D LUT: TITLE, LUT_3D_SIZE, DOMAIN_MIN and
 * DOMAIN_MAX, then exactly size³ lines of three numbers. 1D LUTs are refused
 * (a colour look is a 3D table), as is any line that is not a keyword, a
 * comment or three numbers, naming its line.
 */
export function readCube(text: string): CubeLut {
  const bad = (why: string) => new NotMediaError(`The LUT cannot be read: ${why}`);
  let title: string | null = null;
  let size = 0;
  const domainMin: [number, number, number] = [0, 0, 0];
  const domainMax: [number, number, number] = [1, 1, 1];
  let table: Float32Array | null = null;
  let n = 0;
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith('#')) continue;
    const at = `line ${i + 1}`;
    if (/^[A-Za-z]/.test(line)) {
      const [key, ...rest] = line.split(/\s+/);
      const numbers = rest.map(Number);
      if (key === 'TITLE') title = line.slice(5).trim().replace(/^"|"$/g, '').slice(0, 200) || null;
      else if (key === 'LUT_1D_SIZE') throw new NotMediaError('1D LUTs are not taken: export the look as a 3D LUT (LUT_3D_SIZE)');
      else if (key === 'LUT_3D_SIZE') {
        size = numbers[0];
        if (!Number.isInteger(size) || size < LUT_SIZES.min || size > LUT_SIZES.max) {
          throw bad(`LUT_3D_SIZE must be ${LUT_SIZES.min} to ${LUT_SIZES.max}, not ${rest.join(' ')}`);
        }
        if (table) throw bad(`${at}: LUT_3D_SIZE comes twice`);
        table = new Float32Array(size ** 3 * 3);
      } else if (key === 'DOMAIN_MIN' || key === 'DOMAIN_MAX') {
        if (numbers.length !== 3 || numbers.some((x) => !Number.isFinite(x))) throw bad(`${at}: ${key} needs three numbers`);
        (key === 'DOMAIN_MIN' ? domainMin : domainMax).splice(0, 3, ...numbers);
      } else if (key === 'LUT_3D_INPUT_RANGE') {
        if (numbers.length !== 2 || numbers.some((x) => !Number.isFinite(x))) throw bad(`${at}: ${key} needs two numbers`);
        domainMin.fill(numbers[0]);
        domainMax.fill(numbers[1]);
      } else throw bad(`${at}: ${key} is not a .cube keyword`);
      continue;
    }
    if (!table) throw bad(`${at}: a data line before LUT_3D_SIZE`);
    const values = line.split(/\s+/).map(Number);
    if (values.length !== 3 || values.some((x) => !Number.isFinite(x))) throw bad(`${at} is not three numbers`);
    if (n >= size ** 3) throw bad(`more than ${size}³ = ${size ** 3} entries`);
    table.set(values, n * 3);
    n++;
  }
  if (!table) throw bad('it has no LUT_3D_SIZE');
  if (n !== size ** 3) throw bad(`it has ${n} entries; LUT_3D_SIZE ${size} needs ${size ** 3}`);
  if (domainMin.some((lo, k) => lo >= domainMax[k])) throw bad('DOMAIN_MIN must be below DOMAIN_MAX');
  return { title, size, domainMin, domainMax, table };
}

/**
 * The LUT at `intensity` percent, as .cube text: each entry moved from the
 * colour it maps (the identity) towards the LUT's by that share, so a look is
 * softened in the table itself and costs the render nothing more than the LUT.
 */
export function writeCube(lut: CubeLut, intensity: number): string {
  const t = Math.min(100, Math.max(0, intensity)) / 100;
  const { size, domainMin: lo, domainMax: hi, table } = lut;
  const out: string[] = [`LUT_3D_SIZE ${size}`, `DOMAIN_MIN ${lo.join(' ')}`, `DOMAIN_MAX ${hi.join(' ')}`];
  const f = (x: number) => String(Math.round(x * 1e6) / 1e6);
  for (let i = 0; i < size ** 3; i++) {
    const index = [i % size, Math.floor(i / size) % size, Math.floor(i / size ** 2)];
    const rgb = index.map((p, k) => {
      const identity = lo[k] + ((hi[k] - lo[k]) * p) / (size - 1);
      return f(identity + (table[i * 3 + k] - identity) * t);
    });
    out.push(rgb.join(' '));
  }
  return `${out.join('\n')}\n`;
}
