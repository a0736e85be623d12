/**
 * Constraint probes: the user's explicit instructions, prohibitions and steering, one per sentence,
 * from what the user typed in real user messages (see `realUserText`; pasted logs, stack traces,
 * terminal output and diffs are left out by `typedText`).
 *
 * A sentence is a constraint when a keyword governs it, not when it merely contains one:
 * - imperative keywords (don't / do not / never / always / only / avoid / make sure / ensure /
 *   be sure to / remember to / stop) count at the start of a clause, after fillers ("ok",
 *   "please", "and", "also", "so"), or after "you" / "we"; "I don't know why" is not a constraint;
 * - "make sure" / "ensure" also count later in a clause, unless the speaker is the subject ("I
 *   want to make sure") or it is a purpose clause ("to make sure");
 * - modal keywords (must, must not, mustn't, should not, shouldn't, should never, shall not,
 *   may not, is not allowed, are forbidden) count with any subject but "I", and never as an
 *   inference ("it must be a bug", "that must have been"); "need to" / "have to" do not count
 *   (they state the task, not a rule);
 * - Chinese 不要 / 别 / 必须 / 务必 / 禁止 / 不得 / 一定要 / 只能 / 千万 / 切勿 / 不许 / 不准 count
 *   anywhere, 请 only at the start (not 请问);
 * - first-person steering counts anywhere: "I don't want …", "I'd rather", "I prefer", "I'd prefer",
 *   "let's keep / not / avoid", "no need for", "I want to use …", "I'd like to use …", "… without editing files"; so does a clause that
 *   is only a prohibition with an exclamation mark ("no console logs!");
 * - a message with no keyword still steers when it answers a rejected tool call (the reason the user
 *   typed) or corrects the agent ("no, …", "that's not it", "we lost …", "I undid your changes"):
 *   one probe of kind 'steer' for its first sentences;
 * - a sentence ending with a colon ("i actually want you to:") takes the next two sentences (the
 *   list it introduces) as its content;
 * - questions never count on their own; code blocks are skipped. Plain "should" is not a keyword
 *   (too often a description or a wish), except when it rules something out ("this should be a
 *   client-only app with no backend", not said of the speaker).
 * Needles: the content words of the governed clause (stopwords dropped, stemmed), at most 6, as
 * one group; the whole sentence's when the clause has fewer than two (first `NEEDLE_CHARS` only).
 */
import { entryText, type Entry } from '../journal/entry.ts';
import { makeProbe } from './make.ts';
import { contentNeedles, needleSource, normalizeForMatch } from './normalize.ts';
import { isConversation, isQuestion, realUserText, sentences, typedText, withoutCode } from './sources.ts';
import type { Probe } from './types.ts';

const FILLERS = new Set(['ok', 'okay', 'please', 'pls', 'and', 'but', 'also', 'so', 'then', 'now', 'just', 'yeah', 'yes', 'no', 'oh', 'hey', 'btw', 'again', 'remember', 'note', 'alright', 'right', 'well', 'hmm', 'important', 'and also', 'guys', 'dude', 'actually', 'seriously', 'really', 'but', 'thanks', 'first', 'finally', 'in', 'general', 'generally', 'from', 'here', 'on']);

