/**
 * The live agent session: one conversation tree over a folder, driven one user turn at a time.
 * A turn calls the model, runs the tool calls of each reply in order, and calls again until the
 * model answers without tools. Before every call the strategy's trigger is asked (A1) and the
 * history compacted when it fires; a context overflow is answered by one forced compaction and
 * one retry, a second one fails the turn as "recovery failed" (P1); Stop aborts the request and
 * the tool at once and keeps nothing half-written. Moving to another branch summarizes the one
 * left behind (P7). Every entry is reported once as an `entry` event, in order.
 */
import type { Strategy } from '../compaction/strategy.ts';
import type { ContextEntry } from '../compaction/types.ts';
import { withUserWindow } from '../compaction/window-option.ts';
import type { Entry } from '../journal/entry.ts';
import { formatTime } from '../journal/clock.ts';
import { activeLeaf } from '../journal/tree.ts';
import { getStrategy } from '../strategies/index.ts';
import { LAYERED_OPTIONS } from '../strategies/layered.ts';
import type { CompressionLimits } from '../strategies/layered/tool-compression.ts';
import { parseOptions } from '../compaction/options.ts';
import { assembleRequest } from './assemble.ts';
import { describeTool } from './tool-prompts.ts';
import { branchView, historyContext, pathOf, TokenCache, type BranchView, type CompactionState } from './branch-context.ts';
import { abandonedPart, branchSummaryOf, summarizeBranch, type BranchSummaryText } from './branch-summary.ts';
import { askBranchMove, branchMoveEvent } from '../hooks/branch-move.ts';
import { notifyAfterCompact } from '../hooks/user-hooks.ts';
import { readCodeLaw } from './code-law.ts';
import { compactBranch, strategyInput } from './compact.ts';
import { fallbackNote, overflowFallback, recoveryFailedMessage } from './overflow-recovery.ts';
import { BRANCH_SUMMARY_SOURCE, COMPACTION_SOURCE, JournalWriter } from './journal-writer.ts';
import { QUERY_HISTORY_SPEC, SUMMARIZE_CONTEXT_SPEC } from './loop-tools.ts';
import { TODO_READ_SPEC, TODO_WRITE_SPEC } from './todos.ts';
import { withMentions } from './mentions.ts';
import { recordContext } from './recorded-context.ts';
import { renderSystemPrompt } from './system-prompt.ts';
import { WakeTimer } from './wake-timer.ts';
import { wakeAfterCall } from '../replay/trigger-loop.ts';
import { abortable, runToolCall, toolsByName, type ToolRunHost } from './tool-run.ts';
import {
  ContextOverflowError, type AgentEvent, type AgentSessionApi, type AgentSessionOptions, type AgentTool,
  type ModelReply, type ModelRequest, type TurnResult,
} from './types.ts';
import { isCancelled } from '../cancel.ts';

/** Model calls one turn may make by default before it is ended as failed. */
export const DEFAULT_MAX_CALLS_PER_TURN = 100;

type CompactResult = 'skipped' | 'unchanged' | 'compacted' | 'stopped' | 'failed';

export function createAgentSession(options: AgentSessionOptions): AgentSessionApi {
  return new AgentSession(options);
}

class AgentSession implements AgentSessionApi, ToolRunHost {
  private readonly journal: JournalWriter;
  private leaf: string | null;
  private readonly states = new Map<string, CompactionState>();
  private readonly tokens: TokenCache;
  private readonly strategy: Strategy;
  private readonly rawOptions: Record<string, unknown>;
  private readonly scratchpadLimits: CompressionLimits | undefined;
  private readonly compressed = new WeakMap<Entry, Entry | null>();
  private readonly now: () => number;
  readonly tools: ReadonlyMap<string, AgentTool>;
  private busy = false;
  private callCount = 0;
  /** The context of the last request (before fencing): what `query_history` treats as still in view. */
  sent: readonly ContextEntry[] = [];
  private lastNote = '';
  /** Why the last compaction changed nothing (its plan's reason), for the overflow messages. */
  private lastReason = '';
  /** A1: the trigger's own timer between calls (the cache-expiry trigger), armed after each call. */
  private readonly timer = new WakeTimer();
  /** A compaction the timer started while no turn ran: Stop aborts it, the next turn waits for it. */
  private background: { controller: AbortController; done: Promise<void> } | undefined;
  /** Set by `summarize_context`: compact before the next call whatever the trigger says. */
  requested: { instruction?: string } | undefined;

