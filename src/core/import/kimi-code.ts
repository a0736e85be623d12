/**
 * Kimi Code sessions (docs/formats.md, Kimi Code): each agent of a session writes its own
 * `agents/<agent id>/wire.jsonl`, a `{"type": "metadata", "protocol_version", "created_at"}` line
 * then flat records `{type, agentId, ..., time}`. This reads one agent's wire, line by line:
 * - `context.append_message`: a whole message (the user's prompt, an injected reminder, a message
 *   written whole) is one entry; `turn.prompt` / `turn.steer` repeat the prompt and are metadata.
 * - `context.append_loop_event`: a step (`step.begin` ... `step.end`, grouped by its uuid) is one
 *   assistant response: its `content.part`s merged in order (`think` as thinking), its `tool.call`s;
 *   each `tool.result` is a tool entry; `step.end.usage` is the step's usage (input = `inputOther` +
 *   cache read + cache creation) and a step ended `interrupted` or `error` is flagged aborted.
 * - `config.update` / `profile.bind` with a new `systemPrompt`: a system entry.
 * - `context.apply_compaction`: a compaction marker carrying its summary; `context.clear` an empty one.
 * - `context.undo {count}`: the next entry hangs under the entry before the last `count` prompts,
 *   so the undone turns stay as an abandoned branch (journal/tree.ts).
 * - `llm.request` gives each step its model; an `Agent` call's result (`agent_id: <id>`) names the
 *   subagent it started (`meta.subagentCalls`).
 * Record types that change no context are metadata (kimi-code-parts.ts); anything else is reported
 * by line and type, never dropped silently.
 */
import type { Entry, ToolCallBlock } from '../journal/entry.ts';
import { describe, EntryBuilder, isRecord, str, toEpochMs, type EntryDraft } from './builder.ts';
import { appendPart, KIMI_CODE_METADATA, kimiCodeBlocks, kimiCodeResultContent, kimiCodeSummary, kimiCodeToolCalls, kimiCodeUsage } from './kimi-code-parts.ts';
import type { ImportResult, LineImporter } from './types.ts';

/** The agent id of a session's main agent. */
export const KIMI_CODE_MAIN_AGENT = 'main';

export function createKimiCodeImporter(): LineImporter {
  return new KimiCodeImporter();
}

interface Step {
  entry?: Entry;
  model?: string;
}

type Common = { line: number; sourceType: string; timestamp?: number };

class KimiCodeImporter implements LineImporter {
  private readonly builder = new EntryBuilder('kimi-code');
  /** The entry the next one hangs under (moved back by an undo). */
  private tip: string | null = null;
  /** The user's prompts on the current path since the last compaction or clear: what an undo counts. */
  private prompts: Array<{ id: string; parentId: string | null }> = [];
  private readonly steps = new Map<string, Step>();
  private openStep: string | undefined;
  /** The model of the last `llm.request`, for the step it starts. */
  private nextModel: string | undefined;
  private systemPrompt: string | undefined;
  private profile: string | undefined;
  private agentId: string | undefined;
  private compactionTrigger: string | undefined;
  private readonly callNames = new Map<string, string>();

