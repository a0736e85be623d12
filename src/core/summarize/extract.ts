/**
 * Facts the offline summarizer can state for certain about a run of entries: what the user asked
 * and insisted on, which files and commands the tools touched, which errors happened and whether a
 * later call fixed them, the last todo list, the time range and the assistant's stated decisions.
 * Pure and deterministic: the same entries always give the same facts.
 */
import { blockText, type Entry, type ToolCallBlock } from '../journal/entry.ts';
import { fileLists, toolActions, type ToolAction } from '../compaction/tool-actions.ts';
import { clipHead, clipLine, oneLine } from './clip.ts';
import { userWords } from './harness.ts';
import { typedText } from '../reading/pasted.ts';
import { readRefusal } from '../reading/refusal.ts';
import { asksForWork, builtInAsk, readSlashCommand, type SlashCommand } from '../reading/slash-command.ts';
import { itemKey } from './item-key.ts';
import { extractConstraints, extractDecisions } from './sentences.ts';
import { isNoMatch, outputReportsFailure, shellFileChanges } from './shell.ts';

export { clipHead, clipLine, clipWords, oneLine } from './clip.ts';
export { commandKey, errorKeys, errorLine, failureTargetKeys, MAX_COMMAND_CHARS, MAX_ERROR_CHARS, MAX_PATH_CHARS, successTargetKeys } from './error-keys.ts';
import { commandKey, errorLine, failureTargetKeys, MAX_COMMAND_CHARS, MAX_PATH_CHARS, successTargetKeys } from './error-keys.ts';
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
  /** What the user said when declining, one line (also listed as a constraint). */
  reason?: string;
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
  /** True when the entries end with the assistant's plain answer (no pending tool call), whether or not they hold a request. */
  endsAnswered: boolean;
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

/** Longest refusal reason kept as a constraint, characters. */
export const MAX_REASON_CHARS = 300;
/** A result longer than this, not flagged as an error, is output, never a refusal. */
const MAX_REFUSAL_SCAN = 600;

/** The request a work-asking slash command makes: `/init: analyze the codebase …`, from its prompt or what the command is known to ask. */
export function commandRequest(slash: SlashCommand, prompt?: string): string {
  const typed = slash.args ? `${slash.name} ${slash.args}` : slash.name;
  const asks = builtInAsk(slash) ?? (prompt !== undefined ? clipHead(prompt, MAX_COMMAND_PROMPT_CHARS) : undefined);
  return asks !== undefined ? `${typed}: ${asks}` : typed;
}

/** Longest quote of a slash command's own prompt in its request, characters. */
export const MAX_COMMAND_PROMPT_CHARS = 300;

/** Most recent decision sentences kept. */
export const MAX_DECISIONS = 20;

const TODO_TOOLS = /^(todowrite|todo_write|write_todos|update_plan|todo|update_todos)$/i;

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
  const outcomes: Array<{ keys: string[]; position: number; error?: ErrorFact }> = [];
  // A work-asking slash command whose prompt may follow as an injected message.
  let command: { slash: SlashCommand; request?: number } | undefined;
  // A call was just refused: what the user types next, before the assistant speaks, is their reason.
  let refused = false;
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
    if (entry.role === 'user') {
      const raw = plainText(entry);
      const slash = raw ? readSlashCommand(raw) : undefined;
      const text = entry.flags?.injected || slash ? undefined : userWords(raw);
      const ask = (request: string): void => {
        requests.push(request);
        answered.push(false);
        lastRequestPosition = position;
      };
      if (slash) {
        // A harness command (`/clear`, `/compact`) asks for nothing, and what the harness sends after it is no prompt of it.
        command = asksForWork(slash, true) ? { slash } : undefined;
        if (command && asksForWork(slash)) {
          command.request = requests.length;
          ask(commandRequest(slash));
        }
      } else if (entry.flags?.injected && command) {
        // The command's own prompt (Claude Code sends it as a separate message): it says what the command asks.
        const words = raw ? userWords(raw) : undefined;
        if (words) {
          if (command.request === undefined) ask(commandRequest(command.slash, words));
          else if (!builtInAsk(command.slash)) requests[command.request] = commandRequest(command.slash, words);
          command = undefined;
        }
      } else if (text) {
        command = undefined;
        ask(text);
        // Only what the user typed can be a constraint: pasted logs, errors and documents are material.
        const typed = typedText(text);
        unionInto(constraints, extractConstraints(typed));
        if (refused && oneLine(typed)) unionInto(constraints, [clipLine(typed, MAX_REASON_CHARS)]);
        refused = false;
      }
    } else if (entry.role === 'assistant') {
      command = undefined;
      if (plainText(entry)) refused = false;
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
      outcomes.push({ keys: ['api\u0000'], position, error });
    } else if (entry.role === 'assistant' && !entry.flags?.aborted && !entry.flags?.synthetic) {
      outcomes.push({ keys: ['api\u0000'], position });
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
        const refusal = block.isError || text.length < MAX_REFUSAL_SCAN ? readRefusal(text) : undefined;
        if (refusal) {
          // The user refused the call: nothing failed, and nothing succeeded either; their reason steers the work.
          declinedCalls.add(block.callId);
          refused = true;
          const reason = refusal.reason !== undefined ? clipLine(refusal.reason, MAX_REASON_CHARS) : undefined;
          if (reason !== undefined) unionInto(constraints, [reason]);
          if (!declined.some((item) => item.tool === tool && item.target === shown && item.reason === reason)) {
            declined.push({ tool, ...(shown ? { target: shown } : {}), ...(reason !== undefined ? { reason } : {}) });
          }
        } else if (script !== undefined && block.isError && isNoMatch(script, text)) {
          // A search that exited 1 finding nothing: neither a failure nor a success (one the tool ran without error succeeded).
        } else if (block.isError || (script !== undefined && outputReportsFailure(script, text))) {
          const error: ErrorFact = { tool, ...(shown ? { target: shown } : {}), message: errorLine(text), entryId: entry.id, resolved: false };
          outcomes.push({ keys: [key, ...(script !== undefined ? failureTargetKeys(script, text) : [])], position, error });
        } else {
          outcomes.push({ keys: script !== undefined ? [key, ...successTargetKeys(script)] : [key], position });
          // Files the command clearly wrote (a failed command is not trusted to have written anything).
          if (script !== undefined) for (const change of shellFileChanges(script)) shellActions.push({ tool, category: change.kind, path: change.path });
        }
      }
    }
  });

  // An error is resolved when the same thing succeeded later in the same entries.
  const lastSuccess = new Map<string, number>();
  for (const outcome of outcomes) if (!outcome.error) for (const key of outcome.keys) lastSuccess.set(key, outcome.position);
  const errors: ErrorFact[] = [];
  for (const outcome of outcomes) {
    if (!outcome.error) continue;
    outcome.error.resolved = outcome.keys.some((key) => (lastSuccess.get(key) ?? -1) > outcome.position);
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
  const endsAnswered = lastAssistant !== undefined && plainText(lastAssistant).length > 0 && !lastAssistant.blocks.some((block) => block.type === 'tool_call')
    && !entries.slice(lastAssistantPosition + 1).some((entry) => entry.role === 'user' && !entry.flags?.injected && userWords(plainText(entry)) !== undefined);

  return {
    requests,
    answered,
    constraints,
    ...(lastRequest !== undefined ? { lastRequest } : {}),
    lastRequestAnswered,
    endsAnswered,
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
