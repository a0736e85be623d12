/**
 * OpenHands event trajectories (docs/formats.md, OpenHands): the JSON array of events its CLI
 * (`save_trajectory_path`), its GUI ("Export trajectory") and its replay tests write, or one
 * evaluation record `{instance_id, history: [events], ...}`. An event is an action
 * (`{id, timestamp, source, message, action, args, tool_call_metadata?, llm_metrics?}`) or an
 * observation (`{id, ..., cause, observation, content, extras, tool_call_metadata?}`).
 *
 * Decisions, following how OpenHands itself turns events back into model messages:
 * - An agent action carrying `tool_call_metadata` stands for one model response: the response
 *   (`model_response.choices[0].message`: reasoning, text, every tool call) becomes one assistant
 *   entry with the response's usage, written once however many of its tool calls have events; a
 *   second event for a call of that response already read is a copy, reported as a duplicate.
 *   Without a recorded response the action's own function name and arguments make the call.
 * - An observation with `tool_call_metadata` is that call's result (pairing key `tool_call_id`);
 *   one without it pairs by `cause` with an action that became a call (ids `e<event id>`).
 * - `message` actions are user or assistant text, `system` the system prompt, `finish` and `reject`
 *   the agent's closing text (OpenHands sends them as text, not as a call). An agent message
 *   without a recorded response takes its usage from `llm_metrics.token_usages` (a response id
 *   counted once).
 * - `condensation` actions are compaction markers (the condenser's summary, or none when it only
 *   forgot events); the first entry after the forgotten range is `firstKeptEntryId`.
 * - Harness events (agent state changes, `null` observations, pause/resume) are counted as
 *   ignored; an action or observation type not listed here is reported by line and skipped.
 */
import type { Block, CompactionMarker, Entry, TextBlock, ToolCallBlock, ToolResultBlock, Usage } from '../journal/entry.ts';
import { EntryBuilder, describe, imageFromUrl, isRecord, num, parseJsonLoose, str, toEpochMs, type EntryDraft } from './builder.ts';
import { childKey, childSpans, pathKey, type Span } from './json-document.ts';
import { openAiUsage } from './openai-chat.ts';
import { describeShape, openHandsEvents } from './detect.ts';
import { ImportFormatError, type DocumentImporter, type ImportResult } from './types.ts';

/** Actions whose only effect is on the harness (no model context). */
const HARNESS_ACTIONS = new Set(['change_agent_state', 'null', 'pause', 'resume', 'stop', 'start', 'push', 'send_pr', 'loop_recovery', 'condensation_request']);
/** Agent actions that are tool calls. */
const TOOL_ACTIONS = new Set(['run', 'run_ipython', 'read', 'write', 'edit', 'browse', 'browse_interactive', 'call_tool_mcp', 'delegate', 'think', 'task_tracking', 'recall']);
/** Observations that are harness state, not context. */
const HARNESS_OBSERVATIONS = new Set(['agent_state_changed', 'null', 'success', 'condense', 'loop_detection', 'download']);
/** Observations OpenHands knows, which become results or context text. */
const KNOWN_OBSERVATIONS = new Set(['read', 'write', 'edit', 'browse', 'run', 'run_ipython', 'chat', 'delegate', 'message', 'error', 'think', 'user_rejected', 'recall', 'mcp', 'task_tracking']);
/** Arguments OpenHands adds to an action that are not the tool's own. */
const NOT_ARGUMENTS = new Set(['thought', 'is_input', 'blocking', 'hidden', 'confirmation_state', 'security_risk', 'impl_source', 'translated_ipython_code', 'kernel_init_code']);

interface Pending {
  marker: CompactionMarker;
  /** Forgotten event ids end here (inclusive): the next entry after it is kept. */
  lastForgotten: number;
  /** Entries written before the marker (only those can be kept by it). */
  before: number;
}

class OpenHandsReader {
  readonly builder = new EntryBuilder('openhands');
  /** Model response id -> the assistant entry made from it. */
  private readonly responses = new Map<string, Entry>();
  /** `response id \n call id` -> the event that call was read from (a second event for it is a copy). */
  private readonly claimedCalls = new Map<string, At>();
  /** `token_usages` response ids already counted. */
  private readonly countedUsage = new Set<string>();
  /** Event id -> call id of the tool call its action became (for observations without metadata). */
  private readonly callOfEvent = new Map<number, string>();
  /** Event id of each entry, in order (condensation ranges are event ids). */
  private readonly eventIds: Array<{ eventId: number | undefined; entryId: string; compaction: boolean }> = [];
  private readonly pending: Pending[] = [];

