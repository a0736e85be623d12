/**
 * The index of a folded block by extraction, no model (F1, F5): title, content, outcome, keywords,
 * entities (files, commands, symbols) and state changes from `extractFacts` and the tool actions,
 * and the text each level shows. Same entries, same digest: it is cached by source hash (F12).
 */
import { entryActions, type ToolAction } from '../compaction/tool-actions.ts';
import type { Entry } from '../journal/entry.ts';
import { clipLine, clipWords, errorKeys, extractFacts, oneLine, splitSentences } from '../summarize/extract.ts';
import { basename, goalPhrase, phaseLine, plural, TITLE_MAX_CHARS } from './phase-line.ts';
import type { BlockDigest, DigestBasis, Level } from './types.ts';

export { TITLE_MAX_CHARS } from './phase-line.ts';

/** Longest content / outcome sentence, characters. */
export const SENTENCE_MAX_CHARS = 160;
export const MAX_KEYWORDS = 8;
export const MAX_ENTITIES = 20;
/** Key actions an L2 block lists (more for important blocks: they keep more detail). */
export const KEY_ACTIONS = 5;
export const KEY_ACTIONS_IMPORTANT = 10;

const STOP = new Set(('the and for with that this from have what into your about then them they were been will would could should there their which when where while also just only some more than like make sure does done need want please can you let check file files code look using used use here it\'s i\'ll i\'m let\'s now').split(' '));
const SYMBOL = /`([A-Za-z_$][\w$.]*(?:\(\))?)`/g;

function commandHead(command: string): string {
  return oneLine(command).split(' ').slice(0, 2).join(' ');
}

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z0-9_-]{3,}/g) ?? []).filter((word) => !STOP.has(word));
}

function topWords(texts: readonly string[], max: number): string[] {
  const counts = new Map<string, number>();
  for (const text of texts) for (const word of words(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, max).map(([word]) => word);
}

function uniq(items: Iterable<string>, max = Infinity): string[] {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.size >= max) break;
    if (item) seen.add(item);
  }
  return [...seen];
}

/**
 * The first sentence of a reply that says something: interjections ("Perfect!", "That's strange.")
 * and lead-ins to code ("Let me look at it:") are skipped when a later sentence says more.
 */
function firstSentence(text: string | undefined): string {
  if (!text) return '';
  const sentences = splitSentences(text);
  const telling = sentences.find((sentence) => sentence.split(/\s+/).length >= 4 && !/[:!]$/.test(sentence)) ?? sentences[0] ?? text;
  return clipLine(telling, SENTENCE_MAX_CHARS);
}

/** Longest command list a digest keeps for merging. */
const MAX_COMMANDS = 50;
/** Key actions a merged digest keeps (the oldest first). */
const MAX_KEY_ACTIONS = 40;

/** Title, content (the phase line), outcome and state changes from the mergeable facts. */
function render(basis: DigestBasis): Pick<BlockDigest, 'title' | 'content' | 'outcome' | 'stateChanges'> {
  const { created, deleted, read, commands, request } = basis;
  const changed = basis.modified.length;
  const edited = basis.modified.filter((path) => !created.includes(path) && !deleted.includes(path));
  const stateChanges: string[] = [];
  if (created.length) stateChanges.push(`created: ${created.map(basename).join(', ')}`);
  if (edited.length) stateChanges.push(`modified: ${edited.map(basename).join(', ')}`);
  if (deleted.length) stateChanges.push(`deleted: ${deleted.map(basename).join(', ')}`);
  const goal = request !== undefined ? goalPhrase(request, TITLE_MAX_CHARS) : undefined;
  const title = goal
    ?? (changed > 0
      ? clipWords(`Changed ${changed === 1 ? basename(basis.modified[0]!) : plural(changed, 'file')}`, TITLE_MAX_CHARS)
      : commands.length > 0
        ? clipWords(`Ran ${commandHead(commands[0]!)}${commands.length > 1 ? ` and ${commands.length - 1} more` : ''}`, TITLE_MAX_CHARS)
        : read.length > 0
          ? clipWords(`Read ${read.length === 1 ? basename(read[0]!) : plural(read.length, 'file')}`, TITLE_MAX_CHARS)
          : basis.others?.length && !basis.lastReply
            ? clipWords(`Called ${basis.others.map((other) => other.tool).join(', ')}`, TITLE_MAX_CHARS)
            : clipWords(firstSentence(basis.lastReply) || 'Conversation', TITLE_MAX_CHARS));
  const content = phaseLine(basis, goal, firstSentence(basis.lastReply) || 'No tool activity.');
  const open = basis.open[basis.open.length - 1];
  const outcome = open ? `Unresolved: ${clipLine(open.message, SENTENCE_MAX_CHARS)}` : firstSentence(basis.lastReply) || (stateChanges[0] ?? 'No state change.');
  return { title, content, outcome, stateChanges };
}

