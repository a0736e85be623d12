/**
 * Which sentences of a message state something a summary must keep: the user's constraints (an
 * explicit instruction or prohibition: "Don't touch the tests", "Always …", "Only …", "You must …",
 * 不要 / 必须 …) and the assistant's decisions (a stated choice between alternatives: "use X instead
 * of Y", "chose X over Y", "decided to … because …"). A keyword alone is not enough: "I don't know
 * why", a question, or "Let me read the file" states neither.
 */

/** Longest sentence taken as a constraint or decision, characters (longer ones are pasted content). */
export const MAX_SENTENCE_CHARS = 500;

/**
 * Sentences of prose: fenced code is removed first (pasted code is not a statement), then the text
 * is split at line breaks and at sentence ends (., !, ?, 。, ！, ？, ；). List markers are dropped.
 */
export function splitSentences(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?(```|$)/g, '\n');
  const out: string[] = [];
  for (const line of prose.split(/\n+/)) {
    for (const part of line.split(/(?<=[.!?])\s+(?=[^\s])|(?<=[。！？；])/u)) {
      const sentence = part.replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '').trim();
      if (sentence) out.push(sentence);
    }
  }
  return out;
}

function straightQuotes(text: string): string {
  return text.replace(/[’‘]/g, "'");
}

/** Words that may open a clause before the instruction itself ("Please, don't …", "ok so never …"). */
const LEAD = /^(?:(?:please|pls|and|also|but|so|then|just|oh|ok|okay|alright|all right|actually|important|note|btw|hey|yeah|yes|well|now|again|dude|wait|hmm+|ah|omfg|ugh)\b[\s,:!.-]*)+/i;
/** How an English instruction or prohibition opens. */
const RULE_EN = new RegExp(`^(?:${[
  "do(?:n'?t| not)\\b", 'never\\b', 'always\\b', 'make sure\\b', 'be sure to\\b', 'ensure\\b', 'avoid\\b', 'refrain from\\b',
  'no need to\\b', 'no more\\b', 'remember to\\b', 'under no circumstances\\b', 'prefer\\b',
  'stop \\w+ing\\b', 'keep\\b(?! going\\b| it up\\b| at it\\b| on\\b| up\\b)',
  'only (?!if\\b|when\\b|one\\b|a\\b|an\\b|the\\b|after\\b|before\\b|because\\b|for\\b|in\\b|on\\b|that\\b|this\\b|then\\b|once\\b|to\\b|\\d)',
  "(?:you|we) (?:must|mustn't|must not|shall|shall not|should never|should always|shouldn't|should not|may not|are not allowed to|aren't allowed to|can't|cannot|always|never|only)\\b",
].map((pattern) => `(?:${pattern})`).join('|')})`, 'i');
/** "use X instead of Y" / "use X, not Y": a preference stated as an instruction. */
const USE_INSTEAD = /^use\b.*(?:\b(?:instead of|rather than)\b|,\s*(?:not|no)\b)/i;
/** How a Chinese instruction or prohibition opens (after optional 请 / 你 / 注意 …). */
const RULE_ZH = /^(?:请|你|您|我们|也|并且|而且|但是|但|另外|注意|记住|一定)*(?:不要|别|必须|禁止|务必|不能|不可以|不可|不得|只能|只用|只允许|只修改|只改|仅|始终|总是|一定要|不允许|切勿|勿|确保|保持|避免|永远不要|千万不要)/u;
/** A first clause that only sets the scene ("If it fails, don't retry"): the constraint is the whole sentence. */
const CONDITION = /^(?:if|when|whenever|unless|before|after|while|once|in|for|on|during|for now)\b/i;

/** Offsets where the clauses of a sentence start (after a comma, semicolon, colon or dash). */
function clauseStarts(sentence: string): number[] {
  const starts = [0];
  for (const match of sentence.matchAll(/[,;:]\s+|\s[-–—]\s+|[，；：]/gu)) starts.push((match.index ?? 0) + match[0].length);
  return starts;
}

function isRule(clause: string): boolean {
  const text = straightQuotes(clause).replace(LEAD, '');
  return RULE_EN.test(text) || USE_INSTEAD.test(text) || RULE_ZH.test(text);
}

/**
 * The user's instructions and prohibitions in `text`, verbatim: a sentence whose clause opens with
 * one (from that clause on, or the whole sentence when an earlier clause is a condition). Questions
 * are never constraints.
 */
export function extractConstraints(text: string): string[] {
  const out: string[] = [];
  for (const sentence of splitSentences(text)) {
    if (sentence.length < 4 || sentence.length > MAX_SENTENCE_CHARS || /[?？]\s*$/.test(sentence)) continue;
    const start = clauseStarts(sentence).find((at) => isRule(sentence.slice(at)));
    if (start === undefined) continue;
    out.push(start === 0 || CONDITION.test(straightQuotes(sentence).replace(LEAD, '')) ? sentence : sentence.slice(start));
  }
  return out;
}

/** The speaker's own intent ("I'll", "I should", "let's", "the better approach is to") opening a sentence. */
const INTENT = /^(?:(?:so|now|ok|okay|instead|then|here|actually|alright|first)[,\s]+)*(?:i'll|i will|i'm going to|i am going to|i'd|i would|i should|i need to|i can|i could|let me|let's|we'll|we will|we should|we need to|we can|we could|(?:it's |it is |it would be )?(?:better|best|simpler|cleaner|safer) to|the (?:best|better|simplest|cleanest|right|safer|safest) (?:approach|option|fix|way|choice) (?:is|would be|here is) to)\b/i;
/** An explicit decision, made or being made. */
const DECIDED = /\b(?:(?:i|we)(?:'ve| have)? (?:decided|chose|opted|settled on|went with)|(?:i'm|i am|we're|we are|i'll|we'll|i will|we will) (?:go with|going with|opting for|opt for|choosing|sticking with|stick with|switching to|switch to))\b/i;
/** Alternatives named ("instead of Y", "rather than Y"). */
const ALTERNATIVE = /\b(?:instead of|rather than)\b/i;
/** A choice verb with its reason ("use a map because …"). */
const CHOICE_WITH_REASON = /\b(?:use|go with|switch to|stick with|keep|adopt|pick|choose|prefer|rely on|replace|store|represent)\b.*\b(?:because|since|so that|to avoid|as it|as they)\b/i;
/** "chose X over Y", "prefer X over Y". */
const OVER = /\b(?:chose|choose|choosing|prefer|preferred|picked|pick|favou?r)\b.*\bover\b/i;
/** A verdict on options laid out before: "option 2 is cleanest", "option 2 makes more sense", "**Best solution**: …". */
const VERDICT = /\b(?:option|approach|alternative) (?:\d+|[a-c]|one|two|three)\b.{0,20}\b(?:is|seems|makes|would be)\b.{0,20}\b(?:cleanest|best|simplest|better|safest|right|sense|way to go|preferable)\b|^\**(?:the )?(?:best|simplest|cleanest|better|right) (?:solution|approach|option|fix|way)\**\s*:/i;
/** Reuse over writing anew, one thing kept while another changes, one of two ways. */
const CHOICE = /\b(?:re-?use|while keeping|either\b.*\bor)\b/i;
/** A choice made and stated as such: "X should use Y instead", "we're using X instead of Y", "we don't need X at all". */
const STATED_CHOICE = /\bshould (?:use|be|stay|keep|call|catch|return|handle)\b.*\binstead\b|\b(?:we're|we are|i'm|i am|now) (?:now )?us(?:ing|es)\b.*\binstead of\b|^(?:we|i) (?:don't|do not) need\b.*\bat all\b|^if (?:we|you) want to\b.*,\s*(?:we|you) should\b/i;

/**
 * A choice put as a design statement or a recommendation: "X should only do Y, not Z", "X should be
 * in Y (…, not Z)", "I'm thinking leave it", "No need for X", "the biggest win would be #1",
 * "Recommendation: option A", "we just want to:", "better UX would be:", "Remove X - flush on Y
 * instead".
 */
const DESIGN_CHOICE = new RegExp(
  [
    /\bshould only \w+[^.]*, not\b/,
    /\bshould (?:be|go|live|stay)\b[^.]*\bnot\b/,
    /^(?:i'm|i am) thinking (?:we |i )?(?:should |could )?(?:just )?(?:leave|keep|use|go|move|put|stay|drop|remove|add)\b/,
    /^no need (?:for|to)\b/,
    /\bthe (?:biggest|best|easiest|simplest|quickest|cleanest) (?:win|option|fix|approach|choice) (?:would be|is)\b/,
    /^\**(?:my )?recommendation\**\s*:/,
    /^(?:we|i) (?:just|only) (?:want|need) to\b/,
    /^(?:a )?better (?:ux|design|approach|option|way|solution|idea|fix) (?:would be|is)\b/,
    /^(?:remove|use|flush|call|move|put|return|store|keep|add|switch|pass|load|save|show|emit)\b[^.]*\binstead[.!]?$/,
  ]
    .map((pattern) => pattern.source)
    .join('|'),
  'i',
);

/**
 * The assistant's decisions in `text`: sentences of prose stating a choice between alternatives —
 * its intent plus the alternative it rejects, the reason for the choice, a reuse, a thing kept,
 * an explicit "decided / chose / went with", "X over Y", a verdict on options ("option 2 is
 * cleanest", "**Best solution**: …"), or a choice stated as such ("the footer should use dim
 * instead", "we don't need X at all"). Narration ("Let me read the file", "Now I'll run the tests")
 * and diagnosis ("It seems the code falls back to X instead of Y") are not decisions.
 */
export function extractDecisions(text: string): string[] {
  const all = splitSentences(text);
  return all.flatMap((raw, at) => (isDecisionSentence(raw) ? [/:\s*$/.test(raw) ? [raw, ...all.slice(at + 1, at + 3)].join(' ') : raw] : []));
}

/** Whether one sentence states a decision (see `extractDecisions`); one ending with a colon takes the next two as its content. */
function isDecisionSentence(raw: string): boolean {
  if (!/^[\p{L}"'(*`]/u.test(raw) || raw.length < 15 || raw.length > MAX_SENTENCE_CHARS) return false;
  const sentence = straightQuotes(raw);
  if (DESIGN_CHOICE.test(sentence)) return true;
  if (DECIDED.test(sentence) || /^(?:instead of|rather than)\b[^,]{3,},\s*(?:i|we|let)\b/i.test(sentence)) return true;
  if (VERDICT.test(sentence) || STATED_CHOICE.test(sentence.replace(/^(?:(?:so|now|ok|okay|then|actually|perfect|done|great)[!,.]?\s+)+/i, ''))) return true;
  if (!INTENT.test(sentence)) return false;
  return ALTERNATIVE.test(sentence) || /\binstead[.:!]?$/i.test(sentence) || CHOICE_WITH_REASON.test(sentence) || OVER.test(sentence) || CHOICE.test(sentence);
}
