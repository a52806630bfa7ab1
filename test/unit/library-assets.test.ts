/**
 * Fonts and colour LUTs are judged by parsing them: a font's family comes from
 * its name table, a LUT's entries are counted; collections, web fonts, 1D LUTs
 * and damaged files are refused with what to do instead. A LUT's intensity is
 * written into the table itself.
 */
import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { assetKindOf, isCubeText, readCube, readFont, writeCube } from '../../src/library/assets.js';
import { renamedFont, SCRIPT_FONT, swapRedBlueCube } from '../support/fonts.js';

describe('readFont', () => {
  it('reads the family, face and glyph count of an OpenType font and of one renamed', async () => {
    const font = await fs.readFile(SCRIPT_FONT);
    expect(readFont(font)).toMatchObject({ family: 'Dancing Script', style: 'Regular' });
    expect(readFont(font).glyphs).toBeGreaterThan(100);
    const renamed = await renamedFont(SCRIPT_FONT, 'Brand Script', 'Bold');
    expect(readFont(renamed)).toMatchObject({ family: 'Brand Script', style: 'Bold' });
    expect(assetKindOf(renamed, 'upload')).toBe('FONT');
  });

  it('reads a TrueType font (DejaVu Sans)', async () => {
    const font = await fs.readFile('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf');
    expect(readFont(font).family).toBe('DejaVu Sans');
  });

  it('refuses collections, web fonts, other files and a cut font, saying why', async () => {
    const font = await fs.readFile(SCRIPT_FONT);
    const collection = Buffer.concat([Buffer.from('ttcf'), font.subarray(4)]);
    expect(() => readFont(collection)).toThrow(/collections \(\.ttc\) are not taken/);
    expect(() => readFont(Buffer.concat([Buffer.from('wOF2'), font.subarray(4)]))).toThrow(/WOFF web fonts are not taken/);
    expect(() => readFont(Buffer.from('%PDF-1.4 not a font at all'))).toThrow(/not a TrueType or OpenType font/);
    expect(() => readFont(font.subarray(0, 2000))).toThrow(/runs past the end of the file/);
    expect(() => readFont(font.subarray(0, 8))).toThrow(/too short/);
  });
});

describe('readCube', () => {
  it('reads a 3D LUT: title, size, every entry, red fastest', () => {
    const lut = readCube(swapRedBlueCube(3));
    expect(lut).toMatchObject({ title: 'swap red and blue', size: 3, domainMin: [0, 0, 0], domainMax: [1, 1, 1] });
    expect(lut.table.length).toBe(27 * 3);
    // the second line is the entry (r=0.5, g=0, b=0): it maps to (0, 0, 0.5)
    expect([...lut.table.subarray(3, 6)]).toEqual([0, 0, 0.5]);
    expect(isCubeText(Buffer.from(swapRedBlueCube()))).toBe(true);
    expect(assetKindOf(Buffer.from(swapRedBlueCube()), 'look.bin')).toBe('LUT');
  });

  it('refuses 1D LUTs, missing and extra entries and a line that is not three numbers, naming it', () => {
    expect(() => readCube('LUT_1D_SIZE 4\n0 0 0\n')).toThrow(/1D LUTs are not taken/);
    expect(() => readCube('LUT_3D_SIZE 2\n0 0 0\n')).toThrow(/it has 1 entries; LUT_3D_SIZE 2 needs 8/);
    expect(() => readCube(`${swapRedBlueCube()}1 1 1\n`)).toThrow(/more than 2³ = 8 entries/);
    expect(() => readCube('LUT_3D_SIZE 2\n0 0 zero\n')).toThrow(/line 2 is not three numbers/);
    expect(() => readCube('LUT_3D_SIZE 99\n')).toThrow(/LUT_3D_SIZE must be 2 to 65/);
    expect(() => readCube('0 0 0\n')).toThrow(/a data line before LUT_3D_SIZE/);
    expect(() => readCube('# nothing\n')).toThrow(/has no LUT_3D_SIZE/);
    expect(() => readCube('LUT_3D_SIZE 2\nGAMMA 2.2\n')).toThrow(/GAMMA is not a \.cube keyword/);
  });
});

describe('writeCube', () => {
  it('softens the table towards the identity by the intensity', () => {
    const lut = readCube(swapRedBlueCube(2));
    const at = (text: string) => [...readCube(text).table.subarray(3, 6)];
    // entry (r=1, g=0, b=0): the identity keeps it red, the LUT makes it blue
    expect(at(writeCube(lut, 0))).toEqual([1, 0, 0]);
    expect(at(writeCube(lut, 100))).toEqual([0, 0, 1]);
    expect(at(writeCube(lut, 25))).toEqual([0.75, 0, 0.25]);
  });
});
