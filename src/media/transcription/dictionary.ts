/**
 * Custom vocabulary (a project's `dictionary`): spellings the engines do not know, applied to
 * a transcript after the fact, and offered to the engines that take a prompt.
 */

/** Letters and digits only, lower case: what two spellings must share to be the same word. */
export const letterKey = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Leading punctuation, the word, trailing punctuation ("(Hello," gives "(", "Hello", ","). */
export function splitPunctuation(text: string): { lead: string; core: string; trail: string } {
  const m = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/su.exec(text);
  return m ? { lead: m[1] ?? '', core: m[2] ?? '', trail: m[3] ?? '' } : { lead: '', core: text, trail: '' };
}

/**
 * How many edits a heard word may be from a dictionary entry and still be taken for it:
 * one for entries of four or five letters, two beyond. Entries of three letters or fewer
 * must match exactly: one edit from "Zap" is "map", "cap", "zip", "zag", ... too many real words.
 */
export function allowedEdits(entryKeyLength: number): number {
  if (entryKeyLength <= 3) return 0;
  if (entryKeyLength <= 5) return 1;
  return 2;
}

/** Levenshtein distance, giving up (returning max + 1) as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

export interface DictionaryEntry {
  spelling: string;
  key: string;
}

/** Trimmed, non-empty, one entry per letter key (the first spelling wins). */
export function dictionaryEntries(dictionary: readonly string[] | undefined): DictionaryEntry[] {
  const seen = new Set<string>();
  const out: DictionaryEntry[] = [];
  for (const raw of dictionary ?? []) {
    const spelling = raw.trim().replace(/\s+/g, ' ');
    const key = letterKey(spelling);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push({ spelling, key });
  }
  return out;
}

/** The dictionary entry a heard word stands for, if any: same letters, else the closest within allowedEdits. */
export function matchEntry(heard: string, entries: readonly DictionaryEntry[]): DictionaryEntry | undefined {
  const key = letterKey(heard);
  if (!key) return undefined;
  let best: DictionaryEntry | undefined;
  let bestDistance = Infinity;
  for (const e of entries) {
    const max = allowedEdits(e.key.length);
    const d = e.key === key ? 0 : editDistance(key, e.key, max);
    if (d <= max && d < bestDistance) {
      best = e;
      bestDistance = d;
      if (d === 0) break;
    }
  }
  return best;
}

/**
 * A prompt that makes Whisper-family engines prefer the dictionary's spellings. Whisper reads
 * at most 224 prompt tokens, about 800 characters of names.
 */
export function dictionaryPrompt(dictionary: readonly string[] | undefined, maxChars = 800): string | undefined {
  let prompt = '';
  for (const { spelling } of dictionaryEntries(dictionary)) {
    const next = prompt ? `${prompt}, ${spelling}` : spelling;
    if (next.length > maxChars) break;
    prompt = next;
  }
  return prompt || undefined;
}
