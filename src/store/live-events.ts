/**
 * What the live session's events do to the tab's view of it (a pure reducer over `LiveRuntime`),
 * and the run record a compaction of the loop is stored as, so the Runs view lists it like a run
 * made in the Compact tab.
 */
import type { AgentEvent } from '../core/agent/types.ts';
import type { CompactedContext, Plan, StrategyId } from '../core/compaction/types.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import { priceFor, usageCost } from '../core/pricing.ts';
import type { CompactionRow, StoredContextEntry } from '../db/schema.ts';
import type { LiveRuntime, LiveToolRow } from './live-store.ts';

/** Characters of a tool's output kept for the view. */
const PREVIEW_CHARS = 600;
/** Notes kept in the view (the newest). */
const MAX_NOTES = 20;

/** The change an event makes to the runtime; `now` is the clock (epoch ms). */
export function applyLiveEvent(runtime: LiveRuntime, event: AgentEvent, now: number): Partial<LiveRuntime> {
  switch (event.type) {
    case 'delta': {
      const delta = event.delta;
      if (delta.type === 'tool_call') return { tools: [...runtime.tools, { id: delta.id, name: delta.name }] };
      const started = runtime.streamStartedAt ?? now;
      const chars = runtime.streamedChars + delta.text.length;
      const seconds = (now - started) / 1000;
      return {
        wait: undefined,
        ...(delta.type === 'text' ? { streaming: runtime.streaming + delta.text } : { thinking: runtime.thinking + delta.text }),
        streamStartedAt: started,
        streamedChars: chars,
        ...(seconds > 0.2 ? { tokensPerSecond: chars / 4 / seconds } : {}),
      };
    }
    case 'call': {
      const usage = event.usage ? { input: runtime.usage.input + event.usage.input, output: runtime.usage.output + event.usage.output } : runtime.usage;
      const priced = priceFor(event.model);
      const callCost = event.usage && priced ? usageCost(event.usage, priced.price) : undefined;
      return {
        wait: undefined, calls: runtime.calls + 1, usage, model: event.model, contextTokens: event.contextTokens,
        costUsd: callCost === undefined ? runtime.costUsd : (runtime.costUsd ?? 0) + callCost,
        streaming: '', thinking: '', streamedChars: 0, streamStartedAt: undefined,
      };
    }
    case 'tool': {
      const row: LiveToolRow = {
        id: event.call.id, name: event.call.name, input: event.call.input, ok: event.outcome.ok,
        ...(event.outcome.path !== undefined ? { path: event.outcome.path } : {}),
        ...(event.outcome.error !== undefined ? { error: event.outcome.error } : {}),
        preview: event.outcome.text.slice(0, PREVIEW_CHARS),
      };
      const known = runtime.tools.some((tool) => tool.id === row.id);
      return { tools: known ? runtime.tools.map((tool) => (tool.id === row.id ? row : tool)) : [...runtime.tools, row] };
    }
    case 'progress':
      return { progress: event.progress.phase === 'done' ? undefined : event.progress };
    case 'compaction':
      return { lastCompaction: `${event.trigger} at call ${event.atCall}: ${event.tokensBefore.toLocaleString('en-US')} → ${event.tokensAfter.toLocaleString('en-US')} tokens`, progress: undefined };
    case 'branch-summary':
      return { branchSummary: event.entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n') };
    case 'wait':
      return { wait: event.wait };
    case 'note':
      return { notes: [...runtime.notes, event.text].slice(-MAX_NOTES) };
    case 'state':
      return { busy: event.busy, phase: event.phase, ...(event.phase !== 'compacting' ? { progress: undefined } : {}), ...(event.phase !== 'calling' ? { wait: undefined } : {}) };
    case 'entry':
      // A finished reply is in the journal now: the streamed copy is no longer needed.
      return event.entry.role === 'assistant' ? { streaming: '', thinking: '' } : {};
  }
}

export interface LiveRunArgs {
  conversationId: string;
  strategy: StrategyId;
  counter: CounterId;
  contextWindow: number;
  leafId: string | null;
  createdAt: number;
}

/**
 * The loop's compaction as a stored run, like a run of the Compact tab: the strategy's plan (one
 * fate per entry of the branch it compacted, with their journal indices), the context, the record.
 */
export function liveRun(event: Extract<AgentEvent, { type: 'compaction' }>, args: LiveRunArgs): Omit<CompactionRow, 'importId'> {
  const { record, context } = event;
  const plan: Plan = { ...event.plan, notes: [...event.plan.notes, `Compacted by the live session at model call ${event.atCall} (${event.trigger}).`] };
  return {
    id: crypto.randomUUID(),
    conversationId: args.conversationId,
    createdAt: args.createdAt,
    strategy: args.strategy,
    ...(args.leafId ? { leafId: args.leafId } : {}),
    counter: args.counter,
    contextWindow: args.contextWindow,
    plan,
    context: storedContext(context),
    summaries: event.summaries,
    previous: context.previous,
    record,
    journalIndex: event.journalIndex,
  };
}

/** Journal entries by id (never copied), the entries the strategy made in full. */
function storedContext(context: CompactedContext): StoredContextEntry[] {
  return context.entries.map((item) =>
    item.origin === 'journal' ? { origin: 'journal', entryId: item.entry.id } : { origin: item.origin, entry: item.entry, ...(item.replaces ? { replaces: item.replaces } : {}) },
  );
}
