/**
 * Codex CLI rollout importer (FORMATS.md §2). Reads both layouts: the modern envelope
 * `{timestamp, type, payload}` and the legacy one (a `{id, timestamp, instructions, git}` header,
 * then bare Responses items, with `{record_type:"state"}` lines skipped).
 * Single items are decoded into blocks in ./codex-items.ts; this module turns them into entries.
 *
 * Decisions:
 * - `response_item` is the conversation. `event_msg` lines mirror it (user_message, agent_message,
 *   agent_reasoning, exec_command_end, …) and never become entries, so no text is doubled. The
 *   exceptions: `token_count` (usage of the model response just written, and the context window),
 *   `thread_rolled_back` (re-parenting, below), `turn_aborted` (flags the turn's assistant entry)
 *   and `error` (an `event` entry).
 * - One model response is written as several items (reasoning, message, function_call, …). The
 *   consecutive assistant-side items are merged into ONE assistant entry, closed by any other
 *   entry (user message, tool output, …) or by a `token_count` / `turn_context` / `compacted` /
 *   `session_meta` / turn-lifecycle line, so role counts mean "model responses" as they do for the
 *   other formats. The merged entry keeps the first item's line, `lineEnd` the last one's, and a
 *   `sourceType` listing the item types (`response_item/reasoning+function_call`).
 * - `thread_rolled_back {num_turns}` drops the last N user turns: the next entry is parented to the
 *   entry before the first dropped user prompt, so the dropped turns stay in the file as an
 *   abandoned branch (a real user prompt starts a turn; injected context messages do not).
 * - `compacted` becomes a compaction marker whose text is the summary (`message`, empty for remote
 *   compaction). `replacement_history` is not re-imported: it repeats history already in the file.
 * - Server-side calls (`web_search_call`, a `tool_search_call` not executed locally) have no output
 *   item: their result is part of the model response. They are marked `hosted`, complete calls, not
 *   orphans. `image_generation_call` carries its result inline and becomes an image block of the response.
 *   Inter-agent `agent_message` items become injected user messages.
 * - `turn_aborted` flags the last assistant entry of the current user turn (none if the turn was
 *   interrupted before the model wrote anything).
 * - `meta`: the first `session_meta` (resumed / forked / subagent ones repeat it), the first
 *   `turn_context` model, the latest non-zero context window, `thread_name_updated` as the title.
 * - `lines` counts the object lines read; `ignoredLines` those that neither made nor extended an
 *   entry (metadata, events, snapshots, unknown kinds).
 */
import type { Block, Entry, ImageBlock, Usage } from '../journal/entry.ts';
import { base64Bytes, EntryBuilder, isRecord, num, str, toEpochMs, type EntryDraft } from './builder.ts';
import { callBlock, contentBlocks, decodeOutput, isInjected, modelOfCollaboration, OUTPUT_TYPES, reasoningBlock, safeStringify, withOptional } from './codex-items.ts';
import type { ImportResult, LineImporter } from './types.ts';

export function createCodexImporter(): LineImporter {
  return new CodexImporter();
}

class CodexImporter implements LineImporter {
  private readonly builder = new EntryBuilder('codex');
  /** The assistant entry items of the current model response are merged into. */
  private group: Entry | undefined;
  /** The assistant entry the next `token_count` reports on (created since the last one). */
  private usageTarget: Entry | undefined;
  /** The last assistant entry of the current user turn (for `turn_aborted`). */
  private turnAssistant: Entry | undefined;
  /** Real user prompts on the live branch, in order (for `thread_rolled_back`). */
  private readonly turnStarts: Entry[] = [];
  /** Parent for the next entry after a rollback (undefined: chain to the previous entry). */
  private pendingParent: string | null | undefined;
  private model: string | undefined;
  private sawSessionMeta = false;

  line(value: Record<string, unknown>, lineNo: number): void {
    this.builder.lines++;
    if (!this.handle(value, lineNo)) this.builder.ignoredLines++;
  }

  finish(): ImportResult {
    return this.builder.result();
  }

  /** Returns true when the line produced an entry or added blocks to one. */
  private handle(value: Record<string, unknown>, lineNo: number): boolean {
    if ('record_type' in value) return false;
    const type = value.type;
    const timestamp = toEpochMs(value.timestamp);
    if (typeof type === 'string' && 'payload' in value) {
      const payload = value.payload;
      if (!isRecord(payload)) {
        if (type === 'response_item' || type === 'compacted' || type === 'session_meta') {
          this.builder.issue(lineNo, `"${type}" line has no payload object; it was skipped`);
        }
        return false;
      }
      switch (type) {
        case 'response_item':
          return this.item(payload, lineNo, timestamp);
        case 'event_msg':
          return this.event(payload, lineNo, timestamp);
        case 'turn_context':
          this.closeGroup();
          this.setModel(str(payload.model) ?? modelOfCollaboration(payload.collaboration_mode));
          return false;
        case 'session_meta':
          this.closeGroup();
          return this.sessionMeta(payload, lineNo, timestamp);
        case 'compacted':
          this.compacted(payload, lineNo, timestamp);
          return true;
        default:
          return false;
      }
    }
    if (type === undefined && typeof value.id === 'string' && 'instructions' in value) {
      // Legacy header: {id, timestamp, instructions, git}.
      return this.sessionMeta(value, lineNo, timestamp);
    }
    if (typeof type === 'string') return this.item(value, lineNo, timestamp);
    return false;
  }

