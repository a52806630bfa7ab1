/**
 * AI B-roll: a short video clip made from a text prompt. The offline default
 * (`TitleCardBroll`) renders an animated title card with ffmpeg — a slowly
 * moving two-colour gradient, the prompt wrapped and faded in with drawtext —
 * so B-roll items work without any external service. The colours follow from
 * the prompt, so one prompt always gives the same look.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { lastLines, ProgramError, runProgram } from '../media/program.js';

export interface BrollOptions {
  /** length of the clip, seconds (an item's window: at most 12) */
  durationSeconds: number;
  width: number;
  height: number;
  signal?: AbortSignal;
  /** where the scratch files go (default: the generator's work folder); a folder of the caller's can be emptied after a crash */
  workDir?: string;
}

export interface BrollGenerator {
  /** renders a clip for `prompt`; resolves with the path of a local mp4 file the caller owns (and deletes) */
  generate(prompt: string, opts: BrollOptions): Promise<string>;
}

export class BrollError extends Error {
  constructor(
    message: string,
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'BrollError';
  }
}

/** At most this much of the prompt is shown on the card. */
const SHOWN_CHARS = 140;
const MAX_LINES = 5;

let fontFile: string | null | undefined;
/** Open Sans Bold (fonts-open-sans), as fontconfig names its file; null without fontconfig. */
async function titleFont(): Promise<string | null> {
  if (fontFile !== undefined) return fontFile;
  try {
    const { stdout } = await runProgram('fc-match', ['-f', '%{file}', 'Open Sans:bold'], { timeoutMs: 15_000 });
    fontFile = stdout.trim() || null;
  } catch {
    fontFile = null;
  }
  return fontFile;
}

/** `text` in lines of at most `width` characters, broken at spaces; the last shown line ends with … when text is cut. */
export function wrapText(text: string, width: number, maxLines = MAX_LINES): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const lines: string[] = [];
  let line = '';
  let cut = false;
  for (const raw of words) {
    const word = raw.length > width ? `${raw.slice(0, width - 1)}…` : raw;
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
      if (lines.length === maxLines) {
        cut = true;
        break;
      }
    }
  }
  if (!cut && line) lines.push(line);
  if (cut) lines[maxLines - 1] = `${lines[maxLines - 1].replace(/[.,;:!?]*$/, '')}…`;
  return lines;
}

/** Escapes a value for a filter option inside single quotes in a filtergraph. */
const quoteOption = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "'\\\\\\''")}'`;

/** Two colours from the prompt's hash: a dark and a lighter shade of one hue. */
function palette(prompt: string): [string, string] {
  const h = crypto.createHash('sha256').update(prompt).digest();
  const hue = (h[0] * 360) / 256;
  const hsl = (hh: number, s: number, l: number) => {
    const f = (n: number) => {
      const k = (n + hh / 30) % 12;
      const a = s * Math.min(l, 1 - l);
      return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
    };
    return `0x${[f(0), f(8), f(4)].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
  };
  return [hsl(hue, 0.55, 0.18), hsl((hue + 40) % 360, 0.65, 0.42)];
}

/** The offline generator: an animated title card showing the prompt. */
export class TitleCardBroll implements BrollGenerator {
  constructor(private readonly workDir: string) {}

  async generate(prompt: string, { durationSeconds, width, height, signal, workDir = this.workDir }: BrollOptions): Promise<string> {
    if (!(durationSeconds > 0)) throw new BrollError('durationSeconds must be positive');
    const w = even(width);
    const h = even(height);
    const font = await titleFont();
    if (!font) throw new BrollError('no font for the title card: install fontconfig and fonts-open-sans');
    await fs.mkdir(workDir, { recursive: true });
    const base = path.join(workDir, `broll-${crypto.randomUUID()}`);
    const out = `${base}.mp4`;

    const fontSize = Math.max(12, Math.round(Math.min(w, h) * 0.075));
    const perLine = Math.max(8, Math.floor((w * 0.84) / (fontSize * 0.56)));
    const shown = prompt.length > SHOWN_CHARS ? `${prompt.slice(0, SHOWN_CHARS)}…` : prompt;
    const lines = wrapText(shown, perLine);
    const lineHeight = Math.round(fontSize * 1.3);
    const top = Math.round(h / 2 - (lines.length * lineHeight) / 2);
    const d = durationSeconds;
    const fadeIn = Math.min(0.8, d / 3);
    const fadeOut = Math.min(0.4, d / 5);
    const [c0, c1] = palette(prompt);

    // each line from its own text file: no escaping of the prompt in the filtergraph, centred one by one
    const texts = await Promise.all(
      lines.map(async (text, i) => {
        const file = `${base}-${i}.txt`;
        await fs.writeFile(file, text);
        return file;
      }),
    );
    const draw = texts.map(
      (file, i) =>
        `drawtext=fontfile=${quoteOption(font)}:textfile=${quoteOption(file)}:expansion=none:fontsize=${fontSize}:fontcolor=white` +
        `:shadowcolor=black@0.45:shadowx=2:shadowy=2:x=(w-text_w)/2:y=${top + i * lineHeight}+6*(1-min(1\\,t/${fadeIn.toFixed(3)}))` +
        `:alpha='min(1\\,max(0\\,(t-${(0.1 * i).toFixed(2)})/${fadeIn.toFixed(3)}))'`,
    );
    const filter = [
      `gradients=s=${w}x${h}:r=30:d=${d.toFixed(3)}:c0=${c0}:c1=${c1}:nb_colors=2:speed=0.015:seed=${prompt.length}[bg]`,
      `[bg]${[...draw, `fade=t=out:st=${(d - fadeOut).toFixed(3)}:d=${fadeOut.toFixed(3)}`, 'format=yuv420p'].join(',')}[v]`,
    ].join(';');
    try {
      await runProgram(
        'ffmpeg',
        [
          '-hide_banner',
          '-nostdin',
          '-y',
          '-filter_complex',
          filter,
          '-map',
          '[v]',
          '-t',
          d.toFixed(3),
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          '23',
          '-movflags',
          '+faststart',
          out,
        ],
        { signal, timeoutMs: 120_000, stdout: 'ignore' },
      );
      return out;
    } catch (e) {
      await fs.rm(out, { force: true });
      if (signal?.aborted || !(e instanceof ProgramError)) throw e;
      throw new BrollError(`ffmpeg could not render the B-roll title card: ${e.message}`, lastLines(e.stderr, 15).join('\n'));
    } finally {
      await Promise.all(texts.map((f) => fs.rm(f, { force: true })));
    }
  }
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
