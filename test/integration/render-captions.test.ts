import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overStyle, STYLE_FONTS, type CaptionStyle, type StyleOverride } from '../../src/catalog/caption-style.js';
import { CAPTION_TEMPLATES, findCaptionTemplate } from '../../src/catalog/caption-templates.js';
import { HOOK_TITLE_TEMPLATES, findHookTitleTemplate } from '../../src/catalog/hook-title-templates.js';
import { assColor, assTime, buildAss, captionPages, escapeAssText, toSrt, toVtt } from '../../src/media/render/captions.js';
import { fontFamilies, fontsDir, installedFonts, SCRIPT_FONTS, templateFonts } from '../../src/media/render/fonts.js';
import type { TimedWord } from '../../src/media/transcript.js';

const run = promisify(execFile);
const w = (text: string, startTime: number, endTime: number, type: TimedWord['type'] = 'word'): TimedWord => ({ text, type, startTime, endTime });
const tpl = (name: string) => findCaptionTemplate(name)!;
const styled = (name: string, over: StyleOverride) => overStyle(tpl(name).style, over);
const ALL = [{ start: 0, end: 100 }];
const dialogues = (ass: string) => ass.split('\n').filter((l) => l.startsWith('Dialogue:'));
const field = (line: string, i: number) => line.slice('Dialogue: '.length).split(',')[i];
const style = (ass: string, name: string) =>
  ass
    .split('\n')
    .find((l) => l.startsWith(`Style: ${name},`))!
    .slice(7)
    .split(',');

/** "Hi, there world. This is fine" … a 1 s pause … "again" */
const WORDS: TimedWord[] = [
  w('Hi', 0.1, 0.3),
  w(',', 0.3, 0.3, 'punctuation'),
  w('there', 0.4, 0.7),
  w('world', 0.8, 1.1),
  w('.', 1.1, 1.1, 'punctuation'),
  w('This', 1.2, 1.4),
  w('', 1.4, 1.5, 'silence'),
  w('is', 1.5, 1.6),
  w('fine', 1.7, 2.0),
  w('', 2.0, 3.0, 'silence'),
  w('again', 3.0, 3.4),
];

describe('caption building blocks', () => {
  it('converts colours to &HAABBGGRR with opacity turned into transparency', () => {
    expect(assColor('#FFD400')).toBe('&H0000D4FF');
    expect(assColor('#000000A0')).toBe('&H5F000000');
    expect(assColor('#12345600')).toBe('&HFF563412');
    expect(() => assColor('red')).toThrow();
  });

  it('escapes braces, backslashes and line breaks', () => {
    expect(escapeAssText('a{b}c')).toBe('a\\{b\\}c');
    expect(escapeAssText('x\\Ny')).toBe('x\\\u2060Ny');
    expect(escapeAssText('c:\\path')).toBe('c:\\path');
    expect(escapeAssText('one\ntwo\r\nthree')).toBe('one two three');
    expect(escapeAssText('one\ntwo', '\\N')).toBe('one\\Ntwo');
    expect(escapeAssText('\\{')).toBe('\\\u2060\\{');
  });

  it('formats times', () => {
    expect(assTime(0)).toBe('0:00:00.00');
    expect(assTime(3661.239)).toBe('1:01:01.24');
  });

  it('pages words: per line, sentence ends, pauses, punctuation glued, cut words dropped', () => {
    const pages = captionPages(WORDS, ALL, 3);
    expect(pages.map((p) => p.words.map((x) => x.text).join(' '))).toEqual(['Hi, there world.', 'This is fine', 'again']);
    expect(captionPages(WORDS, ALL, 2).map((p) => p.words.length)).toEqual([2, 1, 2, 1, 1]);
    // the pause before "again" breaks the page even with room left
    expect(captionPages(WORDS, ALL, 10).map((p) => p.words.length)).toEqual([3, 3, 1]);
    // "there" cut entirely; the rest moves up by the cut
    const keep = [
      { start: 0, end: 0.35 },
      { start: 0.75, end: 10 },
    ];
    const cut = captionPages(WORDS, keep, 3);
    expect(cut[0].words.map((x) => x.text)).toEqual(['Hi,', 'world.']);
    expect(cut[0].words[1].start).toBeCloseTo(0.4, 9);
    // a leading punctuation mark goes to the next word
    expect(captionPages([w('"', 0, 0, 'punctuation'), w('Quote', 0, 0.5)], ALL, 3)[0].words[0].text).toBe('"Quote');
  });
});

