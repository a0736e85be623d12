/**
 * The format-neutral content of an offline summary: built from extracted facts, read back from an
 * earlier summary's text (any of our templates, loosely from a model's), and merged so that an
 * update keeps every request, constraint and file the earlier summary held.
 */
import { inferEnvironment, inferStack, mergeEnvironment } from './environment.ts';
import { clipHead, clipLine, itemKey, oneLine, unionInto, type SessionFacts } from './extract.ts';

export { commonRoot, inferEnvironment, inferStack } from './environment.ts';
export { boundErrors, codeSpan, errorText, MAX_ERRORS, MAX_ERRORS_PER_TARGET, omittedErrorsText, type ErrorItem } from './errors.ts';
import { boundErrors, codeSpan, resolvedBy, type ErrorItem } from './errors.ts';

/** What the summarized entries did to one path. */
export interface FileState {
  read: boolean;
  modified: boolean;
  created: boolean;
  deleted: boolean;
  edits: number;
}

export interface Digest {
  requests: string[];
  constraints: string[];
  /** Finished work ("X - answered", completed todos, done items of an earlier summary). */
  done: string[];
  inProgress: string[];
  nextSteps: string[];
  /** Blocked notes that are not tool errors (read back from an earlier summary). */
  blocked: string[];
  decisions: string[];
  commands: string[];
  /** Older commands left out to keep the list bounded (carried across updates). */
  commandsOmitted: number;
  /** Notes; `Label: value` lines are replaced by a newer line with the same label. */
  context: string[];
  /** Distinct errors, oldest first, at most MAX_ERRORS (MAX_ERRORS_PER_TARGET per command or file). */
  errors: ErrorItem[];
  /** Older errors left out to keep the list bounded (carried across updates). */
  errorsOmitted: number;
  files: Map<string, FileState>;
  stack: string[];
  environment: string[];
  timeRange?: { start: string; end: string };
  /** True when in-progress / next-step state describes the newest entries (then it replaces older state). */
  hasState: boolean;
  /** Keys of calls that succeeded in the newest entries (resolve older errors on merge). */
  succeeded: Set<string>;
}

/** Longest request kept in a summary line, characters. */
export const MAX_REQUEST_CHARS = 600;
/** Longest last-request line, characters (the last request is kept nearly whole). */
export const MAX_LAST_REQUEST_CHARS = 1500;
/** Longest last-reply line, characters. */
export const MAX_REPLY_CHARS = 400;
/** Longest quote of an answered request in a done line, characters. */
export const MAX_DONE_REQUEST_CHARS = 100;
/** Most recent unique commands taken from one run of entries. */
export const MAX_COMMANDS = 12;
/** Most recent unique commands an update keeps. */
export const MAX_MERGED_COMMANDS = 20;
/** Lines of an unrecognised section kept when reading back a foreign summary. */
export const MAX_FOREIGN_LINES = 40;

export function emptyDigest(): Digest {
  return {
    requests: [], constraints: [], done: [], inProgress: [], nextSteps: [], blocked: [], decisions: [], commands: [], context: [],
    commandsOmitted: 0, errors: [], errorsOmitted: 0, files: new Map(), stack: [], environment: [], hasState: false, succeeded: new Set(),
  };
}


/** `Earlier commands left out: N (…)`: how many older commands a bounded list no longer shows; reads back. */
export function omittedCommandsText(count: number): string {
  return `Earlier commands left out: ${count} (only the newest commands are listed)`;
}

/** `The user declined Edit `src/a.ts``: a refused call is the user's choice, not an error. */
export function declinedNote(tool: string, target?: string): string {
  return `The user declined ${tool}${target ? ` ${codeSpan(target)}` : ''}`;
}

/** `created, 3 edits` / `deleted` / `2 edits` / `read`. */
export function fileNote(state: FileState): string {
  const parts: string[] = [];
  if (state.created) parts.push('created');
  if (state.edits > 0) parts.push(`${state.edits} edit${state.edits === 1 ? '' : 's'}`);
  if (state.deleted) parts.push('deleted');
  if (parts.length === 0) parts.push(state.modified ? 'modified' : 'read');
  return parts.join(', ');
}

export function isChanged(state: FileState): boolean {
  return state.modified || state.created || state.deleted || state.edits > 0;
}

/** Files read and never changed, and files changed, both sorted. */
export function splitFiles(files: ReadonlyMap<string, FileState>): { read: string[]; changed: string[] } {
  const paths = [...files.keys()].sort();
  return { read: paths.filter((path) => !isChanged(files.get(path)!)), changed: paths.filter((path) => isChanged(files.get(path)!)) };
}

