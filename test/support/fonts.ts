/**
 * Fonts for the tests: a Debian font under a family name no system font has,
 * so a render can only find it in the user's library. The file's name table
 * is replaced by one naming the new family (Windows, English), appended at
 * the end; the other tables stay where they are.
 */
import fs from 'node:fs/promises';

/** DancingScript-Regular from fonts-dancingscript: a script face unlike the fallback's. */
export const SCRIPT_FONT = '/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf';

export async function renamedFont(file: string, family: string, style = 'Regular'): Promise<Buffer> {
  const font = await fs.readFile(file);
  const records: Array<[number, string]> = [
    [1, family],
    [2, style],
    [4, `${family} ${style}`],
    [6, `${family.replace(/\s+/g, '')}-${style}`],
  ];
  const strings = records.map(([, text]) => Buffer.from(text, 'utf16le').swap16());
  const header = Buffer.alloc(6 + records.length * 12);
  header.writeUInt16BE(0, 0);
  header.writeUInt16BE(records.length, 2);
  header.writeUInt16BE(header.length, 4);
  let offset = 0;
  records.forEach(([id], i) => {
    const at = 6 + i * 12;
    [3, 1, 0x409, id, strings[i].length, offset].forEach((v, k) => header.writeUInt16BE(v, at + k * 2));
    offset += strings[i].length;
  });
  const table = Buffer.concat([header, ...strings]);
  const start = Math.ceil(font.length / 4) * 4;
  const out = Buffer.concat([font, Buffer.alloc(start - font.length), table, Buffer.alloc((4 - (table.length % 4)) % 4)]);
  const count = out.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    if (out.toString('latin1', at, at + 4) !== 'name') continue;
    out.writeUInt32BE(start, at + 8);
    out.writeUInt32BE(table.length, at + 12);
    return out;
  }
  throw new Error(`${file} has no name table`);
}

/** A .cube 3D LUT of `size` points that swaps red and blue. */
export function swapRedBlueCube(size = 2): string {
  const lines = [`TITLE "swap red and blue"`, `LUT_3D_SIZE ${size}`];
  for (let b = 0; b < size; b++)
    for (let g = 0; g < size; g++) for (let r = 0; r < size; r++) lines.push([b, g, r].map((v) => (v / (size - 1)).toFixed(6)).join(' '));
  return `${lines.join('\n')}\n`;
}