describe('buildAss', () => {
  it('writes the header, scaled styles from the template and the theme', () => {
    const ass = buildAss({ words: WORDS, keep: ALL, style: tpl('classic').style, width: 540, height: 960 });
    expect(ass).toContain('PlayResX: 540\nPlayResY: 960');
    const s = style(ass, 'Caption');
    expect(s[1]).toBe('Lato');
    expect(s[2]).toBe('88'); // 176 × 540/1080
    expect(s[3]).toBe('&H00FFFFFF');
    expect(s[5]).toBe('&H00000000');
    expect(s[7]).toBe('-1');
    expect(s[16]).toBe('5'); // outline 10 scaled
    // lines wrap between the safe area's sides: 6 % on the left, 14 % on the right (the button column)
    expect([s[19], s[20]]).toEqual(['32', '76']);
    // sizes follow the short side: a wide 1920x1080 frame gets the 1080x1920 sizes, and no button column
    const wide = style(buildAss({ words: WORDS, keep: ALL, style: tpl('classic').style, width: 1920, height: 1080 }), 'Caption');
    expect([wide[2], wide[19], wide[20]]).toEqual(['176', '115', '115']);
    const themed = buildAss({
      words: WORDS,
      keep: ALL,
      style: styled('classic', {
        font: { family: 'Lato', size: 100, case: 'upper' },
        fill: '#102030',
        activeWord: { color: '#00FF00' },
        layout: { wordsPerLine: 1 },
      }),
      width: 1080,
      height: 1920,
    });
    const t = style(themed, 'Caption');
    expect([t[1], t[2], t[3], t[5]]).toEqual(['Lato', '100', '&H00302010', '&H00000000']);
    expect(dialogues(themed)).toHaveLength(7);
    expect(themed).toContain('\\1c&H00FF00&}HI,');
    // a translucent background band is an opaque box in the band colour
    const band = style(buildAss({ words: WORDS, keep: ALL, style: tpl('subtitle').style, width: 1080, height: 1920 }), 'Caption');
    expect(band[15]).toBe('3');
    expect(band[5]).toBe('&H4F000000');
  });

  it('places captions with \\an5\\pos from positionX/positionY, by default in the safe area, with the font weight', () => {
    const def = buildAss({ words: WORDS, keep: ALL, style: tpl('classic').style, width: 1080, height: 1920 });
    // the middle of the safe area's sides (6 % to 86 %), the template's height (66 %)
    expect(dialogues(def)[0]).toContain('{\\an5\\pos(497,1267)\\b900}');
    // a position the user sets is kept as given, even in the platforms' areas
    const moved = buildAss({ words: WORDS, keep: ALL, style: tpl('classic').style, width: 1080, height: 1920, positionX: 50, positionY: 80 });
    expect(dialogues(moved)[0]).toContain('{\\an5\\pos(540,1536)\\b900}');
    // a wide frame has no button column: centred
    expect(dialogues(buildAss({ words: WORDS, keep: ALL, style: tpl('classic').style, width: 1920, height: 1080 }))[0]).toContain('\\pos(960,713)');
  });

  it('times pages on the cut timeline', () => {
    const keep = [
      { start: 0, end: 1.6 },
      { start: 2.5, end: 10 },
    ];
    const ds = dialogues(buildAss({ words: WORDS, keep, style: tpl('subtitle').style, width: 1080, height: 1920 }));
    // the first page stays up through the 0.1 s gap; "fine" (1.7-2.0) is cut; "again" at 3.0 → 2.1, and
    // the pause before it, measured on the output (0.5 s), no longer breaks the page
    expect(ds.map((d) => [field(d, 1), field(d, 2)])).toEqual([
      ['0:00:00.10', '0:00:01.20'],
      ['0:00:01.20', '0:00:02.50'],
    ]);
    expect(ds[1]).toMatch(/This is again$/);
    const slow = dialogues(buildAss({ words: WORDS, keep: ALL, style: tpl('subtitle').style, width: 1080, height: 1920 }));
    expect(slow.map((d) => field(d, 1))).toEqual(['0:00:00.10', '0:00:01.20', '0:00:03.00']);
  });

  it('highlights the active word per style', () => {
    const base = { words: WORDS.slice(0, 5), keep: ALL, width: 1080, height: 1920 };
    const as = (style: CaptionStyle) => buildAss({ ...base, style });
    // color: one event per page, timed \t colour steps (ms from the event start)
    const color = dialogues(as(styled('classic', { layout: { wordsPerLine: 3 } })));
    expect(color).toHaveLength(1);
    expect(color[0]).toContain('{\\1c&H00D4FF&\\t(300,301,\\1c&HFFFFFF&)}Hi, {');
    expect(color[0]).toContain('{\\1c&HFFFFFF&\\t(300,301,\\1c&H00D4FF&)\\t(700,701,\\1c&HFFFFFF&)}there');
    expect(color[0]).toContain('\\t(700,701,\\1c&H00D4FF&)}world.');
    // underline: an event per active word with \u1
    const ul = dialogues(as(tpl('underline').style));
    expect(ul).toHaveLength(3);
    expect(ul[1]).toContain('Hi, {\\u1\\1c&HFFFFFF&}there{\\u0} world.');
    expect([field(ul[1], 1), field(ul[1], 2)]).toEqual(['0:00:00.40', '0:00:00.80']);
    // box: a box layer under the text layer per word
    const box = as(tpl('spotlight').style);
    expect(style(box, 'CaptionBox')[15]).toBe('3');
    expect(style(box, 'CaptionBox')[5]).toBe('&H00FF2C7B');
    const bd = dialogues(box);
    expect(bd.filter((d) => d.startsWith('Dialogue: 0,') && d.includes('CaptionBox'))).toHaveLength(3);
    expect(bd[0]).toContain('{\\1a&HFF&\\3a&H00&}HI, {\\1a&HFF&\\3a&HFF&\\4a&HFF&}THERE');
    // none: plain text
    const none = dialogues(buildAss({ ...base, style: tpl('subtitle').style }));
    expect(none[0]).toMatch(/\{\\an5\\pos\(497,1306\)\}Hi, there world\.$/);
  });

  it('adds the hook title with fade, box and scaled size, and can leave captions out', () => {
    const hook = { text: 'Watch {this}\nnow', template: findHookTitleTemplate('banner')!, top: 10, size: 30 };
    const ass = buildAss({ words: WORDS, keep: [{ start: 0, end: 2 }], style: tpl('classic').style, width: 540, height: 960, hook, captions: false });
    const ds = dialogues(ass);
    expect(ds).toHaveLength(1);
    expect(ds[0]).toBe('Dialogue: 2,0:00:00.00,0:00:02.00,Hook,,0,0,0,,{\\an8\\pos(248,96)\\b800\\fad(200,200)}WATCH \\{THIS\\}\\NNOW');
    const s = style(ass, 'Hook');
    expect([s[1], s[2], s[3], s[5], s[15]]).toEqual(['Open Sans', '42', '&H00FFFFFF', '&H003A30E8', '3']);
    const plain = style(
      buildAss({
        words: [],
        keep: ALL,
        style: tpl('classic').style,
        width: 1080,
        height: 1920,
        hook: { ...hook, template: findHookTitleTemplate('outline')!, size: 80 },
      }),
      'Hook',
    );
    expect([s[15], plain[15], plain[2], plain[16]]).toEqual(['3', '1', '184', '8']);
    const d = dialogues(
      buildAss({
        words: [],
        keep: ALL,
        style: tpl('classic').style,
        width: 1080,
        height: 1920,
        hook: { ...hook, template: findHookTitleTemplate('outline')! },
      }),
    );
    expect([field(d[0], 1), field(d[0], 2)]).toEqual(['0:00:00.00', '0:00:03.50']);
  });
});