  constructor(private readonly o: AgentSessionOptions) {
    if (o.strategy.strategy === 'custom') throw new Error('The custom plugin strategy cannot drive a live session: its plan comes from your plugin on request, not before every call. Pick a built-in strategy.');
    this.strategy = getStrategy(o.strategy.strategy);
    this.rawOptions = withUserWindow(this.strategy, o.strategy.options, o.contextWindow);
    // Options are checked now, so a bad value fails at start rather than at the first compaction.
    this.strategy.parse(this.rawOptions);
    this.scratchpadLimits = this.strategy.id === 'layered' ? (parseOptions(LAYERED_OPTIONS, this.rawOptions) as unknown as CompressionLimits) : undefined;
    this.now = o.now ?? Date.now;
    this.tokens = new TokenCache(o.counter);
    this.tools = toolsByName(o.tools);
    this.journal = new JournalWriter(o.journal ?? [], this.now, (entry) => this.emit({ type: 'entry', entry }));
    this.leaf = activeLeaf(this.journal.entries)?.id ?? null;
  }

  get entries(): readonly Entry[] {
    return this.journal.entries;
  }

  get leafId(): string | null {
    return this.leaf;
  }

  emit(event: AgentEvent): void {
    this.o.onEvent?.(event);
  }

  note(text: string): void {
    this.lastNote = text;
    this.emit({ type: 'note', text });
  }

  phase(phase: 'idle' | 'calling' | 'tool' | 'compacting'): void {
    this.emit({ type: 'state', busy: this.busy, phase });
  }

  view(): BranchView {
    return branchView(this.leaf, (id) => this.journal.byId(id), this.states, this.strategy.id);
  }

  private begin(phase: 'calling' | 'compacting'): void {
    if (this.busy) throw new Error('A turn is already running in this session: wait for it to end or stop it first.');
    this.busy = true;
    this.phase(phase);
  }

  private end(): void {
    this.busy = false;
    this.phase('idle');
  }

  async send(text: string, signal: AbortSignal): Promise<TurnResult> {
    await this.background?.done;
    this.begin('calling');
    try {
      this.leaf = this.journal.user(this.leaf, await this.prepareInput(text, signal)).id;
      return await this.runTurn(signal);
    } finally {
      this.end();
    }
  }

  /** L8: the user's text with the reminder its `@file` mentions call for. */
  private prepareInput(text: string, signal: AbortSignal): Promise<string> {
    return this.o.prepareInput ? this.o.prepareInput(text, signal) : withMentions(text, this.o.folder, { prompts: this.o.prompts, signal });
  }

  async editAndResend(entryId: string, text: string, signal: AbortSignal): Promise<TurnResult> {
    await this.background?.done;
    this.begin('compacting');
    try {
      const entry = this.journal.byId(entryId);
      if (!entry || entry.role !== 'user' || entry.kind !== 'message') throw new Error(`Cannot edit ${entryId}: it is not a user message of this session.`);
      if (!(await this.moveTo(entry.parentId, signal))) return { status: 'stopped', calls: 0 };
      this.leaf = this.journal.user(this.leaf, await this.prepareInput(text, signal)).id;
      return await this.runTurn(signal);
    } finally {
      this.end();
    }
  }

  async switchBranch(leafId: string, signal: AbortSignal): Promise<void> {
    await this.background?.done;
    this.begin('compacting');
    try {
      if (!this.journal.byId(leafId)) throw new Error(`Cannot switch to ${leafId}: no such entry in this session.`);
      if (leafId !== this.leaf) await this.moveTo(leafId, signal);
    } finally {
      this.end();
    }
  }