/** Failed runs of each command (an error whose target is the command line). */
function commandFailures(commands: readonly string[], errors: ReadonlyArray<{ target?: string }>): DigestBasis['failures'] {
  const listed = new Set(commands);
  const counts = new Map<string, number>();
  for (const error of errors) if (error.target !== undefined && listed.has(error.target)) counts.set(error.target, (counts.get(error.target) ?? 0) + 1);
  return [...counts].map(([command, count]) => ({ command, count }));
}

/** Failure counts of consecutive parts added up per command, in order of first failure. */
function mergeFailures(items: DigestBasis['failures']): DigestBasis['failures'] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.command, (counts.get(item.command) ?? 0) + item.count);
  return [...counts].map(([command, count]) => ({ command, count }));
}

/** Unnamed call counts of consecutive parts added up per tool, in order of first call. */
function mergeCounts(items: NonNullable<DigestBasis['others']>): NonNullable<DigestBasis['others']> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.tool, (counts.get(item.tool) ?? 0) + item.count);
  return [...counts].map(([tool, count]) => ({ tool, count }));
}

/** Per tool, calls a phase line's file and command lists do not name: sub-agents, searches, calls without a path or command. */
function unnamedCalls(actions: readonly ToolAction[]): NonNullable<DigestBasis['others']> {
  const counts = new Map<string, number>();
  for (const action of actions) {
    const named = action.category === 'command' ? Boolean(action.command?.trim())
      : action.category === 'viewed' ? Boolean(action.path) && !/^(?:grep|glob|search|find|ls)$/i.test(action.tool)
        : action.category !== 'other' && Boolean(action.path);
    if (!named) counts.set(action.tool, (counts.get(action.tool) ?? 0) + 1);
  }
  return [...counts].map(([tool, count]) => ({ tool, count }));
}

/** The digest of a run of entries (the entries of a block, in order). */
export function digestEntries(entries: readonly Entry[]): BlockDigest {
  const facts = extractFacts(entries);
  const actions = entryActions(entries.filter((entry) => entry.kind !== 'event' && !entry.flags?.sidechain));
  const { modified, created, deleted, read } = facts.files;

  const keyActions: string[] = [];
  for (const change of facts.changes) {
    const verb = change.deleted ? 'deleted' : change.created ? 'created' : 'modified';
    keyActions.push(`${verb} ${change.path}${change.edits > 1 ? ` (${change.edits} edits)` : ''}`);
  }
  for (const command of facts.commands) keyActions.push(`ran \`${clipLine(command, 80)}\``);
  for (const error of facts.errors) keyActions.push(`${error.resolved ? 'fixed' : 'error'}: ${error.tool}${error.target ? ` ${basename(error.target)}` : ''}: ${clipLine(error.message, 80)}`);
  for (const call of facts.declined) keyActions.push(`user declined ${call.tool}${call.target ? ` ${clipWords(basename(call.target), 80)}` : ''}`);

  const texts: string[] = [...facts.requests, ...facts.decisions];
  for (const entry of entries) {
    if (entry.role !== 'assistant') continue;
    for (const block of entry.blocks) if (block.type === 'text') texts.push(block.text);
  }
  const symbols: string[] = [];
  for (const text of texts) for (const match of text.matchAll(SYMBOL)) if (match[1] && !match[1].includes('/') && match[1].length <= 60) symbols.push(match[1]);

  const categories = uniq(actions.map((action) => action.category).filter((category) => category !== 'other'));
  const keywords = uniq([
    ...categories,
    ...(facts.errors.some((error) => error.resolved) ? ['fixed'] : []),
    ...(facts.errors.length ? ['error'] : []),
    ...topWords(texts, MAX_KEYWORDS),
  ], MAX_KEYWORDS);
  const entities = uniq([
    ...modified, ...read,
    ...facts.commands.map(commandHead),
    ...symbols,
  ], MAX_ENTITIES);

  const basis: DigestBasis = {
    ...(facts.requests[0] !== undefined ? { request: facts.requests[0] } : {}),
    ...(facts.lastReply !== undefined ? { lastReply: facts.lastReply } : {}),
    created, modified, deleted, read,
    commands: facts.commands.slice(0, MAX_COMMANDS),
    failures: commandFailures(facts.commands, facts.errors),
    errors: facts.errors.length,
    open: facts.errors.filter((error) => !error.resolved).map((error) => ({ keys: errorKeys(error.tool, error.target), message: error.message })),
    succeeded: facts.succeeded,
    others: unnamedCalls(actions),
  };
  return { ...render(basis), keywords, entities, keyActions, errors: facts.errors.length, changedFiles: modified.length, basis };
}

/** Items ranked by how many parts hold them, then by first appearance. */
function byFrequency(lists: ReadonlyArray<readonly string[]>, max: number): string[] {
  const counts = new Map<string, number>();
  for (const list of lists) for (const item of list) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, max).map(([item]) => item);
}

