/**
 * Facts the offline summarizer can state for certain about a run of entries: what the user asked
 * and insisted on, which files and commands the tools touched, which errors happened and whether a
 * later call fixed them, the last todo list, the time range and the assistant's stated decisions.
 * Pure and deterministic: the same entries always give the same facts.
 */
import { blockText, type Entry, type ToolCallBlock } from '../journal/entry.ts';
import { fileLists, toolActions, type ToolAction } from '../compaction/tool-actions.ts';
import { clipHead, clipLine, oneLine } from './clip.ts';
import { isDeclined, userWords } from './harness.ts';
import { itemKey } from './item-key.ts';
import { extractConstraints, extractDecisions } from './sentences.ts';
import { isNoMatch, MAX_SCRIPT_CHARS, outputReportsFailure, shellFileChanges, withoutOutputFilters } from './shell.ts';

export { clipHead, clipLine, clipWords, oneLine } from './clip.ts';
export { itemKey } from './item-key.ts';
export { extractConstraints, extractDecisions, MAX_SENTENCE_CHARS, splitSentences } from './sentences.ts';

/** An error a tool result or an entry reported, and whether a later call succeeded at the same thing. */
export interface ErrorFact {
  /** Tool name ('API' for an entry flagged as an error). */
  tool: string;
  /** File path or command line the failing call worked on, when known. */
  target?: string;
  /** The most telling line of the error text, one line, clipped. */
  message: string;
  entryId: string;
  resolved: boolean;
}

/** A tool call the user declined (not an error: the call was refused, not failed). */
export interface DeclinedCall {
  tool: string;
  /** File path or command line of the declined call, when known. */
  target?: string;
}

export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export interface TodoItem {
  content: string;
  status: TodoStatus;
}

/** What the tools did to one file in these entries. */
export interface FileChange {
  path: string;
  /** Edit calls (Edit, MultiEdit, apply_patch updates, ...). */
  edits: number;
  created: boolean;
  deleted: boolean;
}

export interface SessionFacts {
  /** The person's words of each user message (harness text stripped; bare slash commands and injected messages skipped), oldest first. */
  requests: string[];
  /** Per request: the assistant replied with text before the next request. */
  answered: boolean[];
  /** The user's explicit instructions and prohibitions ("Don't …", "Always …", "You must …", 不要 …), deduplicated. */
  constraints: string[];
  lastRequest?: string;
  /** True when the last assistant message after the last request is a plain answer (no pending tool call). */
  lastRequestAnswered: boolean;
  /** Text of the last assistant message that has text, trimmed. */
  lastReply?: string;
  /** pi-style lists (read excludes anything modified) plus the created / deleted subsets of `modified`. */
  files: { read: string[]; modified: string[]; created: string[]; deleted: string[] };
  /** Per-file change counts for every modified path, sorted by path. */
  changes: FileChange[];
  /** Unique commands in order of first run, whitespace collapsed. */
  commands: string[];
  errors: ErrorFact[];
  /** Tool calls the user declined, unique by tool and target, in order. */
  declined: DeclinedCall[];
  /** Keys (`tool\u0000target`, `cmd\u0000command`) of calls that succeeded, so a later merge can resolve older errors. */
  succeeded: string[];
  /** The last todo list written (TodoWrite / update_plan); absent when none was. */
  todos?: TodoItem[];
  /** Assistant sentences stating a choice between alternatives ("use X instead of Y", "decided to … because …"), the most recent ones. */
  decisions: string[];
  /** First and last timestamps as ISO strings. */
  timeRange?: { start: string; end: string };
  /** Tool names used, sorted. */
  tools: string[];
  /** Texts of summary / compaction entries inside the range (earlier summaries to merge, oldest first). */
  priorSummaries: string[];
}

/** Most recent decision sentences kept. */
export const MAX_DECISIONS = 8;
/** Longest error message line kept, characters (cut at a word boundary). */
export const MAX_ERROR_CHARS = 160;
/** Longest command kept, characters (long scripts keep their start and end). */
export const MAX_COMMAND_CHARS = 120;
/** Longest path kept in an error target, characters. */
export const MAX_PATH_CHARS = 300;

