import path from 'node:path';
import { readWavInfo } from '../wav.js';
import { TranscriberUnavailableError, TranscriptionError } from './errors.js';
import { primaryLanguage } from './languages.js';
import { decoderVocabulary } from './pocketsphinx-dictionary.js';
import { findExecutable, ProgramError, runProgram } from '../program.js';
import { progressReporter } from './progress.js';
import type { TimedWord } from '../transcript.js';
import type { Transcriber } from './types.js';

export const PROGRAM = 'pocketsphinx_continuous';

/**
 * Decoder settings beyond the model's defaults, measured with `npm run bench -- transcription`
 * (LibriVox tuning set clip by clip and joined, cards/goforward/tidigits check set, the
 * tuning set with pink noise at 20 and 10 dB SNR):
 * - `-remove_noise no`: the engine's spectral noise subtraction eats into clean close-mic
 *   speech; off, the tuning set went from 36.6 % to 29.6 % word errors clip by clip (31.0 %
 *   to 23.9 % joined), the check set from 33.3 % to 36.7 % (one word of 30). With noise at
 *   20 dB SNR it makes no difference (45.1 % either way with the weights below); at 10 dB
 *   both fail (85.9 % with it, 94.4 % without).
 * - `-fwdflatlw 7.5 -bestpathlw 8.5` (defaults 8.5 and 9.5): the language model weighs less
 *   in the second and third passes, so the sound decides more: joined 23.9 % to 19.7 %.
 *   7 / 8 and 8.5 / 9.5 were worse clip by clip (29.6 %), 6 / 7 worse still (36.6 %).
 * - `-lw 6` (default 6.5) in the first pass, with the two above: clip by clip 29.6 % to
 *   21.1 %, joined and the check set unchanged; 5 and 5.5 gave the same as 6.
 * - `-maxwpf 10` (default: no limit): at most ten distinct words may end in a frame. The
 *   same words on every set (tuning, joined, check, 20 dB noise) and on the load bench's
 *   talk, in 7 % fewer instructions (valgrind, 1 December); 5 gave the same words in 9 %
 *   fewer, 3 lost words in noise (20 dB: 45.1 % to 47.9 %), so 10 keeps a margin.
 * - `-topn` (default 4), for less CPU (1 December, 49 s of the tuning set, three runs): 2 took
 *   20 % less CPU but clip by clip 21.1 % to 32.4 % word errors (joined 19.7 % to 26.8 %); 3
 *   took the same CPU with more errors (26.8 %). Left at 4.
 * Tried and left at their defaults (little or no gain on the tuning set, or a loss): wider -beam,
 * -wbeam, -pbeam and -maxhmmpf -1 (same words, twice the time), -lw 7, 8 and 10 (worse),
 * -wip 0.2, 0.5 and 0.9, -pip 0.5, -topn 8, -silprob 0.05 and 0.1, -fillprob 1e-4,
 * -vad_threshold 1.5 and 3, -vad_prespeech/-vad_postspeech 40/80, -remove_silence no,
 * -fwdflat no and -bestpath no (worse), -cmninit set to the speech's own cepstral mean (no
 * change: the model's batch CMN already takes each utterance's own); and preparing the sound
 * before decoding: half a second of silence around the speech, highpass 80 Hz + lowpass
 * 7 kHz, dynaudnorm, loudnorm: no better than without, loudnorm worse.
 */
const DECODER_SETTINGS = ['-remove_noise', 'no', '-lw', '6', '-fwdflatlw', '7.5', '-bestpathlw', '8.5', '-maxwpf', '10'];

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
 * The dictionary's words join the decoder's vocabulary (pocketsphinx-dictionary.ts); their
 * spellings are applied again afterwards (postProcess) to what it still mishears.
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
      const vocabulary = await decoderVocabulary(opts.dictionary, { searchPath, workDir: path.dirname(wavPath), signal: opts.signal });
      await runProgram(program, ['-infile', wavPath, '-time', 'yes', '-logfn', '/dev/null', ...DECODER_SETTINGS, ...(vocabulary?.args ?? [])], {
        signal: opts.signal,
        stdout(line) {
          const w = parsePocketsphinxLine(line);
          if (!w) return;
          if (vocabulary) w.text = vocabulary.spell(w.text);
          words.push(w);
          // results come an utterance at a time; how far the last one reached is the progress
          if (duration > 0) report(w.endTime / duration);
        },
      })
        .catch((e: unknown) => {
          // the engine's failure, in the program's words
          throw e instanceof ProgramError ? new TranscriptionError(e.message, { cause: e }) : e;
        })
        .finally(() => vocabulary?.dispose());
      opts.onProgress?.(1);
      return words.sort((a, b) => a.startTime - b.startTime);
    },
  };
}