/** Key actions in order, a repeated one once with its count ("modified src/a.ts (×3)"). */
function mergeActions(lists: ReadonlyArray<readonly string[]>): string[] {
  const counts = new Map<string, number>();
  for (const list of lists) {
    for (const action of list) {
      if (counts.size >= MAX_KEY_ACTIONS && !counts.has(action)) continue;
      counts.set(action, (counts.get(action) ?? 0) + 1);
    }
  }
  return [...counts.entries()].map(([action, n]) => (n > 1 ? `${action} (×${n})` : action));
}

/**
 * The digest of consecutive parts, from the parts' digests (a chapter from its summaries, as the
 * seed builds L3 from L2): files and commands are unioned, an open error a later part fixed is
 * resolved, keywords and entities ranked by how many parts hold them. Parts without a basis (a
 * model's digest) only contribute their lists.
 */
export function mergeBlockDigests(parts: readonly BlockDigest[]): BlockDigest {
  const union = (pick: (b: DigestBasis) => readonly string[]) => {
    const seen = new Set<string>();
    for (const part of parts) if (part.basis) for (const item of pick(part.basis)) seen.add(item);
    return [...seen];
  };
  // Open errors no later part's success matches, oldest first.
  const open: DigestBasis['open'] = [];
  const later = new Set<string>();
  for (let k = parts.length - 1; k >= 0; k--) {
    const basis = parts[k]!.basis;
    if (!basis) continue;
    for (let e = basis.open.length - 1; e >= 0; e--) {
      const error = basis.open[e]!;
      if (!error.keys.some((key) => later.has(key))) open.unshift(error);
    }
    for (const key of basis.succeeded) later.add(key);
  }
  const request = parts.find((p) => p.basis?.request !== undefined)?.basis?.request;
  let lastReply: string | undefined;
  for (let k = parts.length - 1; k >= 0 && lastReply === undefined; k--) lastReply = parts[k]!.basis?.lastReply;
  const modified = union((b) => b.modified).sort();
  const changed = new Set(modified);
  const basis: DigestBasis = {
    ...(request !== undefined ? { request } : {}),
    ...(lastReply !== undefined ? { lastReply } : {}),
    // Sorted as extractFacts sorts them, so a merged digest reads like the digest of all its entries.
    created: union((b) => b.created).sort(),
    modified,
    deleted: union((b) => b.deleted).sort(),
    read: union((b) => b.read).filter((path) => !changed.has(path)).sort(),
    commands: union((b) => b.commands).slice(0, MAX_COMMANDS),
    failures: mergeFailures(parts.flatMap((part) => part.basis?.failures ?? [])),
    errors: parts.reduce((sum, p) => sum + p.errors, 0),
    open,
    succeeded: [...later],
    others: mergeCounts(parts.flatMap((part) => part.basis?.others ?? [])),
  };
  return {
    ...render(basis),
    keywords: byFrequency(parts.map((p) => p.keywords), MAX_KEYWORDS),
    entities: byFrequency(parts.map((p) => p.entities), MAX_ENTITIES),
    keyActions: mergeActions(parts.map((p) => p.keyActions)),
    errors: basis.errors,
    changedFiles: basis.modified.length,
    basis,
  };
}

/** `journal:seq_<from>_<to>`: where a block's full content is (the seed's storage_ref). */
export function storageRef(entryFrom: number, entryTo: number): string {
  return `journal:seq_${entryFrom}_${entryTo}`;
}

/**
 * What a folded block shows at L2-L4 (L0 and L1 show entries, see `levelEntries`): L2 summary +
 * key actions, L3 chapter index with the recall reference, L4 the phase line (the content).
 */
export function levelText(level: Level, digest: BlockDigest, range: { from: number; to: number; entryFrom: number; entryTo: number }, important = false): string {
  const span = range.from === range.to ? `iteration ${range.from}` : `iterations ${range.from}-${range.to}`;
  // The phase line: what the block did (a model's digest holds its own line there).
  if (level === 4) return `[${span}] ${digest.content}`;
  if (level === 3) {
    return [
      `Chapter (${span}): ${digest.title}`,
      `Outcomes: ${[...new Set([digest.outcome, ...digest.stateChanges])].join('; ')}`,
      `Keywords: ${digest.keywords.join(', ')}`,
      `Entities: ${digest.entities.join(', ')}`,
      `[recall: ${storageRef(range.entryFrom, range.entryTo)}]`,
    ].join('\n');
  }
  if (level === 2) {
    const actions = digest.keyActions.slice(0, important ? KEY_ACTIONS_IMPORTANT : KEY_ACTIONS);
    const more = digest.keyActions.length - actions.length;
    return [
      `Summary (${span}): ${digest.content}`,
      `Outcome: ${digest.outcome}`,
      ...(actions.length ? [`Key actions: ${actions.join('; ')}${more > 0 ? ` (+${more} more)` : ''}`] : []),
    ].join('\n');
  }
  return '';
}