const TODO_TOOLS = /^(todowrite|todo_write|write_todos|update_plan|todo|update_todos)$/i;
const ERROR_HINT = /(error|failed|failure|exception|traceback|not found|no such|denied|refused|rejected|invalid|cannot|can't|unable|fatal|panic|timed out|timeout)/i;

/** Appends items whose key is new, keeping the first spelling seen. */
export function unionInto(target: string[], items: Iterable<string>, seen = new Set(target.map(itemKey))): string[] {
  for (const item of items) {
    const key = itemKey(item);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    target.push(item);
  }
  return target;
}

/** Text of the entry's text blocks only (no tool calls, results or thinking). */
function plainText(entry: Entry): string {
  return entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n').trim();
}

/** A line naming an exception (`TypeError: …`, `E   AssertionError`, `pkg.mod.ValidationError: …`). */
const EXCEPTION_LINE = /^(?:E\s+)?(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b/;
/** A compiler / test runner's own error line (`a.ts(3,1): error TS2345`, `FAILED test_x`, `error[E0308]`). */
const CODE_LINE = /^FAILED\b|\berror TS\d+|\berror\[E\d+\]|^\S+:\d+:\d+: error\b/;
/** A line that starts by saying it is an error (`Error: …`, `fatal: …`, `npm error …`). */
const ERROR_START = /^(?:E\s+)?(?:Error|ERROR|error|fatal|FATAL|panic|npm ERR!|npm error)\b/;
/** A line naming a well-known failure (`No such file or directory`, `command not found`, `3 failed`). */
const FAILURE_PHRASE = /command not found|no such file or directory|permission denied|not found|ambiguous argument|[1-9]\d* (?:failed|errors?)\b|no tests (?:ran|collected)|timed out/i;
/** Lines scanned for the error line at most (the verdict of a long log is near its start or end). */
const MAX_ERROR_SCAN_LINES = 4000;

function lineScore(line: string): number {
  if (EXCEPTION_LINE.test(line)) return 5;
  if (CODE_LINE.test(line)) return 4;
  if (ERROR_START.test(line)) return 3;
  if (FAILURE_PHRASE.test(line)) return 2;
  return ERROR_HINT.test(line) ? 1 : 0;
}

/**
 * The line of an error text that names the error: the last exception line (Python prints it
 * last), else the first compiler / test error line (`error TS2345`, `FAILED`), else the first line
 * starting with `Error:` / `fatal:`, else the first line naming a known failure (`No such file or
 * directory`), else the last line mentioning an error; with none of these, the first line unless it
 * is a banner (`=== test session starts ===`), then the last line (tools print their verdict last).
 * Clipped at a word boundary to MAX_ERROR_CHARS.
 */
export function errorLine(text: string): string {
  const lines: string[] = [];
  let from = 0;
  const source = text.length > 200_000 ? `${text.slice(0, 100_000)}\n${text.slice(-100_000)}` : text;
  while (from <= source.length && lines.length < MAX_ERROR_SCAN_LINES) {
    const end = source.indexOf('\n', from);
    const line = source.slice(from, end < 0 ? source.length : end).replace(/<\/?tool_use_error>/g, '').trim();
    if (line.length > 0) lines.push(line.length > 2000 ? line.slice(0, 2000) : line);
    if (end < 0) break;
    from = end + 1;
  }
  const first = lines[0];
  if (first === undefined) return '(no message)';
  let best: string | undefined;
  let bestScore = 0;
  for (const line of lines) {
    if (/^exit code\b|^wall time\b|^output:$/i.test(line)) continue;
    const score = lineScore(line);
    // Exceptions and vague mentions: the last wins; named errors: the first.
    if (score > bestScore || (score === bestScore && score > 0 && (score === 5 || score === 1))) {
      best = line;
      bestScore = score;
    }
  }
  const chosen = best ?? (/^[=*#~_-]{3,}/.test(first) ? (lines[lines.length - 1] ?? first) : first);
  // Separator runs around a verdict (`===== 3 failed in 0.4s =====`) say nothing.
  return clipHead(chosen.replace(/^[=_~*#-]{3,}\s*|\s*[=_~*#-]{3,}$/g, '') || chosen, MAX_ERROR_CHARS);
}

/**
 * Key of a command line: whitespace collapsed, output filters dropped (`2>&1 | tail -5`, see
 * withoutOutputFilters) and each path argument reduced to its last part, so `ruff check src/a.py`
 * and `ruff check /repo/src/a.py | tail` are the same run on the same target.
 */
export function commandKey(command: string): string {
  const words = withoutOutputFilters(command.length > MAX_SCRIPT_CHARS ? command.slice(0, MAX_SCRIPT_CHARS) : command).split(' ')
    .map((word) => (/^[^-'"=$][^'"]*\/[^'"/]/.test(word) && !/^\w+:\/\//.test(word) ? word.replace(/\/+$/, '').replace(/^.*\//, '') : word));
  return `cmd\u0000${clipLine(words.join(' '), MAX_COMMAND_CHARS)}`;
}

/** Keys a later success must have to fix an error of `tool` on `target` (a file path, or a command). */
export function errorKeys(tool: string, target: string | undefined): string[] {
  if (!target) return tool === 'API' ? ['api\u0000'] : [];
  return [commandKey(target), `${tool.toLowerCase()}\u0000${target}`];
}

/** Key of what a call worked on: the same command (see commandKey), or the same tool on the same path. */
function actionKey(tool: string, action: ToolAction | undefined): string {
  if (action?.category === 'command' && action.command) return commandKey(action.command);
  return `${tool.toLowerCase()}\u0000${action?.path ?? ''}`;
}

function shortToolName(name: string): string {
  return name.includes('__') ? (name.split('__').pop() ?? name) : name;
}

function parseInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

function todoStatus(value: unknown, completed: unknown): TodoStatus {
  const status = typeof value === 'string' ? value.toLowerCase().replace(/[-\s]/g, '_') : '';
  if (status === 'completed' || status === 'done' || status === 'complete' || completed === true) return 'completed';
  if (status === 'in_progress' || status === 'active' || status === 'doing' || status === 'started') return 'in_progress';
  return 'pending';
}

/** The todo list a TodoWrite / update_plan call wrote, or undefined when the input has none. */
export function todosFromCall(call: ToolCallBlock): TodoItem[] | undefined {
  if (!TODO_TOOLS.test(shortToolName(call.name))) return undefined;
  const input = parseInput(call.input);
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as Record<string, unknown>;
  const list = record.todos ?? record.plan ?? record.items ?? record.tasks;
  if (!Array.isArray(list)) return undefined;
  const items: TodoItem[] = [];
  for (const raw of list) {
    if (typeof raw === 'string') {
      items.push({ content: oneLine(raw), status: 'pending' });
      continue;
    }
    if (typeof raw !== 'object' || raw === null) continue;
    const item = raw as Record<string, unknown>;
    const content = [item.content, item.step, item.title, item.text, item.description, item.task].find((value) => typeof value === 'string' && value.trim());
    if (typeof content === 'string') items.push({ content: oneLine(content), status: todoStatus(item.status ?? item.state, item.completed ?? item.done) });
  }
  return items;
}

/** Everything the offline summarizer states about `entries`; see SessionFacts. */
export function extractFacts(entries: readonly Entry[]): SessionFacts {
  const requests: string[] = [];
  const answered: boolean[] = [];
  const constraints: string[] = [];
  const decisions: string[] = [];
  const priorSummaries: string[] = [];
  const declined: DeclinedCall[] = [];
  const declinedCalls = new Set<string>();
  const tools = new Set<string>();
  const calls = new Map<string, ToolCallBlock>();
  const outcomes: Array<{ key: string; position: number; error?: ErrorFact }> = [];
  const markerRead: string[] = [];
  const markerModified: string[] = [];
  const shellActions: ToolAction[] = [];
  let todos: TodoItem[] | undefined;
  let lastRequestPosition = -1;
  let lastAssistant: Entry | undefined;
  let lastReply: string | undefined;
  let first: number | undefined;
  let last: number | undefined;

  entries.forEach((entry, position) => {
    if (entry.timestamp !== undefined && Number.isFinite(entry.timestamp)) {
      first = first === undefined ? entry.timestamp : Math.min(first, entry.timestamp);
      last = last === undefined ? entry.timestamp : Math.max(last, entry.timestamp);
    }
    if (entry.kind === 'event' || entry.flags?.sidechain) return;
    if (entry.kind === 'compaction' || entry.role === 'summary') {
      const text = entry.blocks.map(blockText).join('\n').trim();
      if (text) priorSummaries.push(text);
      markerRead.push(...(entry.marker?.readFiles ?? []));
      markerModified.push(...(entry.marker?.modifiedFiles ?? []));
      return;
    }
    if (entry.role === 'user' && !entry.flags?.injected) {
      const text = userWords(plainText(entry));
      if (text) {
        requests.push(text);
        answered.push(false);
        unionInto(constraints, extractConstraints(text));
        lastRequestPosition = position;
      }
    }
    if (entry.role === 'assistant' && !entry.flags?.synthetic) {
      lastAssistant = entry;
      const text = plainText(entry);
      if (text) {
        lastReply = text;
        if (answered.length > 0) answered[answered.length - 1] = true;
        for (const sentence of extractDecisions(text)) {
          const key = itemKey(sentence);
          const at = decisions.findIndex((existing) => itemKey(existing) === key);
          if (at >= 0) decisions.splice(at, 1);
          decisions.push(sentence);
        }
      }
    }
    if (entry.flags?.error) {
      const error: ErrorFact = { tool: 'API', message: errorLine(entry.blocks.map(blockText).join('\n')), entryId: entry.id, resolved: false };
      outcomes.push({ key: 'api\u0000', position, error });
    } else if (entry.role === 'assistant' && !entry.flags?.aborted && !entry.flags?.synthetic) {
      outcomes.push({ key: 'api\u0000', position });
    }
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        calls.set(block.callId, block);
        tools.add(shortToolName(block.name));
        const written = todosFromCall(block);
        if (written) todos = written;
      } else if (block.type === 'tool_result') {
        const call = calls.get(block.callId);
        const tool = call ? shortToolName(call.name) : (block.toolName ?? 'tool');
        const action = call ? toolActions(call)[0] : undefined;
        const key = actionKey(tool, action);
        const target = action?.category === 'command' ? action.command : action?.path;
        const shown = target ? clipLine(target, action?.category === 'command' ? MAX_COMMAND_CHARS : MAX_PATH_CHARS) : undefined;
        const text = blockText(block);
        const script = action?.category === 'command' ? action.command : undefined;
        if (block.isError && isDeclined(text)) {
          // The user refused the call: nothing failed, and nothing succeeded either.
          declinedCalls.add(block.callId);
          if (!declined.some((item) => item.tool === tool && item.target === shown)) declined.push({ tool, ...(shown ? { target: shown } : {}) });
        } else if (script !== undefined && isNoMatch(script, text)) {
          // A search that found nothing: neither a failure nor a success.
        } else if (block.isError || (script !== undefined && outputReportsFailure(script, text))) {
          const error: ErrorFact = { tool, ...(shown ? { target: shown } : {}), message: errorLine(text), entryId: entry.id, resolved: false };
          outcomes.push({ key, position, error });
        } else {
          outcomes.push({ key, position });
          // Files the command clearly wrote (a failed command is not trusted to have written anything).
          if (script !== undefined) for (const change of shellFileChanges(script)) shellActions.push({ tool, category: change.kind, path: change.path });
        }
      }
    }
  });

  // An error is resolved when the same thing succeeded later in the same entries.
  const lastSuccess = new Map<string, number>();
  for (const outcome of outcomes) if (!outcome.error) lastSuccess.set(outcome.key, outcome.position);
  const errors: ErrorFact[] = [];
  for (const outcome of outcomes) {
    if (!outcome.error) continue;
    outcome.error.resolved = (lastSuccess.get(outcome.key) ?? -1) > outcome.position;
    errors.push(outcome.error);
  }

  // A declined call did nothing: its file is not changed, its command not run.
  const actions = entries.filter((entry) => entry.kind !== 'event' && !entry.flags?.sidechain)
    .flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'tool_call' && !declinedCalls.has(block.callId) ? toolActions(block) : [])))
    .concat(shellActions);
  const lists = fileLists(actions);
  const modified = [...new Set([...lists.modified, ...markerModified])].sort();
  const read = [...new Set([...lists.read, ...markerRead])].filter((path) => !modified.includes(path)).sort();
  const changeMap = new Map<string, FileChange>();
  const commands: string[] = [];
  for (const action of actions) {
    if (action.category === 'command' && action.command) unionInto(commands, [clipLine(action.command, MAX_COMMAND_CHARS)]);
    if (!action.path || (action.category !== 'modified' && action.category !== 'created' && action.category !== 'deleted')) continue;
    const change = changeMap.get(action.path) ?? { path: action.path, edits: 0, created: false, deleted: false };
    if (action.category === 'modified') change.edits++;
    if (action.category === 'created') change.created = true;
    if (action.category === 'deleted') change.deleted = true;
    changeMap.set(action.path, change);
  }
  const changes = [...changeMap.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const lastRequest = requests[requests.length - 1];
  const lastAssistantPosition = lastAssistant ? entries.indexOf(lastAssistant) : -1;
  const lastRequestAnswered = lastRequest !== undefined && lastAssistant !== undefined && lastAssistantPosition > lastRequestPosition
    && plainText(lastAssistant).length > 0 && !lastAssistant.blocks.some((block) => block.type === 'tool_call');

  if (answered.length > 0) answered[answered.length - 1] = lastRequestAnswered;

  return {
    requests,
    answered,
    constraints,
    ...(lastRequest !== undefined ? { lastRequest } : {}),
    lastRequestAnswered,
    ...(lastReply !== undefined ? { lastReply } : {}),
    files: {
      read,
      modified,
      created: changes.filter((change) => change.created).map((change) => change.path),
      deleted: changes.filter((change) => change.deleted).map((change) => change.path),
    },
    changes,
    commands,
    errors,
    declined,
    succeeded: [...lastSuccess.keys()].sort(),
    ...(todos ? { todos } : {}),
    decisions: decisions.slice(-MAX_DECISIONS),
    ...(first !== undefined && last !== undefined ? { timeRange: { start: new Date(first).toISOString(), end: new Date(last).toISOString() } } : {}),
    tools: [...tools].sort(),
    priorSummaries,
  };
}