/** The digest of freshly extracted facts. */
export function digestFromFacts(facts: SessionFacts): Digest {
  const digest = emptyDigest();
  digest.requests = unionInto([], facts.requests.map((request) => clipLine(request, MAX_REQUEST_CHARS)));
  digest.constraints = unionInto([], facts.constraints.map(oneLine));
  facts.requests.forEach((request, index) => {
    // The request's start names it; the whole request is under Goal.
    if (facts.answered[index]) unionInto(digest.done, [`${clipHead(request, MAX_DONE_REQUEST_CHARS)} - answered`]);
  });
  const last = facts.lastRequest;
  for (const todo of facts.todos ?? []) {
    if (todo.status === 'completed') unionInto(digest.done, [`${todo.content} - completed`]);
    if (todo.status === 'in_progress') unionInto(digest.inProgress, [todo.content]);
    if (todo.status === 'pending') unionInto(digest.nextSteps, [todo.content]);
  }
  if (last !== undefined && !facts.lastRequestAnswered) {
    if (!facts.todos?.some((todo) => todo.status === 'in_progress')) unionInto(digest.inProgress, [clipLine(last, 300)]);
    if (!facts.todos?.some((todo) => todo.status === 'pending')) unionInto(digest.nextSteps, ['Finish the last user request (quoted in full under Last user request).']);
  }
  digest.decisions = unionInto([], facts.decisions.map(oneLine));
  digest.commands = facts.commands.slice(-MAX_COMMANDS);
  digest.commandsOmitted = facts.commands.length - digest.commands.length;
  if (last !== undefined) digest.context.push(`Last user request: ${clipLine(last, MAX_LAST_REQUEST_CHARS)}`);
  if (facts.lastReply !== undefined) digest.context.push(`Last assistant reply: ${clipLine(facts.lastReply, MAX_REPLY_CHARS)}`);
  for (const call of facts.declined) digest.context.push(declinedNote(call.tool, call.target));
  const bounded = boundErrors(facts.errors.map((error) => ({ tool: error.tool, ...(error.target ? { target: error.target } : {}), message: error.message, resolved: error.resolved, recent: true })));
  digest.errors = bounded.errors;
  digest.errorsOmitted = bounded.omitted;
  for (const path of facts.files.read) digest.files.set(path, { read: true, modified: false, created: false, deleted: false, edits: 0 });
  for (const path of facts.files.modified) digest.files.set(path, { read: false, modified: true, created: false, deleted: false, edits: 0 });
  for (const change of facts.changes) digest.files.set(change.path, { read: false, modified: true, created: change.created, deleted: change.deleted, edits: change.edits });
  const paths = [...facts.files.read, ...facts.files.modified];
  digest.stack = inferStack(paths, facts.commands);
  digest.environment = inferEnvironment(paths, facts.tools);
  if (facts.timeRange) digest.timeRange = { ...facts.timeRange };
  digest.hasState = facts.requests.length > 0 || facts.todos !== undefined;
  digest.succeeded = new Set(facts.succeeded);
  return digest;
}

// ---- Reading a summary back -------------------------------------------------------------------

type Field = 'requests' | 'constraints' | 'done' | 'inProgress' | 'nextSteps' | 'blocked' | 'decisions' | 'context' | 'files' | 'skip';