  /** P7: moves the leaf to `targetId`, summarizing the abandoned part first. False when stopped (nothing moved). */
  private async moveTo(targetId: string | null, signal: AbortSignal): Promise<boolean> {
    const oldLeaf = this.leaf;
    const part = abandonedPart(oldLeaf, targetId, (id) => this.journal.byId(id));
    if (oldLeaf === null || !part.entries.some((entry) => entry.kind === 'message')) {
      this.leaf = targetId;
      return true;
    }
    this.phase('compacting');
    // P8: before-fork may write the branch summary itself, or keep the session where it is.
    const asked = await askBranchMove(this.o.hooks, () => branchMoveEvent(oldLeaf, targetId, pathOf(targetId, (id) => this.journal.byId(id)).length - 1, part.entries));
    if ('refused' in asked) {
      this.note(`The branch was not moved: ${asked.refused}`);
      return false;
    }
    const supplied = asked.summary;
    this.emit({ type: 'progress', progress: { phase: 'summarizing', done: 0, total: 1 } });
    let summary: BranchSummaryText;
    try {
      summary = supplied !== undefined ? branchSummaryOf(supplied, part.entries, this.o.prompts) : await summarizeBranch({
        entries: part.entries, summarizer: this.o.summarizer, prompts: this.o.prompts, signal,
        ...(this.o.summaryTimeoutMs !== undefined ? { timeoutMs: this.o.summaryTimeoutMs } : {}),
      });
    } catch (error) {
      if (signal.aborted || isCancelled(error)) return false;
      this.note(`The abandoned branch could not be summarized (${(error as Error).message}); moved without a branch summary.`);
      this.leaf = targetId;
      return true;
    }
    this.emit({ type: 'progress', progress: { phase: 'done', done: 1, total: 1 } });
    const entry = this.journal.summary(targetId, summary.text, {
      source: BRANCH_SUMMARY_SOURCE, fromId: oldLeaf, readFiles: summary.readFiles, modifiedFiles: summary.modifiedFiles,
    });
    this.leaf = entry.id;
    // toEntryId: where the new branch continues (the summary itself when it starts at the root).
    this.emit({ type: 'branch-summary', fromLeafId: oldLeaf, toEntryId: targetId ?? entry.id, entry });
    return true;
  }

  /**
   * Runs the strategy's compaction on the current branch (or `instead`'s, the overflow fallback);
   * records it in the journal when it changed the context.
   */
  async compact(
    signal: AbortSignal, trigger: string | undefined, instruction?: string, instead?: { strategy: Strategy; rawOptions: Record<string, unknown> }, clock: () => number = this.now,
  ): Promise<CompactResult> {
    const view = this.view();
    if (view.messages.length === 0) return 'skipped';
    const force = trigger !== undefined;
    const strategy = instead?.strategy ?? this.strategy;
    const custom = instruction !== undefined && strategy.options.some((option) => option.name === 'customInstructions');
    const rawOptions = instead?.rawOptions ?? this.rawOptions;
    let result;
    try {
      result = await compactBranch({
        strategy, rawOptions: custom ? { ...rawOptions, customInstructions: instruction } : rawOptions,
        view, tokens: this.tokens, contextWindow: this.o.contextWindow, summarizer: this.o.summarizer, prompts: this.o.prompts,
        signal, now: clock, force, ...(this.o.hooks ? { hooks: this.o.hooks } : {}),
        ...(this.o.summaryTimeoutMs !== undefined ? { timeoutMs: this.o.summaryTimeoutMs } : {}),
        onProgress: (progress) => {
          if (progress.phase === 'planning') this.phase('compacting');
          this.emit({ type: 'progress', progress });
        },
      });
    } catch (error) {
      if (signal.aborted || isCancelled(error)) return 'stopped';
      this.note(`Compaction failed: ${(error as Error).message}`);
      return 'failed';
    }
    if (result.kind === 'skipped') return 'skipped';
    if (result.kind === 'unchanged') {
      this.lastReason = result.reason;
      const text = `Compaction (${trigger ?? result.decision.rule}): nothing to compact: ${result.reason}`;
      if (text !== this.lastNote) this.note(text);
      return 'unchanged';
    }
    const rule = trigger ?? result.decision.rule;
    for (const text of result.outcome.context.notes) this.note(text);
    const afterError = this.o.hooks ? await notifyAfterCompact(this.o.hooks, result.outcome) : undefined;
    if (afterError) this.note(`${afterError} The compaction stands.`);
    const record = this.journal.summary(this.leaf, result.text, {
      source: COMPACTION_SOURCE, trigger: rule, tokensBefore: result.tokensBefore,
      ...(result.firstKeptEntryId !== undefined ? { firstKeptEntryId: result.firstKeptEntryId } : {}),
      context: recordContext(historyContext(view), result.state),
    });
    this.leaf = record.id;
    this.states.set(record.id, result.state);
    this.emit({
      type: 'compaction', atCall: this.callCount, trigger: rule, tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter,
      record: result.outcome.record, context: result.outcome.context, plan: result.outcome.plan, journalIndex: view.messages.map((entry) => entry.index),
      summaries: result.outcome.summaries,
    });
    return 'compacted';
  }

