/**
 * The format-neutral content of an offline summary: built from extracted facts, read back from an
 * earlier summary's text (any of our templates, loosely from a model's), and merged so that an
 * update keeps every request, constraint and file the earlier summary held. Reading a summary's
 * text back is in parse-summary.ts.
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
  /** True when the newest entries end with the assistant's plain answer: work an older summary left in progress is finished. */
  endsAnswered: boolean;
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
/** The next step an unanswered last request gives. */
const FINISH_LAST_REQUEST = 'Finish the last user request';
/** Lines of an unrecognised section kept when reading back a foreign summary. */
export const MAX_FOREIGN_LINES = 40;

export function emptyDigest(): Digest {
  return {
    requests: [], constraints: [], done: [], inProgress: [], nextSteps: [], blocked: [], decisions: [], commands: [], context: [],
    commandsOmitted: 0, errors: [], errorsOmitted: 0, files: new Map(), stack: [], environment: [], hasState: false, endsAnswered: false, succeeded: new Set(),
  };
}


/** `Earlier commands left out: N (…)`: how many older commands a bounded list no longer shows; reads back. */
export function omittedCommandsText(count: number): string {
  return `Earlier commands left out: ${count} (only the newest commands are listed)`;
}

/** `The user declined Edit `src/a.ts`: use tabs`: a refused call is the user's choice (with their reason), not an error. */
export function declinedNote(tool: string, target?: string, reason?: string): string {
  return `The user declined ${tool}${target ? ` ${codeSpan(target)}` : ''}${reason ? `, saying: ${reason}` : ''}`;
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
    if (!facts.todos?.some((todo) => todo.status === 'pending')) unionInto(digest.nextSteps, [`${FINISH_LAST_REQUEST} (quoted in full under Last user request).`]);
  }
  digest.decisions = unionInto([], facts.decisions.map(oneLine));
  digest.commands = facts.commands.slice(-MAX_COMMANDS);
  digest.commandsOmitted = facts.commands.length - digest.commands.length;
  if (last !== undefined) digest.context.push(`Last user request: ${clipLine(last, MAX_LAST_REQUEST_CHARS)}`);
  if (facts.lastReply !== undefined) digest.context.push(`Last assistant reply: ${clipLine(facts.lastReply, MAX_REPLY_CHARS)}`);
  for (const call of facts.declined) digest.context.push(declinedNote(call.tool, call.target, call.reason));
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
  digest.endsAnswered = facts.endsAnswered;
  digest.succeeded = new Set(facts.succeeded);
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
  if (!newer.hasState && newer.endsAnswered) {
    // No new request, and the newer entries end with the answer: the work left in progress is done.
    unionInto(merged.done, older.inProgress.map((item) => `${clipHead(item, MAX_DONE_REQUEST_CHARS)} - answered`));
    merged.inProgress = [];
    merged.nextSteps = merged.nextSteps.filter((step) => !step.startsWith(FINISH_LAST_REQUEST));
  }
  merged.endsAnswered = newer.endsAnswered;
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