function headingField(heading: string): Field {
  const h = heading.toLowerCase().replace(/[^\p{L}\p{N}&' ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  if (/\b(goal|original request|user requirements|objectives)\b/.test(h)) return 'requests';
  if (/\b(constraints?|preferences)\b/.test(h)) return 'constraints';
  if (/\bin progress\b/.test(h)) return 'inProgress';
  if (/\bblocked\b/.test(h)) return 'blocked';
  if (/\b(next steps?|pending)\b/.test(h)) return 'nextSteps';
  if (/\b(decisions?|insights)\b/.test(h)) return 'decisions';
  if (/^(done|progress)$|\b(completed|early progress|agent actions|milestones)\b/.test(h)) return 'done';
  if (/\bfile system\b/.test(h)) return 'files';
  return 'context';
}

const LABELS: Record<string, Field | 'error' | 'stack' | 'environment' | 'time' | 'fileList' | 'keyed'> = {
  'original goal': 'requests', goal: 'requests', request: 'requests', 'original request': 'requests', 'user request': 'requests',
  constraint: 'constraints', constraints: 'constraints', 'user preferences': 'constraints', preference: 'constraints', preferences: 'constraints',
  decision: 'decisions', decisions: 'decisions', learnings: 'error', learning: 'error', error: 'error', fix: 'error', blocked: 'error',
  stack: 'stack', environment: 'environment', 'time range': 'time', status: 'skip',
  'in progress': 'inProgress', next: 'nextSteps', 'next step': 'nextSteps', done: 'done', completed: 'done', 'i completed': 'done',
  modified: 'fileList', 'files modified': 'fileList', changed: 'fileList', created: 'fileList', deleted: 'fileList', read: 'fileList', 'files read': 'fileList', viewed: 'fileList',
  'last user request': 'keyed', 'last assistant reply': 'keyed', 'last reply': 'keyed', 'project root': 'keyed',
};

/** Plain (not bold) labels honoured per section; every label is honoured in context sections. */
const PLAIN_LABELS: Partial<Record<Field, string[]>> = {
  done: ['i completed', 'done'],
  nextSteps: ['fix', 'in progress', 'next'],
};

const SPAN = /(`+)\s?(.+?)\s?\1(?!`)/g;
const ERROR_LINE = /^([\w.:/-]+)(?: (`+)\s?(.+?)\s?\2(?!`))? failed(, later fixed|, still failing)?: (.*)$/;
const OMITTED_ERRORS = /\bEarlier errors left out: (\d+)\b/;
const OMITTED_COMMANDS = /\bEarlier commands left out: (\d+)\b/;
const FILE_LINE = /^(?:I )?(read|viewed|modified|changed|edited|created|deleted) (`+)\s?(.+?)\s?\2(?!`)(?: \(([^)]*)\))?$/i;
const FILE_STATE_LINE = /^(`+)\s?(.+?)\s?\1(?!`):\s*(.*)$/;
const COMMAND_LINE = /^(?:I )?ran (`+)\s?(.+?)\s?\1$/i;
const LABEL_LINE = /^\*{0,2}([^*:`]{1,40}?)\*{0,2}:\s+(.*)$/;
const SKIP = /^(_\(.*\)_|\(none[^)]*\)|none|\(not recorded\)|\(no files modified\)|\(unknown\)|…\s*\d+ more .*omitted.*)$/i;

function spans(text: string): string[] {
  return [...text.matchAll(SPAN)].map((match) => match[2] ?? '').filter((value) => value.length > 0);
}

function noteState(note: string, base: Partial<FileState>): FileState {
  const lower = note.toLowerCase();
  const edits = Number(/(\d+) edits?/.exec(lower)?.[1] ?? 0);
  const created = base.created === true || /\bcreated\b/.test(lower);
  const deleted = base.deleted === true || /\bdeleted\b/.test(lower);
  const changed = base.modified === true || created || deleted || edits > 0 || /\b(modified|changed|edited)\b/.test(lower);
  return { read: !changed, modified: changed, created, deleted, edits };
}

function addFile(files: Map<string, FileState>, path: string, state: FileState): void {
  const old = files.get(path);
  if (!old) {
    files.set(path, state);
    return;
  }
  // Two lines of one summary describe the same history: take the larger count, not the sum.
  files.set(path, { read: old.read && state.read, modified: old.modified || state.modified, created: old.created || state.created, deleted: old.deleted || state.deleted, edits: Math.max(old.edits, state.edits) });
}

function parseTime(value: string): string | undefined {
  const trimmed = value.replace(/^\[|\]$/g, '').trim();
  return trimmed && !/^(unknown|start time|cutoff time)$/i.test(trimmed) ? trimmed : undefined;
}

