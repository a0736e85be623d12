/**
 * GitHub Copilot CLI session event logs (docs/formats.md, GitHub Copilot CLI):
 * `~/.copilot/session-state/<session id>/events.jsonl`, one event per line
 * `{type, data, id, timestamp, parentId, agentId?, ephemeral?}`, and the same events printed by
 * `copilot -p ... --output-format json` (which also prints the ephemeral ones).
 *
 * Decisions:
 * - `user.message` is the user's words (`content`); what Copilot wrapped around them for the model
 *   (`transformedContent`: the date, system reminders) follows as an injected user entry, so the
 *   count is the context the model saw and the title stays the user's words.
 * - `assistant.message` is one model response: `reasoningText` (or a preceding `assistant.reasoning`)
 *   as thinking, an encrypted-only reasoning as redacted thinking, the text, each `toolRequests` call.
 * - `tool.execution_complete` is the call's result (`result.content`, or `error.message` when
 *   `success` is false, an error).
 * - `session.compaction_complete` is a compaction marker with its summary; `session.truncation` one
 *   without (messages dropped, no summary). Errors, warnings, infos and aborts are harness events.
 * - Usage per call only where a line records it: an `assistant.usage` event (written by the JSON
 *   output, not kept on disk) is the usage of the response with its `apiCallId`, else of the last
 *   response without one. A message's `outputTokens` alone is not usage (no prompt figure).
 * - Events of a subagent (`agentId`, or `data.parentToolCallId`) form a thread of their own, linked
 *   to the call that started it (`subagent.started`) like Claude Code's subagents.
 * - Every other known event type is metadata (counted); an unknown type is reported by line.
 */
import type { Block, Entry, ImageBlock, TextBlock, Usage } from '../journal/entry.ts';
import { base64Bytes, describe, EntryBuilder, isRecord, num, parseJsonLoose, str, toEpochMs, type EntryDraft } from './builder.ts';
import { COPILOT_METADATA_EVENTS } from './copilot-cli-events.ts';
import type { ImportResult, LineImporter, SubagentLink } from './types.ts';

export function createCopilotCliImporter(): LineImporter {
  return new CopilotCliImporter();
}

/** One conversation being read: the main session or one subagent's thread. */
class Thread {
  readonly builder = new EntryBuilder('copilot-cli');
  /** Reasoning seen before the response it belongs to (`assistant.reasoning`). */
  pendingThinking: { text: string; line: number } | undefined;
  /** Responses by `apiCallId`, and the last one still without usage, for `assistant.usage`. */
  readonly byApiCall = new Map<string, Entry>();
  lastWithoutUsage: Entry | undefined;
  model: string | undefined;
  constructor(readonly link?: SubagentLink) {}
}

interface Started {
  agentName?: string;
  description?: string;
}

class CopilotCliImporter implements LineImporter {
  private readonly main = new Thread();
  private readonly threads = new Map<string, Thread>();
  /** `subagent.started` by the tool call that started it. */
  private readonly started = new Map<string, Started>();