  constructor(private readonly spans: Map<string, Span>, private readonly listKey: string) {}

  event(event: unknown, i: number): void {
    this.builder.lines++;
    const span = this.spans.get(childKey(this.listKey, i));
    const line = span?.line ?? 1;
    const place = `event ${i}`;
    if (!isRecord(event)) {
      this.builder.issue(line, `${place} is ${describe(event)}, not an event object; skipped`);
      return;
    }
    const eventId = num(event.id);
    const at = { line, ...(span && span.lineEnd > span.line ? { lineEnd: span.lineEnd } : {}), eventId, place: eventId === undefined ? place : `${place} (id ${eventId})` };
    if (typeof event.action === 'string') this.action(event, event.action, at);
    else if (typeof event.observation === 'string') this.observation(event, event.observation, at);
    else this.builder.issue(line, `${at.place} has neither an "action" nor an "observation" name (keys ${describeShape(event).replace('an object with keys ', '')}); skipped`);
  }

  finish(): ImportResult {
    for (const { marker, lastForgotten, before } of this.pending) {
      const kept = this.eventIds.slice(0, before).find(({ eventId, compaction }) => !compaction && eventId !== undefined && eventId > lastForgotten);
      if (kept) marker.firstKeptEntryId = kept.entryId;
    }
    return this.builder.result();
  }

  private push(draft: EntryDraft, at: At, event: Record<string, unknown>): Entry {
    if (at.eventId !== undefined) draft.id = `e${at.eventId}`;
    if (at.lineEnd !== undefined) draft.lineEnd = at.lineEnd;
    const timestamp = toEpochMs(event.timestamp);
    if (timestamp !== undefined) draft.timestamp = timestamp;
    const entry = this.builder.push(draft);
    this.eventIds.push({ eventId: at.eventId, entryId: entry.id, compaction: entry.kind === 'compaction' });
    return entry;
  }

