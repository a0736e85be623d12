/**
 * A Factory Droid subagent's type and description, read from the Task call that started it. A
 * subagent session (a custom droid the Task tool ran) names its caller in its `session_start`
 * (`callingSessionId`, `callingToolUseId`); the caller's session file, `<callingSessionId>.jsonl` in
 * the same project folder, holds that call, whose input names the droid (`subagent_type`) and the
 * task (`description`, beside the `prompt` the subagent's first message repeats). The page (files
 * picked or dropped together) and the command line (the file beside) both read it here and apply it
 * with `withDroidTaskCall`, as Claude Code's `agent-<id>.meta.json` is applied (subagent-meta.ts).
 */
import { isRecord, parseJsonLoose, str } from './builder.ts';
import { withSubagentMeta } from './subagent-meta.ts';
import type { ImportResult } from './types.ts';

/** The session and call a subagent session names as its caller. */
export interface DroidCaller {
  sessionId: string;
  toolUseId: string;
}

/** What the caller's file says of the call: its type and description, or why they are (partly) unknown. */
export interface DroidTaskCall {
  agentType?: string;
  description?: string;
  /** Set when the call is missing or lacks a field: said with the parent file (and line). */
  problem?: string;
}

/** The caller a Droid session file's first line (`session_start`) names, or undefined for any other line. */
export function droidCallerOf(firstLine: string): DroidCaller | undefined {
  let value: unknown;
  try {
    value = JSON.parse(firstLine);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.type !== 'session_start') return undefined;
  const sessionId = str(value.callingSessionId);
  const toolUseId = str(value.callingToolUseId);
  return sessionId && toolUseId && sessionId !== str(value.id) ? { sessionId, toolUseId } : undefined;
}

/** The caller's session file name, beside the subagent's: `<callingSessionId>.jsonl`. */
export function droidCallerFileName(caller: Pick<DroidCaller, 'sessionId'>): string {
  return `${caller.sessionId}.jsonl`;
}

/**
 * The Task call `toolUseId` of the caller's session file `parentText` (the session store's
 * `tool_use` block, or a stream-json `tool_call` line). Only lines holding the id are parsed.
 */
export function readDroidTaskCall(parentText: string, parentFileName: string, toolUseId: string): DroidTaskCall {
  const needle = JSON.stringify(toolUseId);
  let lineNo = 1;
  let counted = 0;
  for (let at = parentText.indexOf(needle); at >= 0; ) {
    const start = parentText.lastIndexOf('\n', at) + 1;
    const newline = parentText.indexOf('\n', at);
    const end = newline < 0 ? parentText.length : newline;
    for (let i = parentText.indexOf('\n', counted); i >= 0 && i < start; i = parentText.indexOf('\n', i + 1)) lineNo++;
    counted = start;
    const call = callOnLine(parentText.slice(start, end), toolUseId);
    if (call) return fieldsOf(call, `${parentFileName} line ${lineNo}`, toolUseId);
    at = parentText.indexOf(needle, end);
  }
  return { problem: `${parentFileName} holds no tool call ${needle} (the call the subagent's callingToolUseId names); its type and description are unknown` };
}

/** The subagent's import with the call's type and description in its link (the description titles it when it had no title); a problem as an issue naming the file. */
export function withDroidTaskCall(result: ImportResult, call: DroidTaskCall): ImportResult {
  const described = withSubagentMeta(result, { ...(call.agentType ? { agentType: call.agentType } : {}), ...(call.description ? { description: call.description } : {}) });
  if (call.problem === undefined) return described;
  return { ...described, issues: [...described.issues, { line: 0, kind: 'malformed', message: call.problem }], issueCount: (result.issueCount ?? result.issues.length) + 1 };
}

/** The call `toolUseId` on one line: its tool name and input, or undefined when the line holds none. */
function callOnLine(line: string, toolUseId: string): { name: string | undefined; input: unknown } | undefined {
  // Not JSON comes back as the text itself, which is no record.
  const value = parseJsonLoose(line);
  if (!isRecord(value)) return undefined;
  if (value.type === 'tool_call' && (value.id === toolUseId || value.toolCallId === toolUseId)) return { name: str(value.toolName), input: value.parameters };
  const content = isRecord(value.message) ? value.message.content : undefined;
  if (value.type !== 'message' || !Array.isArray(content)) return undefined;
  const block = content.find((item) => isRecord(item) && item.type === 'tool_use' && item.id === toolUseId) as Record<string, unknown> | undefined;
  return block ? { name: str(block.name), input: block.input } : undefined;
}

function fieldsOf(call: { name: string | undefined; input: unknown }, where: string, toolUseId: string): DroidTaskCall {
  const input = isRecord(call.input) ? call.input : {};
  const agentType = str(input.subagent_type);
  const description = str(input.description);
  const missing = [agentType ? undefined : '"subagent_type"', description ? undefined : '"description"'].filter((key) => key !== undefined);
  const fields = { ...(agentType ? { agentType } : {}), ...(description ? { description } : {}) };
  if (missing.length === 0) return fields;
  return { ...fields, problem: `${where}: the ${call.name ?? 'tool'} call ${JSON.stringify(toolUseId)} that started this subagent has no ${missing.join(' or ')}; the subagent's ${missing.length === 2 ? 'type and description are' : missing[0] === '"subagent_type"' ? 'type is' : 'description is'} unknown` };
}