  line(value: Record<string, unknown>, lineNo: number): void {
    const type = value.type;
    const data = value.data;
    if (typeof type !== 'string' || !isRecord(data)) {
      this.main.builder.lines++;
      this.main.builder.issue(lineNo, `expected a Copilot CLI event {type, data, id, timestamp}, got ${typeof type !== 'string' ? `"type" ${describe(type)}` : `"data" ${describe(data)}`}; skipped`);
      return;
    }
    const thread = this.threadOf(value, data);
    thread.builder.lines++;
    const timestamp = toEpochMs(value.timestamp);
    const id = str(value.id);
    const common = { line: lineNo, sourceType: type, ...(timestamp !== undefined ? { timestamp } : {}) };
    const push = (draft: EntryDraft): Entry => thread.builder.push(draft);
    switch (type) {
      case 'session.start':
      case 'session.resume':
        this.session(data);
        thread.builder.ignoredLines++;
        return;
      case 'session.model_change': {
        const model = str(data.newModel);
        if (model) thread.model = model;
        this.main.builder.meta.model ??= model;
        thread.builder.ignoredLines++;
        return;
      }
      case 'session.title_changed': {
        const title = str(data.title);
        if (title) this.main.builder.meta.title = title;
        thread.builder.ignoredLines++;
        return;
      }
      case 'subagent.started': {
        const callId = str(data.toolCallId);
        if (callId) this.started.set(callId, { ...(str(data.agentName) ? { agentName: str(data.agentName) } : {}), ...(str(data.agentDescription) ? { description: str(data.agentDescription) } : {}) });
        thread.builder.ignoredLines++;
        return;
      }
      case 'system.message':
        push({ ...common, ...(id ? { id } : {}), role: 'system', kind: 'message', blocks: textBlocks(str(data.content)) });
        return;
      case 'user.message':
        this.user(thread, data, id, common);
        return;
      case 'assistant.reasoning': {
        const text = str(data.content) ?? '';
        thread.pendingThinking = { text: thread.pendingThinking ? `${thread.pendingThinking.text}\n${text}` : text, line: thread.pendingThinking?.line ?? lineNo };
        return;
      }
      case 'assistant.message':
        this.response(thread, data, id, common);
        return;
      case 'assistant.usage':
        this.usage(thread, data);
        thread.builder.ignoredLines++;
        return;
      case 'tool.execution_complete':
        this.result(thread, data, id, common);
        return;
      case 'session.compaction_complete': {
        if (data.success === false) {
          push({ ...common, ...(id ? { id } : {}), role: 'system', kind: 'event', blocks: textBlocks(`[compaction failed] ${str(data.error) ?? ''}`.trim()), flags: { error: true } });
          return;
        }
        const tokensBefore = num(data.preCompactionTokens);
        const trigger = str(data.trigger);
        push({ ...common, ...(id ? { id } : {}), role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: str(data.summaryContent) ?? '' }], marker: { source: 'copilot.compaction', ...(trigger ? { trigger } : {}), ...(tokensBefore !== undefined ? { tokensBefore } : {}) } });
        return;
      }
      case 'session.truncation': {
        const tokensBefore = num(data.preTruncationTokensInMessages);
        push({ ...common, ...(id ? { id } : {}), role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: '' }], marker: { source: 'copilot.truncation', ...(tokensBefore !== undefined ? { tokensBefore } : {}) } });
        return;
      }
      case 'session.error':
      case 'session.warning':
      case 'session.info':
      case 'abort': {
        const label = type === 'abort' ? 'abort' : type.slice('session.'.length);
        const text = str(data.message) ?? str(data.reason) ?? '';
        const flags = type === 'session.error' ? { error: true } : type === 'abort' ? { aborted: true } : undefined;
        push({ ...common, ...(id ? { id } : {}), role: 'system', kind: 'event', blocks: textBlocks(`[${label}] ${text}`.trim()), ...(flags ? { flags } : {}) });
        return;
      }
      default:
        if (COPILOT_METADATA_EVENTS.has(type) || value.ephemeral === true) {
          thread.builder.ignoredLines++;
          return;
        }
        thread.builder.issue(lineNo, `event type ${JSON.stringify(type)} is not a Copilot CLI event Foldlab knows (data keys: ${Object.keys(data).slice(0, 6).join(', ') || 'none'}); skipped`, 'unsupported');
    }
  }

  finish(): ImportResult {
    for (const thread of [this.main, ...this.threads.values()]) flushThinking(thread);
    const result = this.main.builder.result();
    const threads = [...this.threads.values()].filter((thread) => thread.builder.entries.length > 0).map((thread) => this.threadResult(thread));
    // Issues found on subagent lines are the file's issues: they are reported with the main session.
    for (const thread of this.threads.values()) {
      result.issues.push(...thread.builder.issues);
      result.ignoredLines += thread.builder.ignoredLines;
    }
    result.issues.sort((a, b) => a.line - b.line);
    if (threads.length > 0) result.threads = threads;
    return result;
  }

  /** The thread an event belongs to: the main session, or the subagent named by `agentId` / `parentToolCallId`. */
  private threadOf(value: Record<string, unknown>, data: Record<string, unknown>): Thread {
    const parentCall = str(data.parentToolCallId);
    const key = str(value.agentId) ?? parentCall;
    if (key === undefined || key === 'main') return this.main;
    let thread = this.threads.get(key);
    if (!thread) {
      thread = new Thread({ agentId: key });
      thread.model = this.main.model;
      this.threads.set(key, thread);
    }
    // Any of its events may name the call that started it (the field is older than `agentId`).
    if (parentCall && thread.link) thread.link.parentToolUseId ??= parentCall;
    return thread;
  }

  private session(data: Record<string, unknown>): void {
    const meta = this.main.builder.meta;
    const sessionId = str(data.sessionId);
    if (sessionId) meta.sessionId ??= sessionId;
    const version = str(data.copilotVersion);
    if (version) meta.version = version;
    const context = isRecord(data.context) ? data.context : {};
    const cwd = str(context.cwd);
    if (cwd) meta.cwd ??= cwd;
    const branch = str(context.branch);
    if (branch) meta.gitBranch ??= branch;
    const started = toEpochMs(data.startTime);
    if (started !== undefined) meta.createdAt ??= started;
    const model = str(data.selectedModel);
    if (model) {
      meta.model ??= model;
      this.main.model ??= model;
    }
  }

  private user(thread: Thread, data: Record<string, unknown>, id: string | undefined, common: { line: number; sourceType: string; timestamp?: number }): void {
    const content = str(data.content) ?? '';
    const blocks: Block[] = textBlocks(content);
    for (const attachment of Array.isArray(data.attachments) ? data.attachments : []) {
      if (!isRecord(attachment)) continue;
      const name = str(attachment.displayName) ?? str(attachment.path) ?? str(attachment.type);
      if (name) blocks.push({ type: 'text', text: `[${str(attachment.type) ?? 'attachment'}: ${name}]` });
    }
    const injected = data.isAutopilotContinuation === true || (str(data.source) !== undefined && str(data.source) !== 'user');
    const user = thread.builder.push({ ...common, ...(id ? { id } : {}), role: 'user', kind: 'message', blocks, ...(injected ? { flags: { injected: true } } : {}) });
    const transformed = str(data.transformedContent);
    if (transformed === undefined || transformed === content) return;
    const around = content && transformed.includes(content) ? transformed.replace(content, '').trim() : transformed;
    if (around) thread.builder.push({ ...common, id: `${user.id}/context`, role: 'user', kind: 'message', blocks: [{ type: 'text', text: around }], sourceType: 'user.message/transformedContent', flags: { injected: true } });
  }

  private response(thread: Thread, data: Record<string, unknown>, id: string | undefined, common: { line: number; sourceType: string; timestamp?: number }): void {
    const blocks: Block[] = [];
    const pending = thread.pendingThinking;
    thread.pendingThinking = undefined;
    const reasoning = str(data.reasoningText);
    if (pending && pending.text !== reasoning) blocks.push({ type: 'thinking', text: pending.text });
    if (reasoning) blocks.push({ type: 'thinking', text: reasoning });
    else if (str(data.reasoningOpaque) || str(data.encryptedContent)) blocks.push({ type: 'thinking', text: '', redacted: true });
    blocks.push(...textBlocks(str(data.content)));
    const requests = Array.isArray(data.toolRequests) ? data.toolRequests : [];
    requests.forEach((request, j) => {
      if (!isRecord(request)) return;
      const args = request.arguments;
      blocks.push({ type: 'tool_call', callId: str(request.toolCallId) ?? `${id ?? `l${common.line}`}.c${j}`, name: str(request.name) ?? 'unknown', input: typeof args === 'string' ? parseJsonLoose(args) : (args ?? {}) });
    });
    const line = pending ? Math.min(pending.line, common.line) : common.line;
    const entry = thread.builder.push({ ...common, line, ...(line < common.line ? { lineEnd: common.line } : {}), ...(id ? { id } : {}), role: 'assistant', kind: 'message', blocks });
    const model = str(data.model) ?? thread.model;
    if (model) {
      entry.model = model;
      this.main.builder.meta.model ??= model;
    }
    const apiCall = str(data.apiCallId);
    if (apiCall) thread.byApiCall.set(apiCall, entry);
    thread.lastWithoutUsage = entry;
  }

  private usage(thread: Thread, data: Record<string, unknown>): void {
    const apiCall = str(data.apiCallId);
    const target = (apiCall ? thread.byApiCall.get(apiCall) : undefined) ?? thread.lastWithoutUsage;
    const usage = copilotUsage(data);
    if (!target || !usage || target.usage) return;
    target.usage = usage;
    if (thread.lastWithoutUsage === target) thread.lastWithoutUsage = undefined;
  }

  private result(thread: Thread, data: Record<string, unknown>, id: string | undefined, common: { line: number; sourceType: string; timestamp?: number }): void {
    const callId = str(data.toolCallId) ?? `l${common.line}`;
    const failed = data.success === false;
    const result = isRecord(data.result) ? data.result : undefined;
    const error = isRecord(data.error) ? str(data.error.message) : str(data.error);
    const content: Array<TextBlock | ImageBlock> = [];
    const text = failed ? (error ?? str(result?.content)) : (str(result?.content) ?? error);
    if (text) content.push({ type: 'text', text });
    for (const part of Array.isArray(result?.contents) ? result.contents : []) {
      if (isRecord(part) && part.type === 'image') content.push({ type: 'image', mediaType: str(part.mimeType) ?? 'image', bytes: base64Bytes(str(part.data) ?? ''), source: 'base64' });
    }
    thread.builder.push({ ...common, ...(id ? { id } : {}), role: 'tool', kind: 'message', blocks: [{ type: 'tool_result', callId, content, isError: failed }] });
  }

  private threadResult(thread: Thread): ImportResult {
    const link: SubagentLink = { ...thread.link };
    const parentSessionId = this.main.builder.meta.sessionId;
    if (parentSessionId) link.parentSessionId = parentSessionId;
    const started = link.parentToolUseId ? this.started.get(link.parentToolUseId) : undefined;
    if (started?.agentName) link.agentType = started.agentName;
    if (started?.description) link.description = started.description;
    const result = thread.builder.result();
    result.issues = [];
    result.ignoredLines = 0;
    result.issueCount = 0;
    result.blankLines = 0;
    const model = result.entries.find((entry) => entry.model)?.model;
    result.meta = {
      ...(parentSessionId ? { sessionId: parentSessionId } : {}),
      ...(started?.description ? { title: started.description } : {}),
      ...(model ? { model } : {}),
      subagent: link,
    };
    return result;
  }
}