  /** A1: asks the trigger, right after call `call`, whether it wants a timer before the next one; arms it. */
  private armTimer(call: number): void {
    const view = this.view();
    const now = this.now();
    const wakeAt = wakeAfterCall(this.strategy, strategyInput(view, this.tokens, this.o.contextWindow, now), this.strategy.parse(this.rawOptions));
    if (wakeAt !== undefined) this.timer.arm(wakeAt, now, (at) => void this.onTimer(at, call));
  }

  /** The timer fired with no call since: compact between the calls, the clock at the timer's moment; a running turn checks it itself. */
  private async onTimer(at: number, call: number): Promise<void> {
    if (this.busy) return;
    const controller = new AbortController();
    let finish = () => {};
    this.background = { controller, done: new Promise<void>((resolve) => (finish = resolve)) };
    this.busy = true;
    this.phase('compacting');
    try {
      this.note(`The trigger's timer armed after call ${call + 1} fired at ${formatTime(at)}: checking it between calls.`);
      const result = await this.compact(controller.signal, undefined, undefined, undefined, () => Math.max(this.now(), at));
      if (result === 'skipped') this.note('The timer fired with the history below its threshold: nothing was compacted.');
    } finally {
      this.background = undefined;
      finish();
      this.end();
    }
  }

  /** Stops a compaction the timer started (the composer's Stop while no turn runs). */
  stopBackground(): void {
    this.background?.controller.abort();
  }

  /** Ends the session: the timer is disarmed and a compaction it started is stopped. */
  close(): void {
    this.timer.cancel();
    this.stopBackground();
  }

  /** The request for the next call, and its tokens (system prompt, tool definitions and context, with the session's counter). */
  private async request(signal: AbortSignal): Promise<{ request: ModelRequest; tokens: number }> {
    const view = this.view();
    const codeLaw = await readCodeLaw(this.o.folder);
    // Each tool as the model reads it: its description and arguments' from prompts/tool-<name>.md.
    const tools = [...[...this.tools.values()].map((tool) => tool.spec), QUERY_HISTORY_SPEC, SUMMARIZE_CONTEXT_SPEC, TODO_WRITE_SPEC, TODO_READ_SPEC].map((spec) => describeTool(spec, this.o.prompts));
    const { request, counted, unpaired } = assembleRequest({
      systemPrompt: renderSystemPrompt(this.o.prompts, this.o.folder), prompts: this.o.prompts, tools, history: historyContext(view), view, signal,
      ...(codeLaw ? { codeLaw } : {}),
      ...(this.scratchpadLimits ? { scratchpadLimits: this.scratchpadLimits, compressed: this.compressed } : {}),
    });
    this.sent = counted;
    if (unpaired > 0) this.note(`${unpaired} tool call(s) or result(s) whose partner is no longer in the context were left out of the request.`);
    const counter = this.o.counter;
    const tokens = counter.count(request.system) + counter.count(JSON.stringify(request.tools)) + this.tokens.ofContext(counted);
    return { request, tokens };
  }

