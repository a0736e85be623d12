/**
 * One tool call of a reply, run: the loop's own tools (`query_history` over the branch,
 * `summarize_context` which asks for a compaction before the next call, `todo_write` and
 * `todo_read` over the branch's todo list) or one of the folder
 * tools. A call to an unknown tool, a tool that throws and a call Stop cut short all end in an
 * error result, so every call in the journal has its result. Also: the tools by name, and the
 * race that makes Stop end a model request at once.
 */
import type { ContextEntry } from '../compaction/types.ts';
import type { BranchView } from './branch-context.ts';
import { QUERY_HISTORY, queryHistory, SUMMARIZE_CONTEXT, summarizeInstruction } from './loop-tools.ts';
import { TODO_READ, TODO_WRITE, todoRead, todoWrite } from './todos.ts';
import { modelStopped, type AgentTool, type ModelToolCall, type ToolOutcome } from './types.ts';

/** What a tool run needs from its session. */
export interface ToolRunHost {
  readonly tools: ReadonlyMap<string, AgentTool>;
  requested: { instruction?: string } | undefined;
  /** The context of the last request: entries sent there as they are count as still in view. */
  readonly sent: readonly ContextEntry[];
  view(): BranchView;
  phase(phase: 'tool'): void;
}

/** The result of a call Stop prevented or interrupted. */
export const STOPPED_OUTCOME: ToolOutcome = { ok: false, text: '', error: 'Not run: the user stopped the turn.' };

export async function runToolCall(host: ToolRunHost, call: ModelToolCall, signal: AbortSignal): Promise<ToolOutcome> {
  if (signal.aborted) return STOPPED_OUTCOME;
  if (call.name === QUERY_HISTORY) {
    return queryHistory(call.input, host.view().messages, host.sent);
  }
  if (call.name === SUMMARIZE_CONTEXT) {
    const instruction = summarizeInstruction(call.input);
    host.requested = instruction !== undefined ? { instruction } : {};
    return { ok: true, text: 'Compaction requested: it runs before your next call, and older history is then replaced by a summary (query_history still finds its exact text).' };
  }
  if (call.name === TODO_WRITE) return todoWrite(call.input);
  if (call.name === TODO_READ) return todoRead(host.view().messages);
  const tool = host.tools.get(call.name);
  if (!tool) {
    const names = [...host.tools.keys(), ...LOOP_TOOLS].join(', ');
    return { ok: false, text: '', error: `Unknown tool "${call.name}": the tools are ${names}.` };
  }
  host.phase('tool');
  let stop: (() => void) | undefined;
  const stopped = new Promise<ToolOutcome>((resolve) => {
    stop = () => resolve(STOPPED_OUTCOME);
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    const running = tool.run(call.input, { signal }).catch((error: unknown): ToolOutcome => (signal.aborted
      ? STOPPED_OUTCOME
      : { ok: false, text: '', error: `${call.name} failed: ${error instanceof Error ? error.message : String(error)}` }));
    return await Promise.race([running, stopped]);
  } finally {
    if (stop) signal.removeEventListener('abort', stop);
  }
}

/** The tools the loop adds to the folder's, by name. */
export const LOOP_TOOLS: readonly string[] = [QUERY_HISTORY, SUMMARIZE_CONTEXT, TODO_WRITE, TODO_READ];

/** The folder tools by name; a repeated name or one of the loop's own is refused. */
export function toolsByName(tools: readonly AgentTool[]): Map<string, AgentTool> {
  const byName = new Map<string, AgentTool>();
  for (const tool of tools) {
    if (LOOP_TOOLS.includes(tool.spec.name) || byName.has(tool.spec.name)) {
      throw new Error(`Tool name "${tool.spec.name}" is given twice or is one the loop adds itself (${LOOP_TOOLS.join(', ')}).`);
    }
    byName.set(tool.spec.name, tool);
  }
  return byName;
}

/** Rejects with CancelledError as soon as `signal` aborts, whatever `work` does with it. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(modelStopped());
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(modelStopped());
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

