/**
 * Decision probes: a choice the assistant stated between alternatives, from its own prose (text
 * blocks, not thinking, code blocks skipped), one per distinct sentence.
 *
 * A sentence is a decision when it names the alternative it turned down or states a choice:
 * - "instead of" / "rather than" / "in favor of", together with a first-person or volitional
 *   marker (I'll, let's, we should, I should, switch to, go with, decided, prefer…); a bare
 *   "instead of using" is a diagnosis ("it falls back to X instead of using Y"), not a choice;
 * - "I chose / picked / opted for / decided / settled on", "let's / I'll go with", "I prefer X over Y";
 * - "option B is better", "option 2 is cleanest / makes more sense", "X is better / cleaner / simpler
 *   than / because…", "the better approach", "best solution: …";
 * - "it should use X instead", "I can reuse the existing …", "we don't need X at all", "restore X
 *   while keeping Y", "we should add / use / move / remove …" (a recommendation between doing and not);
 * - "X should only do Y, not Z", "X should be in Y (…, not Z)", "I'm thinking leave it", "No need for X",
 *   "the biggest win would be #1", "Recommendation: option A" (not "I recommend contacting support"), "we just want to:", "better UX would
 *   be:", "Remove X - flush on Y instead"; a sentence ending with a colon takes the next two (the
 *   list it introduces) as its content;
 *   "I'll be able to help with X while keeping Y" offers help and chooses nothing.
 * Narration of the next step ("I'll examine the pending changes", "Let me read the file", "Now
 * I'll run the tests") names no alternative and is not a decision; questions never are.
 * Needles: the sentence's content words (markers dropped), most salient first, at most 4, as one group.
 */
import type { Entry } from '../journal/entry.ts';
import { makeProbe } from './make.ts';
import { contentNeedles, needleSource, normalizeForMatch } from './normalize.ts';
import { assistantText, isQuestion, sentences, withoutCode } from './sources.ts';
import type { Probe } from './types.ts';

const ALTERNATIVE = /\b(?:instead of|rather than|in favou?r of)\b/;
const VOLITION = /\b(?:i'll|i will|i'm going to|i am going to|let's|let us|let me|we'll|we will|we should|i should|we can|i can|i'd|i would|i've decided|i decided|decided to|i chose|i'm choosing|i opted|switch(?:ed|ing)? to|go with|going with|better to|prefer)\b/;
const CHOICE: RegExp[] = [
  /\b(?:i|we)(?:'ve| have)? (?:chose|chosen|picked|opted for|selected|decided|settled on)\b/,
  /\b(?:let's|let us|i'll|we'll|i will|we will|i'd|i'm|we're) (?:go|going) with\b/,
  /\b(?:i|we) (?:prefer|choose)\b.*\b(?:over|to|instead)\b/,
  /\boption [a-z0-9]\b.*\b(?:is|seems|looks) (?:better|best|preferable|the way to go|the right)/,
  /\b(?:is|would be|seems|looks) (?:much |far |a lot |clearly )?(?:better|cleaner|simpler|safer|preferable) (?:than|because|here|choice|option|approach)\b/,
  /\bthe (?:better|best|right|simplest|cleanest) (?:approach|option|choice|solution|fix) (?:is|would be|here is)\b/,
  /\b(?:decided to|the decision is|my decision)\b/,
  /\boption \w+ (?:is|seems|looks|makes|would be)\b[^.]*\b(?:cleanest|clean|best|better|simpl\w*|sense|prefer\w*|right)\b/,
  /\b(?:best|better|cleanest|simplest|proper) (?:solution|approach|option|fix)\b/,
  /\b(?:should|will|'ll|let's) (?:use|switch to|go with)\b.*\binstead\b/,
  /\b(?:can|could|will|'ll|should|let's|let me)(?: just)?(?: have)?(?: just)? reus(?:e|ed|ing) (?:the |an |our |this )?existing\b/,
  /\b(?:we|i) (?:don't|do not) need\b[^.]*\bat all\b/,
  /\b(?:need to|should|will|'ll|let's) (?!be\b|help\b|assist\b)\w+ [^.]*\bwhile keeping\b/,
  /\b(?:we|i) should (?:add|use|move|keep|remove|drop|switch|put|replace|split|merge|reuse)\b/,
  /\bshould only \w+[^.]*, not\b/,
  /\bshould (?:be|go|live|stay)\b[^.]*\bnot\b/,
  /\b(?:i'm|i am) thinking (?:we |i )?(?:should |could )?(?:just )?(?:leave|keep|use|go|move|put|stay|drop|remove|add)\b/,
  /^no need (?:for|to)\b/,
  /\bthe (?:biggest|best|easiest|simplest|quickest|cleanest) (?:win|option|fix|approach|choice) (?:would be|is)\b/,
  /^(?:my )?recommendation\b/,
  /^(?:we|i) (?:just|only) (?:want|need) to\b/,
  /^(?:a )?better (?:ux|design|approach|option|way|solution|idea|fix) (?:would be|is)\b/,
  /^(?:remove|use|flush|call|move|put|return|store|keep|add|switch|pass|load|save|show|emit|run|read|write)\b[^.]*\binstead[.!]?$/,
];

const MARKERS = new Set(['instead', 'rather', 'favor', 'favour', 'chose', 'chosen', 'choose', 'picked', 'opted', 'selected', 'decided', 'decision', 'settled', 'prefer', 'better', 'cleaner', 'simpler', 'safer', 'preferable', 'best', 'option', 'approach', 'absolutely', 'right', 'correct', 'just', 'actually', 'simply', 'much']);

/** Whether a sentence of the assistant states a choice (see the module comment). */
export function isDecision(sentence: string): boolean {
  if (isQuestion(sentence) || sentence.length > 400) return false;
  const lower = sentence.toLowerCase().replace(/[’‘]/g, "'");
  if (ALTERNATIVE.test(lower) && VOLITION.test(lower)) return true;
  return CHOICE.some((pattern) => pattern.test(lower));
}

/** Decision probes of the entries (see the module comment). */
export function decisionProbes(entries: readonly Entry[]): Probe[] {
  const probes: Probe[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const text = assistantText(entry);
    if (text === undefined) return;
    const parts = sentences(withoutCode(text));
    parts.forEach((said, at) => {
      if (!isDecision(said)) return;
      // "Better UX would be:" introduces the choice: the next two sentences are its content.
      const sentence = /:\s*$/.test(said) ? [said, ...parts.slice(at + 1, at + 3)].join(' ') : said;
      const key = normalizeForMatch(sentence);
      if (seen.has(key)) return;
      const needles = contentNeedles(needleSource(key), 4, MARKERS);
      if (needles.length === 0) return;
      seen.add(key);
      probes.push(makeProbe('decision', 'choice', sentence, { entry, index }, [needles]));
    });
  });
  return probes;
}
