/**
 * Where a scripted model stands in its script when a stored live session is resumed (after a
 * reload), read from the session's journal, so the next request takes the step after the last one
 * answered instead of the script's first. Each recorded reply is matched to the step that made it
 * (same text, thinking and tool calls, its `match` fitting the user text of the call), and each
 * compaction made after a context overflow to an overflow step. The model always takes the first
 * unused step that fits, so a fitting step before the one found was taken by a call the journal
 * does not keep (a stopped reply, a failed call) and is counted as used too. Such calls after the
 * last recorded one leave no trace in the journal: the number of calls the session made, when it
 * was stored, accounts for them.
 */
import type { Entry } from '../journal/entry.ts';
import { activeLeaf } from '../journal/tree.ts';
import { BRANCH_SUMMARY_SOURCE, isCompactionRecord } from './journal-writer.ts';

/** What the position needs of a script step (`ScriptStep` of scripted-model.ts). */
export interface StepShape {
  match?: string;
  text?: string;
  thinking?: string;
  toolCalls?: ReadonlyArray<{ name: string; input?: unknown }>;
  error?: string;
}

/** Whether a step may answer a call whose last user text is `userText` (its `match`, case-insensitive). */
export function stepFits(step: StepShape, userText: string): boolean {
  return step.match === undefined || userText.toLowerCase().includes(step.match.toLowerCase());
}

export interface ScriptPosition {
  /** One flag per step: answered already. */
  used: boolean[];
  /** The number the next tool call without an id in the script gets (`call_<n>`). */
  nextCallId: number;
}

/**
 * The steps the calls recorded in `journal` took, and the next generated call id. `calls`: the
 * model calls the session made (stopped and failed ones included), when known; calls beyond those
 * the journal explains took the next steps that fit the user text at the session's leaf.
 */
export function scriptPosition(steps: readonly StepShape[], journal: readonly Entry[], calls = 0): ScriptPosition {
  const used = new Array<boolean>(steps.length).fill(false);
  const byId = new Map(journal.map((entry) => [entry.id, entry]));
  let nextCallId = 1;
  for (const entry of journal) {
    const overflow = isCompactionRecord(entry) && entry.marker?.trigger === 'overflow';
    if (!overflow && !(entry.role === 'assistant' && entry.kind === 'message')) continue;
    const userText = userTextFrom(entry.parentId, byId);
    const made = (step: StepShape) => (overflow ? step.error === 'overflow' : step.error === undefined && sameReply(step, entry));
    let found = steps.findIndex((step, i) => !used[i] && stepFits(step, userText) && made(step));
    // The user text is read from the branch: a compaction may have left the call another one.
    if (found < 0) found = steps.findIndex((step, i) => !used[i] && made(step));
    if (found < 0) continue;
    for (let i = 0; i < found; i++) if (!used[i] && stepFits(steps[i]!, userText)) used[i] = true;
    used[found] = true;
    for (const block of entry.blocks) {
      const n = block.type === 'tool_call' ? /^call_(\d+)(?:-|$)/.exec(block.callId) : null;
      if (n) nextCallId = Math.max(nextCallId, Number(n[1]) + 1);
    }
  }
  const leafText = userTextFrom(activeLeaf(journal)?.id ?? null, byId);
  for (let taken = used.filter(Boolean).length; taken < calls; taken++) {
    const next = steps.findIndex((step, i) => !used[i] && stepFits(step, leafText));
    if (next < 0) break;
    used[next] = true;
  }
  return { used, nextCallId };
}

/** Whether `entry` (an assistant reply as the journal writer records it) is what `step` answers. */
function sameReply(step: StepShape, entry: Entry): boolean {
  let text = '';
  let thinking = '';
  const calls: string[] = [];
  for (const block of entry.blocks) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') thinking += block.text;
    else if (block.type === 'tool_call') calls.push(`${block.name}:${JSON.stringify(block.input)}`);
  }
  const scripted = (step.toolCalls ?? []).map((call) => `${call.name}:${JSON.stringify(call.input ?? {})}`);
  return text === (step.text ?? '') && thinking === (step.thinking ?? '') && calls.length === scripted.length && calls.every((call, i) => call === scripted[i]);
}

/**
 * The user text a call made after entry `id` was matched against: the nearest user message (or
 * branch summary) from there up its branch, as the scripted model reads the last user item of the context.
 */
function userTextFrom(id: string | null, byId: ReadonlyMap<string, Entry>): string {
  const seen = new Set<string>();
  let current = id === null ? undefined : byId.get(id);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    const user = current.role === 'user' && current.kind === 'message' && !current.flags?.injected;
    if (user || current.marker?.source === BRANCH_SUMMARY_SOURCE) {
      const text = current.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
      if (text.length > 0) return text;
    }
    current = current.parentId === null ? undefined : byId.get(current.parentId);
  }
  return '';
}