/** Reasoning left without a response (the file ends, or the response line was lost): an entry of its own. */
function flushThinking(thread: Thread): void {
  const pending = thread.pendingThinking;
  if (!pending) return;
  thread.pendingThinking = undefined;
  thread.builder.push({ line: pending.line, role: 'assistant', kind: 'message', blocks: [{ type: 'thinking', text: pending.text }], sourceType: 'assistant.reasoning' });
}

/** Usage of one call from an `assistant.usage` event (`inputTokens` is the whole prompt, cache reads included). */
function copilotUsage(data: Record<string, unknown>): Usage | undefined {
  const input = num(data.inputTokens);
  const output = num(data.outputTokens);
  if (input === undefined && output === undefined) return undefined;
  const usage: Usage = { input: input ?? 0, output: output ?? 0 };
  const cacheRead = num(data.cacheReadTokens);
  const cacheWrite = num(data.cacheWriteTokens);
  if (cacheRead) usage.cacheRead = cacheRead;
  if (cacheWrite) usage.cacheWrite = cacheWrite;
  const reasoning = num(data.reasoningTokens);
  if (reasoning) usage.reasoning = reasoning;
  return usage;
}

function textBlocks(text: string | undefined): TextBlock[] {
  return text ? [{ type: 'text', text }] : [];
}