/** Reads one of our summaries (or, loosely, a model's) back into a digest. */
export function parseSummary(text: string): Digest {
  const digest = emptyDigest();
  const seen = new Map<Field, Set<string>>();
  let field: Field = 'context';
  let fileBlock: 'read' | 'modified' | undefined;
  let requirements = false;
  let layered = false;
  let foreign = 0;
  const push = (target: Field, value: string, placeholders = true): void => {
    if (target === 'skip' || target === 'files') return;
    const item = oneLine(value);
    if (!item || (placeholders && SKIP.test(item))) return;
    if (target === 'context' && !/^[A-Z][\w ]{0,30}: /.test(item) && ++foreign > MAX_FOREIGN_LINES) return;
    const keys = seen.get(target) ?? new Set(digest[target].map(itemKey));
    seen.set(target, keys);
    unionInto(digest[target], [item], keys);
  };
  const pushError = (line: string): boolean => {
    const match = ERROR_LINE.exec(line);
    if (!match) return false;
    const target = match[3];
    digest.errors.push({ tool: match[1] ?? 'tool', ...(target ? { target } : {}), message: match[5] ?? '', resolved: match[4] === ', later fixed' });
    return true;
  };

  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const block = /^<(\/?)(read-files|modified-files)>$/.exec(line);
    if (block) {
      fileBlock = block[1] ? undefined : block[2] === 'read-files' ? 'read' : 'modified';
      continue;
    }
    if (fileBlock) {
      addFile(digest.files, line, fileBlock === 'read' ? { read: true, modified: false, created: false, deleted: false, edits: 0 } : { read: false, modified: true, created: false, deleted: false, edits: 0 });
      continue;
    }
    if (/^<\/?summary>$/.test(line)) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      field = headingField(heading[1] ?? '');
      // Only Augment's requirements list mixes in `Constraint:` lines; pi's Goal is the user's words alone.
      requirements = /user requirements/i.test(heading[1] ?? '');
      // Bold `**Label**:` bullets are the layered template's; elsewhere they are the user's own text.
      layered = /objectives|technical context|insights|milestones/i.test(heading[1] ?? '');
      continue;
    }
    const range = /Contains context from (.+?) to (.+?)\)/.exec(line);
    if (range) {
      const start = parseTime(range[1] ?? '');
      const end = parseTime(range[2] ?? '');
      if (start && end) digest.timeRange = { start, end };
      continue;
    }
    if (line === '[历史摘要记忆]') {
      field = 'context';
      continue;
    }
    if (/^\*\(.*\)\*$/.test(line)) continue;
    const bulleted = line.replace(/^(?:[-*+•]|\d+[.)])\s+/, '');
    // Verbatim sections hold the user's and assistant's own words: a checkbox or `(none)` there is
    // text, while our empty-section placeholder is the only unbulleted line.
    const verbatim = field === 'requests' || field === 'constraints' || field === 'decisions';
    const ownWords = verbatim && bulleted !== line;
    const item = (verbatim ? bulleted : bulleted.replace(/^\[(?:x|X| |✓|✔)\]\s*/, '')).trim();
    if (!item || (!ownWords && SKIP.test(item))) continue;
    const omitted = verbatim ? null : OMITTED_ERRORS.exec(item);
    if (omitted) {
      digest.errorsOmitted += Number(omitted[1]);
      continue;
    }
    const omittedCommands = verbatim ? null : OMITTED_COMMANDS.exec(item);
    if (omittedCommands) {
      digest.commandsOmitted += Number(omittedCommands[1]);
      continue;
    }

    if (field === 'files') {
      const state = FILE_STATE_LINE.exec(item);
      if (state) addFile(digest.files, state[2] ?? '', noteState(state[3] ?? '', { modified: true }));
      continue;
    }
    // Verbatim sections only honour the layered bold labels.
    const labelled = LABEL_LINE.exec(item);
    const label = (labelled?.[1] ?? '').trim().toLowerCase();
    const bold = layered && item.startsWith('**');
    const allowed = bold || field === 'context' || (PLAIN_LABELS[field] ?? []).includes(label) || (requirements && label === 'constraint');
    const kind = labelled && allowed ? LABELS[label] : undefined;
    const value = labelled?.[2] ?? '';
    if (!verbatim || bold) {
      if (pushError(kind === 'error' || kind === 'inProgress' || kind === 'done' ? value : item)) continue;
      const file = FILE_LINE.exec(item);
      if (file) {
        const verb = (file[1] ?? '').toLowerCase();
        addFile(digest.files, file[3] ?? '', verb === 'read' || verb === 'viewed' ? { read: true, modified: false, created: false, deleted: false, edits: 0 } : noteState(`${verb} ${file[4] ?? ''}`, { modified: true }));
        continue;
      }
      const command = COMMAND_LINE.exec(item);
      if (command) {
        unionInto(digest.commands, [command[2] ?? '']);
        continue;
      }
    }
    if (labelled && kind) {
      if (kind === 'error') {
        push(label === 'learnings' || label === 'learning' ? 'context' : 'blocked', value);
      } else if (kind === 'stack') {
        unionInto(digest.stack, value.split(/,\s*/).filter((part) => part && !SKIP.test(part)));
      } else if (kind === 'environment') {
        unionInto(digest.environment, value.split(/;\s*/).filter((part) => part && !SKIP.test(part)));
      } else if (kind === 'time') {
        const [start, end] = value.split(/\s+(?:→|->|to)\s+/);
        if (start && end) digest.timeRange = { start: start.trim(), end: end.trim() };
      } else if (kind === 'fileList') {
        const verbState = /read|viewed/.test(label) ? { read: true, modified: false, created: false, deleted: false, edits: 0 } : noteState(label, { modified: true });
        for (const path of spans(value)) addFile(digest.files, path, verbState);
      } else if (kind === 'keyed') {
        push('context', `${(labelled[1] ?? '').trim()}: ${value}`);
      } else if (kind === 'requests' || kind === 'constraints' || kind === 'decisions') {
        // The user's words: only our italic placeholder (`_(none)_`) is not an item.
        if (!/^_\(.*\)_$/.test(value)) push(kind, value, false);
      } else {
        push(kind, value);
      }
      continue;
    }
    push(field, item, !ownWords);
  }
  const bounded = boundErrors(digest.errors);
  digest.errors = bounded.errors;
  digest.errorsOmitted += bounded.omitted;
  digest.hasState = digest.inProgress.length > 0 || digest.nextSteps.length > 0;
  return digest;
}