  // ---- entries ------------------------------------------------------------------------------------

  private add(draft: EntryDraft): Entry {
    if (this.pendingParent !== undefined) {
      draft.parentId = this.pendingParent;
      this.pendingParent = undefined;
    }
    this.group = undefined;
    return this.builder.push(draft);
  }

  private closeGroup(): void {
    this.group = undefined;
  }

  private setModel(model: string | undefined): void {
    if (!model) return;
    this.model = model;
    this.builder.meta.model ??= model;
  }

  /** Adds blocks to the open assistant response, or starts one. */
  private assistant(blocks: Block[], itemType: string, lineNo: number, timestamp: number | undefined): void {
    const group = this.group;
    if (group) {
      group.blocks.push(...blocks);
      group.lineEnd = lineNo;
      const types = group.sourceType.slice('response_item/'.length).split('+');
      if (!types.includes(itemType)) group.sourceType += `+${itemType}`;
      return;
    }
    const entry = this.add(
      withOptional(
        { role: 'assistant', kind: 'message', blocks, sourceType: `response_item/${itemType}`, line: lineNo },
        { timestamp, model: this.model },
      ),
    );
    this.group = entry;
    this.usageTarget = entry;
    this.turnAssistant = entry;
  }

  private sessionMeta(payload: Record<string, unknown>, lineNo: number, timestamp: number | undefined): boolean {
    if (this.sawSessionMeta) return false;
    this.sawSessionMeta = true;
    const meta = this.builder.meta;
    const sessionId = str(payload.id) ?? str(payload.session_id);
    if (sessionId) meta.sessionId = sessionId;
    const cwd = str(payload.cwd);
    if (cwd) meta.cwd = cwd;
    const version = str(payload.cli_version);
    if (version) meta.version = version;
    const branch = isRecord(payload.git) ? str(payload.git.branch) : undefined;
    if (branch) meta.gitBranch = branch;
    const created = toEpochMs(payload.timestamp) ?? timestamp;
    if (created !== undefined) meta.createdAt = created;
    const base = payload.base_instructions;
    const instructions = isRecord(base) ? str(base.text) : (str(base) ?? str(payload.instructions));
    if (!instructions) return false;
    this.add(
      withOptional(
        { role: 'system', kind: 'message', blocks: [{ type: 'text', text: instructions }], sourceType: 'session_meta', line: lineNo },
        { timestamp },
      ),
    );
    return true;
  }

  private compacted(payload: Record<string, unknown>, lineNo: number, timestamp: number | undefined): void {
    this.add(
      withOptional(
        {
          role: 'summary',
          kind: 'compaction',
          blocks: [{ type: 'text', text: str(payload.message) ?? '' }],
          sourceType: 'compacted',
          line: lineNo,
          marker: { source: 'codex.compacted' },
        },
        { timestamp },
      ),
    );
    this.usageTarget = undefined;
  }

  // ---- response items -----------------------------------------------------------------------------