describe('SRT and VTT', () => {
  it('writes SRT cues on the cut timeline', () => {
    const srt = toSrt(
      WORDS,
      [
        { start: 0, end: 2 },
        { start: 2.9, end: 10 },
      ],
      { wordsPerLine: 3 },
    );
    expect(srt).toBe(
      '1\n00:00:00,100 --> 00:00:01,200\nHi, there world.\n\n2\n00:00:01,200 --> 00:00:02,100\nThis is fine\n\n3\n00:00:02,100 --> 00:00:02,500\nagain\n',
    );
  });

  it('writes VTT with its header and escaped text', () => {
    const vtt = toVtt(
      [w('a<b', 3661.5, 3662), w('&', 3662, 3662.25)],
      ALL.map(() => ({ start: 0, end: 4000 })),
      { wordsPerLine: 7 },
    );
    expect(vtt).toBe('WEBVTT\n\n01:01:01.500 --> 01:01:02.250\na&lt;b &amp;\n');
  });
});

describe('fonts and a real render', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'render-captions-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('has every template font installed and linked into fontsDir', async () => {
    // every family a template names is one a style may name, and installed
    for (const f of templateFonts()) expect(STYLE_FONTS).toContain(f);
    for (const f of [...templateFonts(), ...SCRIPT_FONTS]) expect(fontFamilies()).toContain(f);
    const fonts = fontsDir(dir);
    expect(path.dirname(fonts)).toBe(dir);
    const files = await fs.readdir(fonts);
    for (const f of ['OpenSans-Bold.ttf', 'Roboto-Bold.ttf', 'Lato-Regular.ttf', 'BebasNeue-Bold.otf']) expect(files).toContain(f);
  });

  const W = 360;
  const H = 640;
  const SRC = `testsrc=d=3:r=10:s=${W}x${H}`;
  /** raw gray frame at `t` of the test source, optionally through `vf` */
  const frame = async (t: number, vf?: string) => {
    const args = ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', SRC];
    if (vf) args.push('-vf', vf);
    args.push('-ss', String(t), '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-');
    const { stdout } = await run('ffmpeg', args, { encoding: 'buffer', maxBuffer: 16 << 20 });
    return stdout;
  };
  const rowsDiffer = (a: Buffer, b: Buffer, y0: number, y1: number) => {
    let n = 0;
    for (let i = y0 * W; i < y1 * W; i++) if (Math.abs(a[i] - b[i]) > 16) n++;
    return n;
  };

  it('burns captions and the hook title, with the template fonts (no DejaVu fallback)', async () => {
    const words = 'Hello world from the captions test again'.split(' ').map((t, i) => w(t, 0.2 + i * 0.35, 0.5 + i * 0.35));
    const plain = await frame(1);
    for (const [i, template] of CAPTION_TEMPLATES.entries()) {
      const hookTemplate = HOOK_TITLE_TEMPLATES[i % HOOK_TITLE_TEMPLATES.length];
      const file = path.join(dir, `${template.name}.ass`);
      const ass = buildAss({
        words,
        keep: [{ start: 0, end: 3 }],
        style: template.style,
        width: W,
        height: H,
        positionY: 60,
        hook: { text: 'Hook title', template: hookTemplate, top: 5 },
      });
      await fs.writeFile(file, ass);
      // linked as a render links them: the families this file draws with
      const fonts = fontsDir(dir, [], [], ass);
      const vf = `ass=${file}:fontsdir=${fonts}`;
      const { stderr } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'verbose', '-f', 'lavfi', '-i', SRC, '-vf', vf, '-f', 'null', '-']);
      const selected = [...stderr.matchAll(/fontselect: \(([^,]+), \d+, \d+\) -> ([^,\s]+)/g)].map((m) => [m[1], m[2]]);
      const asked = new Set(selected.map(([family]) => family));
      expect(asked).toEqual(new Set([template.style.font.family, hookTemplate.font]));
      for (const [family, face] of selected) {
        if (!family.startsWith('DejaVu')) expect(face).not.toMatch(/dejavu/i);
        // a face of the family: by its name ("OpenSans-ExtraBold"), or by a path fontconfig lists under the family
        const byName = path.basename(face).toLowerCase().startsWith(family.replace(/\s+/g, '').toLowerCase());
        const byFile = installedFonts().some((f) => f.file === face && f.families.includes(family));
        expect(byName || byFile, `${template.name}: ${family} -> ${face}`).toBe(true);
      }
      const burnt = await frame(1, vf);
      // caption block centred at 60 % (384 px): the frame differs there, and in the hook's band at the top
      expect(rowsDiffer(burnt, plain, 384 - 30, 384 + 30)).toBeGreaterThan(200);
      expect(rowsDiffer(burnt, plain, 32, 90)).toBeGreaterThan(200);
      // and not far from both
      expect(rowsDiffer(burnt, plain, 500, 640)).toBe(0);
    }
  }, 300_000); // a render of each of the 30 templates: about 20 s alone, several times that on busy cores
});
