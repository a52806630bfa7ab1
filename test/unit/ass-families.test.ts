// Which fonts a render's captions need: libass reads every file of its fonts
// folder at each run, so only the families the ASS draws with are linked.
import { describe, expect, it } from 'vitest';
import { assFamilies } from '../../src/media/render/fonts.js';

const ass = (lines: string[]) =>
  [
    '[V4+ Styles]',
    'Style: Caption,Montserrat,150,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,6,0,2,10,10,10,1',
    'Style: Hook,Bebas Neue,84,&H00111111,&H00111111,&H00FFFFFF,&H00FFFFFF,-1,0,0,0,100,100,0,0,3,0,0,8,10,10,10,1',
    '',
    '[Events]',
    ...lines.map((t) => `Dialogue: 0,0:00:00.00,0:00:01.00,Caption,,0,0,0,,${t}`),
  ].join('\n');

describe('assFamilies', () => {
  it("names the styles' fonts alone for Latin text, with accents, dashes and quotes", () => {
    expect(assFamilies(ass(['{\\c&H00FFFF&}Café — “naïve” Zürich façade']))).toEqual(['Montserrat', 'Bebas Neue']);
  });

  it('adds a font an override names', () => {
    expect(assFamilies(ass(['{\\fnLobster}Hello']))).toEqual(['Montserrat', 'Bebas Neue', 'Lobster']);
  });

  it('adds the fallback of each script the lines hold, and no other', () => {
    expect(assFamilies(ass(['こんにちは世界']))).toEqual(['Montserrat', 'Bebas Neue', 'Noto Sans CJK JP']);
    expect(assFamilies(ass(['مرحبا', 'नमस्ते']))).toEqual(['Montserrat', 'Bebas Neue', 'Noto Sans Arabic', 'Noto Sans Devanagari']);
    expect(assFamilies(ass(['Привет, Ελλάδα']))).toEqual(['Montserrat', 'Bebas Neue', 'Noto Sans']);
    // a family's name in a style is not text to draw
    expect(assFamilies(ass(['plain']).replace('Montserrat', 'Noto Sans CJK JP'))).toEqual(['Noto Sans CJK JP', 'Bebas Neue']);
  });
});
