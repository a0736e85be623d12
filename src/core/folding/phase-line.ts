/**
 * The words of an offline (no model) block index: a short goal from the user's request, the block
 * title, and the line that says what the block did — "Fix the login bug: read 3 files (a.ts, b.ts,
 * c.ts), edited auth.ts, ran `npm test` (2 failures, then passing)". That line is the L2 summary's
 * first sentence and the whole L4 phase line. Built from the mergeable facts (DigestBasis) only, so
 * a merged digest says the same as a digest of all its entries.
 */
import { clipWords, oneLine, splitSentences } from '../summarize/extract.ts';
import { commandKey } from '../summarize/extract.ts';
import type { DigestBasis } from './types.ts';

/** Longest goal and title, characters (the seed: a 5-8 word chapter title). */
export const TITLE_MAX_CHARS = 60;
/** Longest phase line, characters. */
export const PHASE_MAX_CHARS = 240;
/** File names and commands a phase line names before it counts the rest. */
const NAMED_FILES = 3;
const NAMED_COMMANDS = 2;
const COMMAND_CHARS = 64;

/** Openers that say nothing about the goal: greetings, fillers, politeness. */
const FILLER = /^(?:(?:hey|hi|hello)(?:\s+(?:claude|codex|pi|there|again))?|ok(?:ay)?|alright|all right|so|well|now|right|thanks|thank you|cool|great|nice|please|pls|h+m+|u+m+|oh|ah|yeah|yep|yes|actually|wait|(?:my )?dude|btw)\b[\s,!.:;-]*/i;
/** A pasted path or screenshot in quotes before the words ('/tmp/Screenshot 1.png' why is …). */
const LEADING_PATH = /^(?:'[/~][^']*'|"[/~][^"]*"|[/~]\S*\/\S*)\s+(?=\S)/;
/** A polite request wrapper ("can you please …?") around an imperative. */
const ASK = /^(?:can|could|would|will) you(?: please)?\s+|^(?:i'd like you to|i want you to|i need you to)\s+/i;

export function basename(path: string): string {
  const parts = path.replace(/[\\/]+$/, '').split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The user's goal in a few words: the first sentence that says something (greetings and "can you
 * please" dropped), capitalized, cut at a word boundary to `max` characters.
 */
export function goalPhrase(request: string, max = TITLE_MAX_CHARS): string {
  for (const sentence of splitSentences(request)) {
    let text = oneLine(sentence);
    for (let previous = ''; previous !== text;) {
      previous = text;
      text = text.replace(FILLER, '').replace(LEADING_PATH, '');
    }
    const asked = ASK.test(text);
    text = text.replace(ASK, '');
    if (asked) text = text.replace(/\?+$/, '');
    if (text.replace(/[\p{P}\s]/gu, '').length < 3) continue;
    return clipWords(text.charAt(0).toUpperCase() + text.slice(1), max);
  }
  return clipWords(request, max);
}

function names(paths: readonly string[]): string {
  const shown = paths.slice(0, NAMED_FILES).map((path) => clipWords(basename(path), 40));
  return `${shown.join(', ')}${paths.length > NAMED_FILES ? ', …' : ''}`;
}

/** `read 3 files (a.ts, b.ts, c.ts)` / `edited a.ts` / `edited 4 files (a.ts, b.ts, c.ts, …)`. */
function fileAction(verb: string, paths: readonly string[], countAlways = false): string | undefined {
  if (paths.length === 0) return undefined;
  return paths.length === 1 && !countAlways ? `${verb} ${names(paths)}` : `${verb} ${plural(paths.length, 'file')} (${names(paths)})`;
}

/** `ran `npm test` (2 failures, then passing)` for the commands that failed most, then the first ones; `and 3 more commands`. */
function commandActions(basis: DigestBasis): { parts: string[]; explained: Set<string> } {
  const failures = new Map(basis.failures.map((item) => [item.command, item.count]));
  const openKeys = new Set(basis.open.flatMap((error) => error.keys));
  // The commands that failed most first (the story of the block), then the others in order.
  const ordered = [...basis.commands].sort((a, b) => (failures.get(b) ?? 0) - (failures.get(a) ?? 0));
  const explained = new Set<string>();
  const parts: string[] = [];
  let shown = 0;
  for (const command of ordered) {
    const failed = failures.get(command) ?? 0;
    const key = commandKey(command);
    const state = failed === 0 ? '' : ` (${plural(failed, 'failure')}, ${openKeys.has(key) ? 'still failing' : 'then passing'})`;
    const part = `ran \`${clipWords(command, COMMAND_CHARS)}\`${state}`;
    // Two commands that read the same once clipped are named once.
    if (parts.includes(part)) {
      shown++;
      explained.add(key);
      continue;
    }
    if (parts.length === NAMED_COMMANDS) break;
    parts.push(part);
    explained.add(key);
    shown++;
  }
  const more = basis.commands.length - shown;
  if (more > 0) parts.push(`and ${plural(more, 'more command')}`);
  return { parts, explained };
}

/** `called Task ×2, WebSearch` (the first NAMED_COMMANDS tools, then how many more). */
function otherCalls(others: NonNullable<DigestBasis['others']>): string {
  const shown = others.slice(0, NAMED_COMMANDS).map(({ tool, count }) => (count > 1 ? `${tool} ×${count}` : tool));
  const more = others.length - shown.length;
  return `called ${shown.join(', ')}${more > 0 ? ` and ${plural(more, 'more tool')}` : ''}`;
}

function joined(lead: string, actions: readonly string[]): string {
  const list = actions.join(', ');
  return lead ? `${lead} ${list}` : list.charAt(0).toUpperCase() + list.slice(1);
}

/**
 * What the block did, in one line (see the module comment); `goal` leads it when there is one.
 * Over PHASE_MAX_CHARS the file names go first (read files, then all), then the last actions.
 */
export function phaseLine(basis: DigestBasis, goal: string | undefined, fallback: string): string {
  const edited = basis.modified.filter((path) => !basis.created.includes(path) && !basis.deleted.includes(path));
  const commands = commandActions(basis);
  const open = basis.open.filter((error) => !error.keys.some((key) => commands.explained.has(key))).length;
  const files = (named: 'all' | 'changed' | 'none') => [
    basis.read.length === 0 ? undefined : named === 'all' ? fileAction('read', basis.read, true) : `read ${plural(basis.read.length, 'file')}`,
    ...([['edited', edited], ['created', basis.created], ['deleted', basis.deleted]] as const).map(([verb, paths]) => (
      paths.length === 0 ? undefined : named === 'none' ? `${verb} ${plural(paths.length, 'file')}` : fileAction(verb, paths))),
  ];
  const tail = [...commands.parts, open > 0 ? `${plural(open, 'error')} still open` : undefined];
  const bare = goal?.replace(/[\s.:;,]+$/, '');
  const lead = bare ? `${bare}${/[?!…]$/.test(bare) ? ' —' : ':'}` : '';
  let actions: string[] = [];
  for (const named of ['all', 'changed', 'none'] as const) {
    actions = [...files(named), ...tail].filter((part): part is string => part !== undefined);
    if (joined(lead, actions).length <= PHASE_MAX_CHARS) break;
  }
  // No file or command to name: the calls it did make (a Task sub-agent, a search) are still named.
  if (actions.length === 0 && basis.others?.length) actions = [otherCalls(basis.others)];
  if (actions.length === 0) return bare ? `${lead} no tool calls` : fallback;
  if (joined(lead, actions).length <= PHASE_MAX_CHARS) return joined(lead, actions);
  while (actions.length > 1 && joined(lead, [...actions, '…']).length > PHASE_MAX_CHARS) actions.pop();
  return joined(lead, [...actions, '…']);
}