  private action(event: Record<string, unknown>, action: string, at: At): void {
    const args = isRecord(event.args) ? event.args : {};
    const source = str(event.source);
    const metadata = isRecord(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
    const sourceType = `action/${action}`;
    if (action === 'message') {
      const role = source === 'agent' ? 'assistant' : 'user';
      const blocks: Block[] = text(str(args.content) ?? str(event.message));
      if (Array.isArray(args.image_urls)) for (const url of args.image_urls) if (typeof url === 'string') blocks.push(imageFromUrl(url));
      const entry = this.push({ role, kind: 'message', blocks, sourceType, line: at.line, ...(source === 'environment' ? { flags: { injected: true } } : {}) }, at, event);
      if (role === 'assistant') this.usageFromMetrics(entry, event);
      return;
    }
    if (action === 'system') {
      this.push({ role: 'system', kind: 'message', blocks: text(str(args.content) ?? str(event.message)), sourceType, line: at.line }, at, event);
      return;
    }
    if (action === 'finish' || action === 'reject') {
      const response = responseMessage(metadata);
      const said = str(args.final_thought) || str(args.thought) || str(args.reason) || '';
      const content = str(response?.content) ?? '';
      const closing = said && content && said !== content ? `${said}\n${content}` : said || content || (str(event.message) ?? '');
      const entry = this.push({ role: source === 'user' ? 'user' : 'assistant', kind: 'message', blocks: text(closing), sourceType, line: at.line }, at, event);
      const usage = this.responseUsage(metadata);
      if (usage) entry.usage = usage;
      else this.usageFromMetrics(entry, event);
      return;
    }
    if (action === 'condensation') {
      const marker: CompactionMarker = { source: 'openhands.condensation' };
      const forgotten = Array.isArray(args.forgotten_event_ids) ? args.forgotten_event_ids.filter((id): id is number => typeof id === 'number') : [];
      const end = num(args.forgotten_events_end_id) ?? (forgotten.length > 0 ? Math.max(...forgotten) : undefined);
      if (end !== undefined) this.pending.push({ marker, lastForgotten: end, before: this.eventIds.length });
      this.push({ role: 'summary', kind: 'compaction', blocks: text(str(args.summary) ?? ''), sourceType, line: at.line, marker }, at, event);
      return;
    }
    if (HARNESS_ACTIONS.has(action)) {
      this.builder.ignoredLines++;
      return;
    }
    if (!TOOL_ACTIONS.has(action)) {
      this.builder.issue(at.line, `${at.place}: action ${JSON.stringify(action)} is not an OpenHands action Foldlab knows; skipped`, 'unsupported');
      return;
    }
    if (source === 'user' && action === 'run') {
      // The user's own command: OpenHands sends it, and its output, as user text.
      this.push({ role: 'user', kind: 'message', blocks: text(`$ ${str(args.command) ?? ''}`), sourceType, line: at.line }, at, event);
      return;
    }
    if (source === 'user' || metadata === undefined && action === 'recall') {
      // The harness's context lookup: its observation carries what the model is given.
      this.builder.ignoredLines++;
      return;
    }
    this.toolAction(event, action, args, metadata, at);
  }

  private toolAction(event: Record<string, unknown>, action: string, args: Record<string, unknown>, metadata: Record<string, unknown> | undefined, at: At): void {
    const callId = str(metadata?.tool_call_id) || (at.eventId !== undefined ? `e${at.eventId}` : `l${at.line}`);
    if (at.eventId !== undefined) this.callOfEvent.set(at.eventId, callId);
    const response = isRecord(metadata?.model_response) ? metadata.model_response : undefined;
    const responseId = str(response?.id);
    const message = responseMessage(metadata);
    const sourceType = `action/${action}`;
    if (responseId !== undefined && message !== undefined) {
      const existing = this.responses.get(responseId);
      if (existing) {
        const claimed = this.claimedCalls.get(`${responseId}\n${callId}`);
        if (claimed) {
          // A second event for a call already read (a copied event): the response is written once.
          this.builder.issue(at.line, `${at.place}: repeats the call ${JSON.stringify(callId)} of response ${JSON.stringify(responseId)} already read from ${claimed.place} on line ${claimed.line}; the first is kept and this one skipped`, 'duplicate');
          return;
        }
        this.claimedCalls.set(`${responseId}\n${callId}`, at);
        // One response, several calls: the calls are in the entry already (OpenHands repeats the response per call).
        if (!existing.blocks.some((block) => block.type === 'tool_call' && block.callId === callId)) existing.blocks.push(callFromAction(callId, action, args, metadata));
        this.builder.ignoredLines++;
        return;
      }
      this.claimedCalls.set(`${responseId}\n${callId}`, at);
      const blocks: Block[] = [];
      const reasoning = str(message.reasoning_content) || str(message.reasoning);
      if (reasoning) blocks.push({ type: 'thinking', text: reasoning });
      blocks.push(...text(str(message.content)));
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
      calls.forEach((call: unknown, j) => {
        if (!isRecord(call)) return;
        const fn = isRecord(call.function) ? call.function : {};
        const id = str(call.id) || `${callId}#${j}`;
        blocks.push({ type: 'tool_call', callId: id, name: str(fn.name) ?? 'unknown', input: typeof fn.arguments === 'string' ? parseJsonLoose(fn.arguments) : (fn.arguments ?? {}) });
      });
      if (!blocks.some((block) => block.type === 'tool_call' && block.callId === callId)) blocks.push(callFromAction(callId, action, args, metadata));
      const entry = this.push({ role: 'assistant', kind: 'message', blocks, sourceType, line: at.line }, at, event);
      const model = str(response?.model);
      if (model) {
        entry.model = model;
        this.builder.meta.model ??= model;
      }
      const usage = this.responseUsage(metadata);
      if (usage) entry.usage = usage;
      this.responses.set(responseId, entry);
      return;
    }
    const blocks: Block[] = [...text(str(args.thought)), callFromAction(callId, action, args, metadata)];
    const entry = this.push({ role: 'assistant', kind: 'message', blocks, sourceType, line: at.line }, at, event);
    this.usageFromMetrics(entry, event);
  }

  private observation(event: Record<string, unknown>, observation: string, at: At): void {
    const metadata = isRecord(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
    const sourceType = `observation/${observation}`;
    const cause = num(event.cause);
    const callId = str(metadata?.tool_call_id) || (cause !== undefined ? this.callOfEvent.get(cause) : undefined);
    const content = str(event.content) ?? '';
    if (callId !== undefined && !HARNESS_OBSERVATIONS.has(observation)) {
      const block: ToolResultBlock = { type: 'tool_result', callId, content: text(content), isError: observation === 'error' };
      const name = str(metadata?.function_name);
      if (name) block.toolName = name;
      this.push({ role: 'tool', kind: 'message', blocks: [block], sourceType, line: at.line }, at, event);
      return;
    }
    if (HARNESS_OBSERVATIONS.has(observation)) {
      this.builder.ignoredLines++;
      return;
    }
    if (!KNOWN_OBSERVATIONS.has(observation)) {
      this.builder.issue(at.line, `${at.place}: observation ${JSON.stringify(observation)} is not an OpenHands observation Foldlab knows; skipped`, 'unsupported');
      return;
    }
    // Not a call's result: the user's own command, an error of the harness, workspace context.
    const flags = observation === 'error' ? { error: true as const, injected: true as const } : { injected: true as const };
    this.push({ role: 'user', kind: 'message', blocks: text(content || (str(event.message) ?? '')), sourceType, line: at.line, flags }, at, event);
  }

  /** Usage of the response behind a call (litellm: `prompt_tokens` includes cache reads and writes). */
  private responseUsage(metadata: Record<string, unknown> | undefined): Usage | undefined {
    const response = isRecord(metadata?.model_response) ? metadata.model_response : undefined;
    const raw = response?.usage;
    const usage = openAiUsage(raw);
    if (!usage || !isRecord(raw)) return usage;
    const cacheRead = num(raw.cache_read_input_tokens);
    if (cacheRead !== undefined && cacheRead > 0) usage.cacheRead = cacheRead;
    const cacheWrite = num(raw.cache_creation_input_tokens);
    if (cacheWrite !== undefined && cacheWrite > 0) usage.cacheWrite = cacheWrite;
    const id = str(response?.id);
    if (id) this.countedUsage.add(id);
    return usage;
  }

  /** The last `llm_metrics.token_usages` record, when its response was not counted yet. */
  private usageFromMetrics(entry: Entry, event: Record<string, unknown>): void {
    const metrics = isRecord(event.llm_metrics) ? event.llm_metrics : undefined;
    const usages = Array.isArray(metrics?.token_usages) ? metrics.token_usages : [];
    const last: unknown = usages[usages.length - 1];
    if (!isRecord(last)) return;
    const responseId = str(last.response_id);
    if (responseId === undefined || this.countedUsage.has(responseId)) return;
    this.countedUsage.add(responseId);
    const usage: Usage = { input: num(last.prompt_tokens) ?? 0, output: num(last.completion_tokens) ?? 0 };
    const cacheRead = num(last.cache_read_tokens);
    if (cacheRead) usage.cacheRead = cacheRead;
    const cacheWrite = num(last.cache_write_tokens);
    if (cacheWrite) usage.cacheWrite = cacheWrite;
    entry.usage = usage;
    const window = num(last.context_window);
    if (window) this.builder.meta.contextWindow ??= window;
    const model = str(last.model);
    if (model) entry.model = model;
  }
}

interface At {
  line: number;
  lineEnd?: number;
  eventId: number | undefined;
  place: string;
}

function text(value: string | undefined): TextBlock[] {
  return value ? [{ type: 'text', text: value }] : [];
}

/** `choices[0].message` of the response a call's metadata recorded. */
function responseMessage(metadata: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const response = isRecord(metadata?.model_response) ? metadata.model_response : undefined;
  const choice: unknown = Array.isArray(response?.choices) ? response.choices[0] : undefined;
  return isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
}

/** A call made from the action itself: its function name (or action name) and its own arguments. */
function callFromAction(callId: string, action: string, args: Record<string, unknown>, metadata: Record<string, unknown> | undefined): ToolCallBlock {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (!NOT_ARGUMENTS.has(key)) input[key] = value;
  return { type: 'tool_call', callId, name: str(metadata?.function_name) ?? action, input };
}

export const openHandsImporter: DocumentImporter = {
  parse(doc: unknown, text: string): ImportResult {
    const found = openHandsEvents(doc);
    if (!found) {
      throw new ImportFormatError(`the JSON document is ${describeShape(doc)}, not OpenHands events; expected an array of {id, source, action|observation, ...} events or a record with a "history" array of them`);
    }
    const spans = childSpans(text, [found.path]);
    const reader = new OpenHandsReader(spans, pathKey(found.path));
    found.events.forEach((event, i) => reader.event(event, i));
    if (isRecord(doc)) {
      const id = str(doc.instance_id);
      if (id) reader.builder.meta.sessionId = id;
    }
    return reader.finish();
  },
};
