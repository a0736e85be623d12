/**
 * Subagents are conversations of their own (FORMATS.md §1, pitfall 7). A Claude Code file whose
 * every entry is sidechain traffic is a subagent's transcript (`agent-<id>.jsonl`): its entries
 * become the conversation's main thread, linked to the parent session. A session file with inline
 * sidechain lines (CLI 1.0) keeps its main thread and gives each sidechain tree to a thread of its
 * own, matched to the `Task` call whose prompt started it.
 */
import { entryText, type Entry, type EntryFlags } from '../journal/entry.ts';
import { rootFinder } from '../journal/tree.ts';
import { isRecord, str } from './builder.ts';
import type { ImportResult, SubagentLink } from './types.ts';

/** The tools that start a subagent: `Task` (up to 2.0) and `Agent` (2.1). */
const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);

/**
 * Splits a Claude Code import by thread. `agentId` is the lines' own `agentId` field (2.0 and later).
 * A file without sidechain entries is returned as it is.
 */
export function splitSidechainThreads(result: ImportResult, agentId: string | undefined): ImportResult {
  const sidechain = result.entries.filter((entry) => entry.flags?.sidechain === true);
  if (sidechain.length === 0) return result;
  const main = result.entries.filter((entry) => entry.flags?.sidechain !== true);
  const parentSessionId = result.meta.sessionId;
  if (!main.some((entry) => entry.kind !== 'event')) {
    // A subagent's own transcript: the sidechain is this conversation's thread.
    const link: SubagentLink = { ...(parentSessionId ? { parentSessionId } : {}), ...(agentId ? { agentId } : {}) };
    return { ...result, entries: reindex(result.entries), meta: { ...result.meta, subagent: link } };
  }
  const calls = subagentCalls(main);
  const threads = groupByRoot(sidechain).map((entries, i): ImportResult => {
    const prompt = firstPrompt(entries);
    const call = prompt === undefined ? undefined : calls.find((candidate) => candidate.prompt === prompt.trim());
    const link: SubagentLink = {
      ...(parentSessionId ? { parentSessionId } : {}),
      agentId: `sidechain-${i + 1}`,
      ...(call?.agentType ? { agentType: call.agentType } : {}),
      ...(call?.description ? { description: call.description } : {}),
      ...(call ? { parentToolUseId: call.callId } : {}),
    };
    const model = entries.find((entry) => entry.model !== undefined)?.model;
    return {
      format: result.format,
      entries: reindex(entries),
      issues: [],
      meta: {
        ...(call?.description ? { title: call.description } : {}),
        ...(parentSessionId ? { sessionId: parentSessionId } : {}),
        ...(result.meta.cwd ? { cwd: result.meta.cwd } : {}),
        ...(result.meta.gitBranch ? { gitBranch: result.meta.gitBranch } : {}),
        ...(result.meta.version ? { version: result.meta.version } : {}),
        ...(model ? { model } : {}),
        subagent: link,
      },
      lines: sourceLines(entries),
      ignoredLines: 0,
      issueCount: 0,
      blankLines: 0,
    };
  });
  return { ...result, entries: reindex(main), threads };
}

interface SubagentCall {
  callId: string;
  prompt: string;
  description?: string;
  agentType?: string;
}

/** The main thread's `Task`/`Agent` calls, with the prompt each one gave its subagent. */
function subagentCalls(entries: readonly Entry[]): SubagentCall[] {
  const calls: SubagentCall[] = [];
  for (const entry of entries) {
    for (const block of entry.blocks) {
      if (block.type !== 'tool_call' || !SUBAGENT_TOOLS.has(block.name) || !isRecord(block.input)) continue;
      const prompt = str(block.input.prompt);
      if (prompt === undefined) continue;
      const description = str(block.input.description);
      const agentType = str(block.input.subagent_type);
      calls.push({ callId: block.callId, prompt: prompt.trim(), ...(description ? { description } : {}), ...(agentType ? { agentType } : {}) });
    }
  }
  return calls;
}

/** The text of a thread's first user message: the prompt its `Task` call sent. */
function firstPrompt(entries: readonly Entry[]): string | undefined {
  const first = entries.find((entry) => entry.role === 'user' && entry.kind === 'message');
  return first === undefined ? undefined : entryText(first);
}

/** Sidechain entries grouped by the root of their tree, groups in the order their roots appear. */
function groupByRoot(entries: readonly Entry[]): Entry[][] {
  const root = rootFinder(entries);
  const groups = new Map<string, Entry[]>();
  for (const entry of entries) {
    const key = root(entry);
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  }
  return [...groups.values()];
}

/** Copies of `entries` numbered from 0, without the sidechain flag; a parent outside them becomes a root. */
function reindex(entries: readonly Entry[]): Entry[] {
  const ids = new Set(entries.map((entry) => entry.id));
  return entries.map((entry, index) => {
    const copy: Entry = { ...entry, index, parentId: entry.parentId !== null && ids.has(entry.parentId) ? entry.parentId : null };
    if (entry.flags?.sidechain) {
      const flags: EntryFlags = { ...entry.flags };
      delete flags.sidechain;
      if (Object.keys(flags).length > 0) copy.flags = flags;
      else delete copy.flags;
    }
    return copy;
  });
}

/** Source lines the entries were read from. */
function sourceLines(entries: readonly Entry[]): number {
  let lines = 0;
  for (const entry of entries) lines += (entry.lineEnd ?? entry.line) - entry.line + 1;
  return lines;
}
