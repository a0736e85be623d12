/**
 * Small factories for strategy tests: entries from a compact description, a CompactionInput with
 * counts from any counter, fake summarizers (echo, failing, slow), and the prompt files from disk
 * are read by the tests themselves (node:fs), not here: this module stays pure.
 */
import type { Block, Entry, Role } from '../journal/entry.ts';
import { getEstimator, type TokenCounter } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { TokenIndex } from '../tokens/prefix-sums.ts';
import type { Summarizer, SummaryRequest, SummaryResponse } from './summarizer.ts';
import type { CompactionInput, PreviousCompaction } from './types.ts';

export type Spec =
  | { user: string }
  | { assistant: string; calls?: Array<{ id: string; name: string; input: unknown }> }
  | { tool: string; callId: string; error?: boolean; name?: string }
  | { system: string };

/**
 * A coding turn: the user asks, the assistant calls `tool` on `path` (call id `c<n>`), the result,
 * a final answer. The result is `size` chars/4 tokens, the question and the answer a quarter of it each.
 */
export function codingTurn(n: number, tool: string, path: string, size = 1000): Spec[] {
  const tok = (tokens: number) => 'x'.repeat(4 * tokens);
  return [
    { user: `task ${n} ${tok(size / 4)}` },
    { assistant: `working on ${n}`, calls: [{ id: `c${n}`, name: tool, input: { path } }] },
    { tool: tok(size), callId: `c${n}` },
    { assistant: `done ${n} ${tok(size / 4)}` },
  ];
}

/** Entries from specs, chained linearly, ids e0, e1, ... */
export function makeEntries(specs: readonly Spec[]): Entry[] {
  return specs.map((spec, index) => {
    let role: Role;
    const blocks: Block[] = [];
    if ('user' in spec) {
      role = 'user';
      blocks.push({ type: 'text', text: spec.user });
    } else if ('assistant' in spec) {
      role = 'assistant';
      if (spec.assistant) blocks.push({ type: 'text', text: spec.assistant });
      for (const call of spec.calls ?? []) blocks.push({ type: 'tool_call', callId: call.id, name: call.name, input: call.input, resultEntryId: undefined });
    } else if ('tool' in spec) {
      role = 'tool';
      blocks.push({ type: 'tool_result', callId: spec.callId, content: [{ type: 'text', text: spec.tool }], isError: spec.error ?? false, ...(spec.name ? { toolName: spec.name } : {}) });
    } else {
      role = 'system';
      blocks.push({ type: 'text', text: spec.system });
    }
    for (const block of blocks) if (block.type === 'tool_call') delete block.resultEntryId;
    return { id: `e${index}`, index, parentId: index === 0 ? null : `e${index - 1}`, role, kind: 'message', blocks, sourceType: 'test', line: index + 1, timestamp: 1_700_000_000_000 + index * 1000 };
  });
}

/** Links calls and results by callId in place (as the importer does). */
export function linkEntries(entries: Entry[]): Entry[] {
  const calls = new Map<string, Entry>();
  for (const entry of entries) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.set(block.callId, entry);
      if (block.type === 'tool_result') {
        const call = calls.get(block.callId);
        if (call) {
          block.callEntryId = call.id;
          for (const b of call.blocks) if (b.type === 'tool_call' && b.callId === block.callId) b.resultEntryId = entry.id;
        }
      }
    }
  }
  return entries;
}

/** A CompactionInput over entries, counted with `counter` (chars/4 by default). */
export function makeInput(entries: readonly Entry[], options: { counter?: TokenCounter; contextWindow?: number; previous?: PreviousCompaction; pinned?: Set<string>; now?: number; counts?: number[] } = {}): CompactionInput {
  const counter = options.counter ?? getEstimator('chars4');
  const counts = options.counts ?? Array.from(countEntries(entries, counter).totals);
  return {
    entries,
    tokens: new TokenIndex(counts),
    counter,
    contextWindow: options.contextWindow ?? 200_000,
    ...(options.previous ? { previous: options.previous } : {}),
    ...(options.pinned ? { pinned: options.pinned } : {}),
    now: options.now ?? 1_700_000_000_000,
  };
}

/** A summarizer that answers `SUMMARY(<task>: <n> entries)` and records every request. */
export function echoSummarizer(): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    id: 'echo',
    label: 'Echo (tests)',
    requests,
    summarize(request): Promise<SummaryResponse> {
      requests.push(request);
      return Promise.resolve({ text: `SUMMARY(${request.promptId}: ${request.entries.length} entries)`, model: 'echo', usage: { input: request.prompt.length, output: 10 } });
    },
  };
}

/** A summarizer that fails with `error`. */
export function failingSummarizer(error: Error): Summarizer {
  return { id: 'failing', label: 'Failing (tests)', summarize: () => Promise.reject(error) };
}

/** A summarizer that never answers until aborted (for timeout and cancel tests). */
export function hangingSummarizer(): Summarizer {
  return {
    id: 'hanging',
    label: 'Hanging (tests)',
    summarize: (request) => new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason as Error), { once: true })),
  };
}