  private item(p: Record<string, unknown>, lineNo: number, timestamp: number | undefined): boolean {
    const type = str(p.type);
    if (!type) return false;
    switch (type) {
      case 'message':
        return this.message(p, lineNo, timestamp);
      case 'reasoning':
        this.assistant([reasoningBlock(p)], type, lineNo, timestamp);
        return true;
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call':
      case 'web_search_call':
      case 'tool_search_call':
        this.assistant([callBlock(type, p, lineNo)], type, lineNo, timestamp);
        return true;
      case 'image_generation_call': {
        const result = str(p.result);
        const image: ImageBlock = result
          ? { type: 'image', mediaType: 'image/png', bytes: base64Bytes(result), source: 'base64' }
          : { type: 'image', mediaType: 'image', bytes: 0, source: 'url' };
        this.assistant([image], type, lineNo, timestamp);
        return true;
      }
      case 'agent_message': {
        // Multi-agent: a message another agent put into this thread's history.
        this.add(
          withOptional(
            { role: 'user', kind: 'message', blocks: contentBlocks(p.content), sourceType: `response_item/${type}`, line: lineNo, flags: { injected: true } },
            { timestamp },
          ),
        );
        return true;
      }
      case 'compaction':
      case 'compaction_summary': {
        // Opaque server-side summary. Right after a `compacted` line it is part of that marker.
        const last = this.builder.entries[this.builder.entries.length - 1];
        if (last?.marker?.source === 'codex.compacted') return false;
        this.add(
          withOptional(
            { role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: '' }], sourceType: `response_item/${type}`, line: lineNo, marker: { source: 'codex.compaction' } },
            { timestamp },
          ),
        );
        this.usageTarget = undefined;
        return true;
      }
      default:
        if (OUTPUT_TYPES.has(type)) {
          this.output(type, p, lineNo, timestamp);
          return true;
        }
        return false; // ghost_snapshot, other / unknown items
    }
  }

  private message(p: Record<string, unknown>, lineNo: number, timestamp: number | undefined): boolean {
    const role = str(p.role);
    const blocks = contentBlocks(p.content);
    const sourceType = 'response_item/message';
    switch (role) {
      case 'assistant':
        this.assistant(blocks, 'message', lineNo, timestamp);
        return true;
      case 'user': {
        const injected = isInjected(blocks);
        const entry = this.add(
          withOptional({ role: 'user', kind: 'message', blocks, sourceType, line: lineNo }, { timestamp, flags: injected ? { injected: true } : undefined }),
        );
        if (!injected) {
          this.turnStarts.push(entry);
          this.turnAssistant = undefined;
          this.usageTarget = undefined;
        }
        return true;
      }
      case 'developer':
      case 'system':
        // Harness instructions inserted mid-conversation (permissions, collaboration mode, …).
        this.add(withOptional({ role: 'system', kind: 'message', blocks, sourceType, line: lineNo, flags: { injected: true } }, { timestamp }));
        return true;
      default:
        return false;
    }
  }

  private output(type: string, p: Record<string, unknown>, lineNo: number, timestamp: number | undefined): void {
    const callId = str(p.call_id) ?? str(p.id) ?? `l${lineNo}`;
    const decoded = type === 'tool_search_output' && p.output === undefined
      ? { content: [{ type: 'text' as const, text: safeStringify(p.tools ?? []) }], isError: false }
      : decodeOutput(p.output);
    this.add(
      withOptional(
        {
          role: 'tool',
          kind: 'message',
          blocks: [{ type: 'tool_result', callId, content: decoded.content, isError: decoded.isError || p.success === false }],
          sourceType: `response_item/${type}`,
          line: lineNo,
        },
        { timestamp },
      ),
    );
  }

  // ---- events -------------------------------------------------------------------------------------

  private event(p: Record<string, unknown>, lineNo: number, timestamp: number | undefined): boolean {
    switch (p.type) {
      case 'token_count':
        this.closeGroup();
        this.tokenCount(p.info);
        return false;
      case 'task_started':
      case 'turn_started': {
        this.closeGroup();
        const window = num(p.model_context_window);
        if (window !== undefined && window > 0) this.builder.meta.contextWindow = window;
        return false;
      }
      case 'task_complete':
      case 'context_compacted':
        this.closeGroup();
        return false;
      case 'turn_aborted':
        this.closeGroup();
        if (this.turnAssistant) this.turnAssistant.flags = { ...this.turnAssistant.flags, aborted: true };
        return false;
      case 'thread_rolled_back':
        this.closeGroup();
        this.rollBack(num(p.num_turns) ?? 0);
        return false;
      case 'thread_name_updated': {
        const title = str(p.thread_name);
        if (title) this.builder.meta.title = title;
        return false;
      }
      case 'error': {
        const message = str(p.message) ?? 'error';
        this.add(
          withOptional(
            { role: 'system', kind: 'event', blocks: [{ type: 'text', text: message }], sourceType: 'event_msg/error', line: lineNo, flags: { error: true } },
            { timestamp },
          ),
        );
        return true;
      }
      default:
        return false; // mirrored content and UI / tool lifecycle events
    }
  }

  private tokenCount(info: unknown): void {
    if (!isRecord(info)) return; // rate-limit-only update
    const window = num(info.model_context_window);
    if (window !== undefined && window > 0) this.builder.meta.contextWindow = window;
    const last = info.last_token_usage;
    const target = this.usageTarget;
    this.usageTarget = undefined;
    if (!isRecord(last) || !target || target.usage) return;
    const usage: Usage = { input: num(last.input_tokens) ?? 0, output: num(last.output_tokens) ?? 0 };
    const cacheRead = num(last.cached_input_tokens);
    if (cacheRead !== undefined) usage.cacheRead = cacheRead;
    const cacheWrite = num(last.cache_write_input_tokens);
    if (cacheWrite !== undefined) usage.cacheWrite = cacheWrite;
    const reasoning = num(last.reasoning_output_tokens);
    if (reasoning !== undefined) usage.reasoning = reasoning;
    target.usage = usage;
  }

  /** Drops the last `turns` user turns: the next entry hangs off the entry before them. */
  private rollBack(turns: number): void {
    if (turns <= 0 || this.turnStarts.length === 0) return;
    const keep = Math.max(0, this.turnStarts.length - turns);
    const first = this.turnStarts[keep];
    if (!first) return;
    this.turnStarts.length = keep;
    this.pendingParent = first.parentId;
    this.turnAssistant = undefined;
    this.usageTarget = undefined;
  }
}