// ---- Merging -----------------------------------------------------------------------------------

function contextLabel(item: string): string | undefined {
  return /^([A-Z][\w ]{0,30}): /.exec(item)?.[1]?.toLowerCase();
}

function earlier(a: string, b: string): string {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isFinite(ta) && Number.isFinite(tb)) return ta <= tb ? a : b;
  return a;
}

/**
 * `older` updated by `newer`: lists are unioned (nothing older is dropped), file counts add up,
 * labelled notes and current state (in progress, next steps) come from the newer digest when it has
 * them, and an older error that a newer call fixed is marked fixed.
 */
export function mergeDigests(older: Digest, newer: Digest): Digest {
  const merged = emptyDigest();
  merged.requests = unionInto([...older.requests], newer.requests);
  merged.constraints = unionInto([...older.constraints], newer.constraints);
  merged.done = unionInto([...older.done], newer.done);
  merged.decisions = unionInto([...older.decisions], newer.decisions);
  // A command run again moves to the end: the newest MAX_MERGED_COMMANDS are kept.
  const rerun = new Set(newer.commands.map(itemKey));
  const commands = unionInto(older.commands.filter((command) => !rerun.has(itemKey(command))), newer.commands);
  merged.commands = commands.slice(-MAX_MERGED_COMMANDS);
  merged.commandsOmitted = older.commandsOmitted + newer.commandsOmitted + commands.length - merged.commands.length;
  merged.stack = unionInto([...older.stack], newer.stack);
  merged.environment = mergeEnvironment(older.environment, newer.environment);
  const newLabels = new Set(newer.context.map(contextLabel).filter((label): label is string => label !== undefined));
  merged.context = unionInto(older.context.filter((item) => {
    const label = contextLabel(item);
    return label === undefined || !newLabels.has(label);
  }), newer.context);
  const state = newer.hasState ? newer : older;
  merged.inProgress = [...state.inProgress];
  merged.nextSteps = [...state.nextSteps];
  merged.blocked = newer.hasState ? [...newer.blocked] : unionInto([...older.blocked], newer.blocked);
  merged.hasState = older.hasState || newer.hasState;
  const bounded = boundErrors([
    ...older.errors.map(({ recent: _recent, ...error }) => (error.resolved || !resolvedBy(error, newer.succeeded) ? error : { ...error, resolved: true })),
    ...newer.errors,
  ]);
  merged.errors = bounded.errors;
  merged.errorsOmitted = older.errorsOmitted + newer.errorsOmitted + bounded.omitted;
  for (const [path, state] of older.files) merged.files.set(path, { ...state });
  for (const [path, state] of newer.files) {
    const old = merged.files.get(path);
    merged.files.set(path, old
      ? { read: old.read && state.read, modified: old.modified || state.modified, created: old.created || state.created, deleted: old.deleted || state.deleted, edits: old.edits + state.edits }
      : { ...state });
  }
  if (older.timeRange && newer.timeRange) {
    const start = earlier(older.timeRange.start, newer.timeRange.start);
    const end = earlier(older.timeRange.end, newer.timeRange.end) === older.timeRange.end ? newer.timeRange.end : older.timeRange.end;
    merged.timeRange = { start, end };
  } else if (older.timeRange ?? newer.timeRange) {
    merged.timeRange = { ...(older.timeRange ?? newer.timeRange)! };
  }
  merged.succeeded = new Set(newer.succeeded);
  return merged;
}
