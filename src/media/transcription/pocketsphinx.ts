import { readWavInfo } from '../wav.js';
import { TranscriberUnavailableError, TranscriptionError } from './errors.js';
import { primaryLanguage } from './languages.js';
import { findExecutable, progressReporter, runTool } from './process.js';
import type { TimedWord } from '../transcript.js';
import type { Transcriber } from './types.js';

const PROGRAM = 'pocketsphinx_continuous';

/** One line of `-time yes` output: `word start end confidence`. */
const TIMED = /^(\S+)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/i;
/** `<s>`, `</s>`, `<sil>`, `<unk>`, `[NOISE]`, `[BREATH]`, `++NOISE++`: no speech */
const FILLER = /^(<[^>]*>|\[[^\]]*\]|\+\+.*\+\+)$/;

/** A word, a silence/noise marker, or nothing (the untimed hypothesis lines) from one output line. */
export function parsePocketsphinxLine(line: string): TimedWord | undefined {
  const m = TIMED.exec(line.trim());
  if (!m) return undefined;
  const [, token, start, end, posterior] = m;
  const startTime = Number(start);
  const endTime = Number(end);
  if (FILLER.test(token)) return { text: '', type: 'silence', startTime, endTime };
  // `read(2)`: alternate pronunciations are numbered; the dictionary's words are lower case
  const text = token.replace(/\(\d+\)$/, '').replace(/^i(?=$|')/, 'I');
  const confidence = Math.min(1, Math.max(0, Number(posterior)));
  return { text, type: 'word', startTime, endTime, ...(Number.isFinite(confidence) ? { confidence } : {}) };
}

/**
 * CMU pocketsphinx with the US English model: offline, about a quarter of real time here.
 * It has no prompt, so the dictionary is applied afterwards (postProcess).
 */
export function createPocketsphinxTranscriber(searchPath: string): Transcriber {
  const program = findExecutable(PROGRAM, searchPath);
  if (!program) {
    throw new TranscriberUnavailableError(`${PROGRAM} is not on PATH: install the pocketsphinx and pocketsphinx-en-us packages`);
  }
  const supports = (language: string) => primaryLanguage(language) === 'en';
  return {
    name: 'pocketsphinx',
    supports,
    async transcribe(wavPath, opts) {
      if (!supports(opts.language)) {
        throw new TranscriptionError(`pocketsphinx transcribes only English (en), not "${opts.language}"`);
      }
      const { duration } = await readWavInfo(wavPath);
      const words: TimedWord[] = [];
      const report = progressReporter(opts.onProgress);
      await runTool(program, ['-infile', wavPath, '-time', 'yes', '-logfn', '/dev/null'], {
        signal: opts.signal,
        onStdoutLine(line) {
          const w = parsePocketsphinxLine(line);
          if (!w) return;
          words.push(w);
          // results come an utterance at a time; how far the last one reached is the progress
          if (duration > 0) report(w.endTime / duration);
        },
      });
      opts.onProgress?.(1);
      return words.sort((a, b) => a.startTime - b.startTime);
    },
  };
}