  private async runTurn(signal: AbortSignal): Promise<TurnResult> {
    let calls = 0;
    let retried = false;
    const maxCalls = this.o.maxCallsPerTurn ?? DEFAULT_MAX_CALLS_PER_TURN;
    const stopped = (): TurnResult => ({ status: 'stopped', calls });
    const failed = (error: string): TurnResult => ({ status: 'failed', calls, error });
    for (;;) {
      if (signal.aborted) return stopped();
      this.timer.cancel();
      if (calls >= maxCalls) return failed(`The model made ${calls} calls in this turn without finishing (maxCallsPerTurn ${maxCalls}); the turn was ended.`);
      // A1: the trigger before every call; F14: a compaction the model asked for.
      const requested = this.requested;
      this.requested = undefined;
      const before = await this.compact(signal, requested ? 'summarize_context' : undefined, requested?.instruction);
      if (before === 'stopped') return stopped();

      const { request, tokens } = await this.request(signal);
      const call = this.callCount++;
      calls++;
      this.phase('calling');
      let reply: ModelReply;
      try {
        reply = await abortable(this.o.model.complete(request, (delta) => this.emit({ type: 'delta', delta })), signal);
      } catch (error) {
        this.emit({ type: 'call', call, contextTokens: tokens, model: this.o.model.model });
        if (signal.aborted || isCancelled(error)) return stopped();
        if (!(error instanceof ContextOverflowError) && (error as Error).name !== 'ContextOverflowError') return failed((error as Error).message);
        // P1: drop the error, compact whatever the trigger says, retry once; an overflow on that retry is final.
        if (retried) {
          const text = `Context overflow again after compacting: recovery failed (${(error as Error).message}). Start a new branch or pick a strategy that keeps less.`;
          this.note(text);
          return failed(text);
        }
        retried = true;
        this.note(`Context overflow (${(error as Error).message}): compacting and retrying once.`);
        let recovered = await this.compact(signal, 'overflow');
        if (recovered === 'unchanged') {
          const reason = this.lastReason;
          const history = this.tokens.ofContext(historyContext(this.view()));
          this.note(fallbackNote(this.strategy.label, reason, history));
          recovered = await this.compact(signal, 'overflow', undefined, overflowFallback(history));
          if (recovered === 'unchanged') {
            const text = recoveryFailedMessage(this.strategy.label, reason, this.lastReason);
            this.note(text);
            return failed(text);
          }
        }
        if (recovered === 'stopped') return stopped();
        if (recovered !== 'compacted') {
          const text = `Context overflow: recovery failed: the compaction did not complete (${this.lastNote}). Try again, or start a new branch with a shorter message.`;
          this.note(text);
          return failed(text);
        }
        continue;
      }
      this.emit({ type: 'call', call, contextTokens: tokens, ...(reply.usage ? { usage: reply.usage } : {}), model: reply.model });
      // The recovery worked: a later overflow in this turn gets its own compaction and retry.
      retried = false;
      const taken = new Set(this.view().messages.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.callId] : []))));
      const written = this.journal.assistant(this.leaf, reply, taken);
      this.leaf = written.entry.id;
      this.armTimer(call);
      if (written.calls.length === 0) {
        if (reply.stop === 'length') this.note('The reply stopped at the output limit.');
        return { status: 'done', calls };
      }
      for (const { call: toolCall, resultId } of written.calls) {
        const outcome = await runToolCall(this, toolCall, signal);
        this.leaf = this.journal.toolResult(resultId, this.leaf, written.entry.id, toolCall, outcome).id;
        this.emit({ type: 'tool', call: toolCall, outcome });
      }
      if (signal.aborted) return stopped();
    }
  }
}