  line(value: Record<string, unknown>, lineNo: number): void {
    const builder = this.builder;
    builder.lines++;
    const type = value.type;
    if (typeof type !== 'string') {
      builder.issue(lineNo, `expected a Kimi Code wire record {"type", ..., "time"}, got "type" ${describe(type)} (keys ${Object.keys(value).slice(0, 6).join(', ') || 'none'}); skipped`);
      return;
    }
    this.agentId ??= str(value.agentId);
    const timestamp = toEpochMs(value.time);
    const common: Common = { line: lineNo, sourceType: type, ...(timestamp !== undefined ? { timestamp } : {}) };
    switch (type) {
      case 'metadata': {
        const version = str(value.protocol_version);
        if (version) builder.meta.version = `wire ${version}`;
        const created = toEpochMs(value.created_at);
        if (created !== undefined) builder.meta.createdAt = created;
        builder.ignoredLines++;
        return;
      }
      case 'config.update':
      case 'profile.bind':
        this.config(value, common);
        return;
      case 'context.append_message':
        this.message(value.message, common);
        return;
      case 'context.append_loop_event':
        this.loopEvent(value.event, common);
        return;
      case 'context.apply_compaction': {
        const summary = kimiCodeSummary(value);
        if (summary === undefined) {
          builder.issue(lineNo, `a context.apply_compaction needs its "summary" (a string), got ${describe(value.summary)}; skipped`);
          return;
        }
        const tokensBefore = typeof value.tokensBefore === 'number' ? value.tokensBefore : undefined;
        const trigger = this.compactionTrigger;
        this.compactionTrigger = undefined;
        this.reset();
        this.push({ ...common, role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: summary }], marker: { source: 'kimi-code.compaction', ...(trigger ? { trigger } : {}), ...(tokensBefore !== undefined ? { tokensBefore } : {}) } });
        return;
      }
      case 'context.clear':
        this.reset();
        this.push({ ...common, role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: '' }], marker: { source: 'kimi-code.clear', trigger: 'clear' } });
        return;
      case 'context.undo':
        this.undo(value.count, lineNo);
        return;
      case 'turn.cancel':
      case 'turn.step.interrupted':
        builder.ignoredLines++;
        this.abortOpenStep();
        return;
      case 'llm.request':
        builder.ignoredLines++;
        if (value.kind !== 'compaction') this.nextModel = str(value.model) ?? this.nextModel;
        builder.meta.model ??= str(value.model);
        return;
      case 'full_compaction.begin':
        this.compactionTrigger = str(value.source);
        builder.ignoredLines++;
        return;
      default:
        if (KIMI_CODE_METADATA.has(type)) {
          if (type === 'usage.record' && builder.meta.model === undefined && str(value.model)) builder.meta.model = str(value.model);
          builder.ignoredLines++;
          return;
        }
        builder.issue(lineNo, `wire record type ${JSON.stringify(type)} is not one Foldlab knows (keys: ${Object.keys(value).filter((key) => key !== 'type').slice(0, 6).join(', ') || 'none'}); skipped`, 'unsupported');
    }
  }

  finish(): ImportResult {
    const result = this.builder.result();
    const profile = this.profile;
    if (this.agentId !== undefined && this.agentId !== KIMI_CODE_MAIN_AGENT) {
      result.meta.subagent = { agentId: this.agentId, ...(profile ? { agentType: profile } : {}) };
      if (profile && result.meta.title === undefined) result.meta.title = `${profile} subagent`;
    }
    return result;
  }

  private push(draft: EntryDraft): Entry {
    const entry = this.builder.push({ ...draft, parentId: this.tip });
    this.tip = entry.id;
    return entry;
  }

  /** A compaction or clear starts a new context: no step stays open, no earlier prompt can be undone. */
  private reset(): void {
    this.openStep = undefined;
    this.prompts = [];
  }

  private config(value: Record<string, unknown>, common: Common): void {
    this.profile = str(value.profileName) ?? this.profile;
    const cwd = str(value.cwd);
    if (cwd) this.builder.meta.cwd = cwd;
    const prompt = str(value.systemPrompt);
    if (prompt === undefined || prompt === this.systemPrompt) {
      this.builder.ignoredLines++;
      return;
    }
    this.systemPrompt = prompt;
    this.push({ ...common, role: 'system', kind: 'message', blocks: [{ type: 'text', text: prompt }] });
  }

  private message(message: unknown, common: Common): void {
    const lineNo = common.line;
    if (!isRecord(message) || typeof message.role !== 'string') {
      this.builder.issue(lineNo, `a context.append_message needs a "message" object with a "role", got ${isRecord(message) ? `"role" ${describe(message.role)}` : describe(message)}; skipped`);
      return;
    }
    switch (message.role) {
      case 'user': {
        const kind = isRecord(message.origin) ? str(message.origin.kind) : undefined;
        // Only `origin.kind: "user"` is the person; reminders, skills, hooks and tasks ride the user role.
        const injected = kind !== undefined && kind !== 'user';
        const entry = this.push({ ...common, role: 'user', kind: 'message', blocks: kimiCodeBlocks(message.content), ...(injected ? { flags: { injected: true } } : {}) });
        if (!injected) this.prompts.push({ id: entry.id, parentId: entry.parentId });
        break;
      }
      case 'assistant': {
        const calls = kimiCodeToolCalls(message.toolCalls, lineNo);
        for (const call of calls) this.callNames.set(call.callId, call.name);
        this.push({ ...common, role: 'assistant', kind: 'message', blocks: [...kimiCodeBlocks(message.content), ...calls] });
        break;
      }
      case 'tool': {
        const callId = str(message.toolCallId) ?? `l${lineNo}`;
        const content = kimiCodeResultContent(message.content, str(message.note));
        this.push({ ...common, role: 'tool', kind: 'message', blocks: [{ type: 'tool_result', callId, content, isError: message.isError === true }] });
        this.noteSubagent(callId, content);
        break;
      }
      case 'system':
        this.push({ ...common, role: 'system', kind: 'message', blocks: kimiCodeBlocks(message.content) });
        break;
      default:
        this.builder.issue(lineNo, `message role ${JSON.stringify(message.role)} is not one Foldlab knows (user, assistant, tool, system); skipped`, 'unsupported');
    }
  }

  private loopEvent(event: unknown, common: Common): void {
    const lineNo = common.line;
    if (!isRecord(event) || typeof event.type !== 'string') {
      this.builder.issue(lineNo, `a context.append_loop_event needs an "event" object with a "type", got ${isRecord(event) ? `"type" ${describe(event.type)}` : describe(event)}; skipped`);
      return;
    }
    const at = { ...common, sourceType: `loop/${event.type}` };
    switch (event.type) {
      case 'step.begin': {
        const uuid = str(event.uuid) ?? `l${lineNo}`;
        this.steps.set(uuid, { ...(this.nextModel ? { model: this.nextModel } : {}) });
        this.nextModel = undefined;
        this.openStep = uuid;
        this.builder.ignoredLines++;
        break;
      }
      case 'content.part':
        if (!isRecord(event.part)) {
          this.builder.issue(lineNo, `a content.part needs its "part" object, got ${describe(event.part)}; skipped`);
          return;
        }
        for (const block of kimiCodeBlocks(event.part)) appendPart(this.response(event.stepUuid, at).blocks, block);
        break;
      case 'tool.call': {
        const callId = str(event.toolCallId);
        if (callId === undefined) {
          this.builder.issue(lineNo, `a tool.call needs its "toolCallId" (a string), got ${describe(event.toolCallId)}; skipped`);
          return;
        }
        const name = str(event.name) ?? 'unknown';
        const call: ToolCallBlock = { type: 'tool_call', callId, name, input: event.args ?? {} };
        this.callNames.set(callId, name);
        this.response(event.stepUuid, at).blocks.push(call);
        break;
      }
      case 'tool.result': {
        const callId = str(event.toolCallId);
        const result = event.result;
        if (callId === undefined || !isRecord(result)) {
          this.builder.issue(lineNo, `a tool.result needs its "toolCallId" and a "result" object, got ${callId === undefined ? `"toolCallId" ${describe(event.toolCallId)}` : `"result" ${describe(result)}`}; skipped`);
          return;
        }
        const content = kimiCodeResultContent(result.output, str(result.note));
        this.push({ ...at, role: 'tool', kind: 'message', blocks: [{ type: 'tool_result', callId, content, isError: result.isError === true }] });
        this.noteSubagent(callId, content);
        break;
      }
      case 'step.end':
        this.endStep(event, at);
        break;
      default:
        this.builder.issue(lineNo, `loop event type ${JSON.stringify(event.type)} is not one Foldlab knows (step.begin, content.part, tool.call, tool.result, step.end); skipped`, 'unsupported');
    }
  }

  /** The response of a step, made at its first part or call (a part without a step belongs to the open one). */
  private response(stepUuid: unknown, common: Common): Entry {
    const key = str(stepUuid) ?? this.openStep ?? `l${common.line}`;
    let step = this.steps.get(key);
    if (!step) {
      step = {};
      this.steps.set(key, step);
      this.openStep = key;
    }
    if (!step.entry) step.entry = this.push({ ...common, role: 'assistant', kind: 'message', blocks: [], ...(step.model ? { model: step.model } : {}) });
    else this.extend(step.entry, common.line);
    return step.entry;
  }

  /** The step's usage on its response (a step that wrote nothing still cost a call: its response is empty). */
  private endStep(event: Record<string, unknown>, common: Common): void {
    const key = str(event.uuid) ?? this.openStep;
    const usage = kimiCodeUsage(event.usage);
    const reason = str(event.finishReason);
    const step = key === undefined ? undefined : this.steps.get(key);
    if (key === this.openStep) this.openStep = undefined;
    let entry = step?.entry;
    if (!entry && usage) entry = this.response(key, common);
    if (!entry) {
      this.builder.ignoredLines++;
      return;
    }
    this.extend(entry, common.line);
    if (usage) entry.usage = usage;
    if (reason === 'interrupted' || reason === 'error') entry.flags = { ...entry.flags, aborted: true, ...(reason === 'error' ? { error: true } : {}) };
  }

  /** A response spans the lines of its step up to the first entry written after it (its lines never overlap another entry's). */
  private extend(entry: Entry, line: number): void {
    if (this.builder.entries.at(-1) === entry && line > entry.line) entry.lineEnd = line;
  }

  private abortOpenStep(): void {
    const entry = this.openStep === undefined ? undefined : this.steps.get(this.openStep)?.entry;
    if (entry) entry.flags = { ...entry.flags, aborted: true };
  }

  /** `/undo`: the last `count` prompts and what followed them leave the path, as Kimi Code drops them from the context. */
  private undo(count: unknown, lineNo: number): void {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
      this.builder.issue(lineNo, `a context.undo needs a "count" of turns (a positive integer), got ${describe(count)}; skipped`);
      return;
    }
    this.builder.ignoredLines++;
    // Kimi Code undoes nothing when fewer prompts than that are left since the last compaction.
    if (count > this.prompts.length) return;
    const anchor = this.prompts[this.prompts.length - count]!;
    this.prompts.length -= count;
    this.tip = anchor.parentId;
    this.openStep = undefined;
  }

  /** An `Agent` call's result opens with `agent_id: <id>`: the subagent it ran. */
  private noteSubagent(callId: string, content: ReadonlyArray<{ type: string; text?: string }>): void {
    if (this.callNames.get(callId) !== 'Agent') return;
    const first = content[0];
    const match = first?.type === 'text' ? /^agent_id: (\S+)/.exec(first.text ?? '') : null;
    if (match) (this.builder.meta.subagentCalls ??= {})[match[1]!] = callId;
  }

}
