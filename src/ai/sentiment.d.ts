/** The parts of the `sentiment` package (AFINN-165 word scores) the clip scorer uses; it ships no types. */
declare module 'sentiment' {
  interface SentimentResult {
    score: number;
    comparative: number;
    /** one `{ word: score }` per scored word, negation applied */
    calculation: Array<Record<string, number>>;
    tokens: string[];
    words: string[];
    positive: string[];
    negative: string[];
  }
  class Sentiment {
    analyze(phrase: string, options?: { language?: string; extras?: Record<string, number> }): SentimentResult;
  }
  export = Sentiment;
}
