/**
 * Why a clip scored as it did, in two to four short sentences a creator
 * reads beside its scores (`viralityReasons`). Each sentence states a feature
 * the offline scorer measured in that clip (src/ai/clip-scoring.ts,
 * WindowFacts), quoting its words or its numbers: the strongest drivers
 * first, by the weight the scores give them. A clip with fewer than two
 * features worth naming gets what holds it back, then plain facts of its
 * shape; never a sentence that would fit any clip.
 */
import { SCORING_RULES, type WindowFacts } from './clip-scoring.js';

/** A clip has this many reasons. */
export const REASONS = { min: 2, max: 4 } as const;

/** What the reasons say of the topic: the topic and the words of it the clip says. */
export interface TopicFacts {
  topic: string;
  /** the topic's words (and related words) the clip says, most telling first */
  said: string[];
  /** 0-1 */
  match: number;
}

/** A topic match at least this strong makes the clip "about" the topic. */
export const ABOUT_TOPIC = 0.35;

const W = SCORING_RULES.weights;
const H = SCORING_RULES.hook.weights;
const S = SCORING_RULES.shareability.weights;
const T = SCORING_RULES.story.weights;
const E = SCORING_RULES.emotion.weights;

/** A quotation of at most `words` words, with an ellipsis when cut. */
function quote(text: string, words = 8): string {
  const all = text.trim().split(/\s+/);
  const cut = all.slice(0, words).join(' ');
  return `“${all.length > words ? `${cut.replace(/[,;:.!?]+$/, '')}…` : cut}”`;
}

/** 0:12 */
const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
const db = (x: number) => `${Math.round(x)} dB`;

interface Reason {
  text: string;
  /** the part of the total score this feature moves */
  weight: number;
}

/** The clip's reasons: two to four sentences, strongest first (the topic's first when the clip is about it). */
export function reasonsFor(facts: WindowFacts, topic?: TopicFacts | null): string[] {
  const out: Reason[] = [];
  const add = (weight: number, text: string) => out.push({ text, weight });
  const { hook, voice } = facts;

  if (hook.question) add(W.hook_strength * H.question, `Opens with a question: ${quote(hook.question)}`);
  if (hook.number) add(W.hook_strength * H.number, `Names a number in the first ${SCORING_RULES.hook.seconds} seconds (“${hook.number}”)`);
  if (hook.directAddress) add(W.hook_strength * H.directAddress, 'Speaks to the viewer as “you” from its first line');
  if (hook.claim) add(W.hook_strength * H.strongClaim, `Opens on a strong claim (“${hook.claim}”)`);
  if (voice?.hookAboveMedian != null && voice.hookAboveMedian >= 2) {
    add(
      W.hook_strength * H.voiceEnergy * Math.min(1, voice.hookAboveMedian / 6),
      `The voice opens ${db(voice.hookAboveMedian)} above the speaker's usual level`,
    );
  }
  // a peak in the opening second is the hook's energy, said above
  if (voice?.peak && voice.peak.aboveMedian >= 4 && voice.peak.at - facts.start >= 1) {
    add(W.emotional_impact * E.loudnessVariation * Math.min(1, voice.peak.aboveMedian / 8), `The voice rises at ${clock(voice.peak.at - facts.start)}`);
  }
  if (facts.completeSentences >= 3 && facts.contrast) {
    add(W.story_quality * (T.sentences + T.connectives), `A complete story with a turn (“${facts.contrast}”) in ${facts.completeSentences} full sentences`);
  } else if (facts.completeSentences >= SCORING_RULES.story.sentencesForFull) {
    add(W.story_quality * T.sentences, `Tells a complete story in ${facts.completeSentences} full sentences`);
  }
  if (facts.selfContainedStart && facts.completeEnd) {
    add(W.shareability * (S.selfContainedStart + S.completeEnd) * 0.6, 'Stands on its own: it needs nothing said before it and ends on a full sentence');
  }
  if (facts.names.length) add(W.shareability * S.entities, `Names ${list(facts.names.slice(0, 2).map((n) => `“${n}”`))}`);
  if (facts.feelings.length >= 2) {
    add(
      W.emotional_impact * E.lexicon * Math.min(1, facts.feelings.length / 4),
      `Words of strong feeling: ${list(facts.feelings.slice(0, 3).map((f) => `“${f}”`))}`,
    );
  }
  if (facts.exclamations >= 1) add(W.emotional_impact * E.exclamations, `Exclaims ${facts.exclamations === 1 ? 'once' : `${facts.exclamations} times`}`);
  const lively = SCORING_RULES.emotion.pitchStdSemitones;
  if (voice?.pitchStd != null && voice.pitchStd >= (lively.flat + lively.lively) / 2) {
    add(W.emotional_impact * E.pitchVariation, `A lively voice: its pitch moves ${voice.pitchStd.toFixed(1)} semitones around its middle`);
  }

  const ranked = out.sort((a, b) => b.weight - a.weight).map((r) => r.text);
  if (topic && topic.match >= ABOUT_TOPIC && topic.said.length) {
    ranked.unshift(`About “${topic.topic}”: says ${list(topic.said.slice(0, 3).map((w) => `“${w}”`))}`);
  }
  if (ranked.length < REASONS.min) ranked.push(...holdingBack(facts));
  if (ranked.length < REASONS.min) ranked.push(...shape(facts));
  return [...new Set(ranked)].slice(0, REASONS.max);
}

/** What keeps a clip's scores down, in its own words. */
function holdingBack(facts: WindowFacts): string[] {
  const out: string[] = [];
  const { hook } = facts;
  if (!hook.question && !hook.number && !hook.claim && !hook.directAddress)
    out.push('Its first seconds hold no question, number, claim or “you” to stop a scroll');
  if (facts.isEnglish && !facts.selfContainedStart) out.push('Starts on a word that leans on what came before it');
  if (!facts.completeEnd) out.push('Ends before its last sentence is complete');
  return out;
}

/** The clip's shape: true of this clip, in its numbers. */
function shape(facts: WindowFacts): string[] {
  const seconds = Math.round(facts.end - facts.start);
  return [
    `Lasts ${seconds} s in ${facts.sentences} sentence${facts.sentences === 1 ? '' : 's'}`,
    facts.completeEnd ? 'Ends on a complete sentence' : `Holds ${facts.completeSentences} complete sentence${facts.completeSentences === 1 ? '' : 's'}`,
  ];
}