/** First-person steering anywhere in a clause: the speaker's own preference binds later work. */
const STEERING: Array<[RegExp, string]> = [
  [/\b(?:i|we) (?:really |just )?(?:don't|dont|do not|did not|didn't) want\b/, 'never'],
  [/\b(?:i'd|i would|we'd) rather\b/, 'prefer'],
  [/\b(?:i|we)(?: would|'d)? prefer\b/, 'prefer'],
  [/\b(?:let's|lets|let us) (?:keep|not|stick|avoid|leave)\b/, 'prefer'],
  [/\bno need (?:for|to)\b/, 'never'],
  [/\b(?:i|we)(?: want|'d like| would like) to (?:use|keep|stick)\b/, 'prefer'],
  [/\b(?:i|we)(?: would|'d)? only want\b/, 'only'],
  [/\b(?:i|we) (?:actually|really) (?:want|need)\b/, 'prefer'],
  [/\bwithout (?:editing|changing|modifying|touching|deleting|removing|breaking|adding|running|committing|pushing|using)\b/, 'never'],
];

/** A clause that is only a prohibition: "no console logs!" (with its exclamation mark). */
const BARE_NO = /^no (?!problem|worries|idea|clue|way|wonder|doubt|luck|matter|one|thanks)\p{L}/u;

/** Keyword patterns (lowercase, apostrophes normalized to '), with the probe kind. */
const IMPERATIVE: Array<[RegExp, string]> = [
  [/^(?:don't|dont|do not|never ever|never)\b/, 'never'],
  [/^(?:avoid|stop)\b/, 'never'],
  [/^always\b/, 'always'],
  [/^only\b(?! (?:if|when|because|after|before|then|thing|one|way|problem|issue|a|an|the)\b)/, 'only'],
  [/^(?:make sure|ensure|be sure to|remember to|keep in mind)\b/, 'must'],
];

const MODAL: Array<[RegExp, string]> = [
  [/\b(?:must not|mustn't|must never|should not|shouldn't|should never|shall not|may not|cannot ever|is not allowed|are not allowed|is forbidden|are forbidden|is prohibited|never allowed)\b/, 'never'],
  [/\b(?:must|shall)\b/, 'must'],
];

const CJK_KEYWORDS: Array<[RegExp, string]> = [
  [/不要|切勿|禁止|不得|不许|不准|千万别|千万不要|^别/, 'never'],
  [/必须|务必|一定要/, 'must'],
  [/只能|只用|只许/, 'only'],
  [/^请(?!问)/, 'please'],
];

const FIRST_PERSON = /^(?:i|i'm|im|i've|ive|i'd|id|i'll|ill|me|my)$/;
const COMPLEMENTIZER = /^(?:that|which|where|because|since|so|if|when|whether|think|believe|guess|suppose|feel|mean|say)$/;
const GUESS_SUBJECT = /^(?:it|that|this|there|he|she|they|which|what|something|someone)$/;

const GUESS_COMPLEMENT = /^be (?:a|an|the|some|something|because|due|related|caused|that|why|it|from|in|wrong|broken|missing|somewhere|coming)\b|^have been\b|^'ve\b/;

/** "it must be a bug", "that must have been it": an inference, not an instruction. */
function isGuess(after: string, subject: string | undefined): boolean {
  return GUESS_COMPLEMENT.test(after) && (subject === undefined || GUESS_SUBJECT.test(subject));
}

interface Hit {
  kind: string;
  /** The clause the keyword governs (from the keyword to the end of the clause). */
  clause: string;
  keyword: string;
}

/** Splits a sentence into clauses at commas, colons and dashes (keeping each clause's text). */
function clauses(sentence: string): string[] {
  return sentence.split(/\s*(?:,|;|:\s|\s[-–—]\s|\(|\))\s*/).filter((clause) => clause.length > 0);
}

function words(clause: string): string[] {
  return clause
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^\p{L}\p{N}'\s-]/gu, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

/** The keyword governing a sentence, if it is an instruction (see the module comment). */
export function constraintHit(sentence: string): Hit | undefined {
  if (isQuestion(sentence)) return undefined;
  for (const [pattern, kind] of CJK_KEYWORDS) {
    const match = pattern.exec(sentence);
    if (match) return { kind, clause: sentence, keyword: match[0] };
  }
  const exclaimed = /!\s*$/.test(sentence);
  for (const clause of clauses(sentence)) {
    const list = words(clause);
    const lowered = list.join(' ');
    for (const [pattern, kind] of STEERING) {
      const match = pattern.exec(lowered);
      if (match) return { kind, clause, keyword: match[0] };
    }
    if (exclaimed && BARE_NO.test(lowered)) return { kind: 'never', clause, keyword: 'no' };
    const lowerClause = clause.toLowerCase().replace(/[’‘]/g, "'");
    // Imperative: after fillers only, or after "you" / "we" (and "you should").
    let start = 0;
    while (start < list.length && FILLERS.has(list[start]!)) start++;
    const rest = list.slice(start).join(' ');
    for (const [pattern, kind] of IMPERATIVE) {
      const match = pattern.exec(rest) ?? pattern.exec(rest.replace(/^(?:you|we)(?: should| must| will)? /, ''));
      if (match) return { kind, clause, keyword: match[0] };
    }
    // "make sure" later in the clause, unless the speaker is the subject or it is a purpose clause.
    const sure = /\b(?:make sure|ensure)\b/.exec(rest);
    if (sure) {
      const before = rest.slice(0, sure.index).trim().split(' ').filter((word) => word.length > 0);
      const at = lowerClause.search(/\b(?:make sure|ensure)\b/);
      if (!before.some((word) => FIRST_PERSON.test(word)) && before[before.length - 1] !== 'to') return { kind: 'must', clause: clause.slice(Math.max(0, at)), keyword: sure[0] };
    }
    // "This should be a client-only app with no backend": a "should" that rules something out.
    const should = /\bshould (?:be|have|use|work|run|stay|persist|keep)\b[^?]*\b(?:no|without|never)\b/.exec(rest);
    if (should && !rest.slice(0, should.index).split(' ').some((word) => FIRST_PERSON.test(word))) return { kind: 'never', clause, keyword: 'should' };
    // Modal: any subject but the speaker, never as a guess.
    for (const [pattern, kind] of MODAL) {
      const match = pattern.exec(rest);
      if (!match) continue;
      const words = rest.slice(0, match.index).trim().split(' ').filter((word) => word.length > 0);
      // "I think the invariant that every line must not …": the speaker heads the matrix clause, not this one.
      const clauseStart = words.reduce((at, word, i) => (COMPLEMENTIZER.test(word) ? i + 1 : at), 0);
      const before = words.slice(clauseStart);
      const subject = before[before.length - 1];
      if (before.some((word) => FIRST_PERSON.test(word))) continue;
      const after = rest.slice(match.index + match[0].length).trim();
      if ((match[0] === 'must' || match[0] === 'shall') && isGuess(after, subject)) continue;
      return { kind, clause, keyword: match[0] };
    }
  }
  return undefined;
}

/**
 * A message that corrects the agent: it opens with "no," / "nope" / "wrong" / "that's not …" /
 * "slight steering:", or its first sentences say the agent broke or lost something ("we lost …",
 * "you broke …", "I undid your changes") or protest ("this doesn't look right", "you idiot").
 */
const CORRECTION_START = /^(?:(?:oh|ok|okay|hm+|well|ugh|dude|my dude),?\s+)*(?:(?:slight |small |quick |some )?steering\b|no(?:pe)?\b(?=[,.!:;]|\s+(?:that|this|it|not|the|we|you|i|dont|don't|do)\b)|wrong\b|that'?s not\b|that is not\b|not like that\b|not what i\b)/;
const CORRECTION_ANYWHERE = /\b(?:you idiot|(?:doesn't|does not|don't|do not) look right|we lost|you broke|you (?:\w+ )?(?:messed|screwed|fucked)\b[^.!?]{0,40}\bup|i (?:undid|reverted|rolled back) your|you (?:removed|deleted|dropped) (?:the|my|our)|that broke)\b/;

function isCorrection(typed: string): boolean {
  const head = typed.toLowerCase().replace(/[’‘]/g, "'").slice(0, 300);
  return CORRECTION_START.test(head) || CORRECTION_ANYWHERE.test(head.slice(0, 200));
}

/** A tool result saying the user rejected the call (not an interruption or an abort: those give no reason). */
const REJECTION = /^(?:The user doesn't want to (?:proceed with this tool use|take this action)|User rejected|The user rejected|Tool use was rejected|Permission to use \S+ (?:was )?denied)/;

/** Whether the user message at `index` answers a rejected tool call (injected markers in between skipped). */
function followsRejection(entries: readonly Entry[], index: number): boolean {
  for (let i = index - 1; i >= 0 && i >= index - 4; i--) {
    const entry = entries[i]!;
    if (entry.flags?.injected === true || entry.flags?.synthetic === true || (entry.role === 'user' && isConversation(entry) && realUserText(entry) === undefined && !entry.blocks.some((block) => block.type === 'tool_result'))) continue;
    if (entry.role === 'tool' || entry.blocks.some((block) => block.type === 'tool_result')) return REJECTION.test(entryText(entry).trimStart());
    return false;
  }
  return false;
}

/**
 * Constraint probes of real user messages (see the module comment), one per distinct sentence of
 * what the user typed (pasted logs, stack traces and diffs left out). A message that steers without
 * a keyword (the reason typed right after refusing a tool call, or a correction) gives one probe
 * for its first sentences, kind 'steer'.
 */
export function constraintProbes(entries: readonly Entry[]): Probe[] {
  const probes: Probe[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const text = realUserText(entry);
    if (text === undefined) return;
    const typed = typedText(withoutCode(text));
    let found = false;
    const parts = sentences(typed);
    parts.forEach((said, at) => {
      const hit = constraintHit(said);
      if (!hit) return;
      // "i actually want you to:" introduces what follows: the next two sentences are its content.
      const sentence = /:\s*$/.test(said) ? [said, ...parts.slice(at + 1, at + 3)].join(' ') : said;
      const key = normalizeForMatch(sentence);
      if (seen.has(key)) return;
      const drop = new Set(normalizeForMatch(hit.keyword).split(' '));
      let needles = contentNeedles(needleSource(normalizeForMatch(hit.clause)), 6, drop);
      // "…, that should never happen": the clause alone says too little; take the whole sentence.
      if (needles.length < 2) needles = contentNeedles(needleSource(normalizeForMatch(sentence)), 6, drop);
      if (needles.length === 0) return;
      seen.add(key);
      found = true;
      probes.push(makeProbe('constraint', hit.kind, sentence, { entry, index }, [needles]));
    });
    if (found || !(followsRejection(entries, index) || isCorrection(typed))) return;
    const head = sentences(typed).slice(0, 3).join(' ');
    const needles = contentNeedles(needleSource(normalizeForMatch(head)), 6);
    if (needles.length === 0 || seen.has(normalizeForMatch(head))) return;
    seen.add(normalizeForMatch(head));
    probes.push(makeProbe('constraint', 'steer', head, { entry, index }, [needles]));
  });
  return probes;
}
