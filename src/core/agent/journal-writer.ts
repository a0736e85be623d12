/**
 * The live session's journal: every entry the loop makes (user message, assistant reply, tool
 * result, compaction, branch summary) gets a unique id and its place in the tree here, and is
 * handed to the session's listener once, in order, never to be rewritten. A reply's tool-result
 * entries have their ids reserved before the reply is written, so call and result are linked both
 * ways from the start (as `linkToolCalls` links an import).
 */
import type { Block, CompactionMarker, Entry, ToolCallBlock, Usage } from '../journal/entry.ts';
import type { ModelReply, ModelToolCall, ToolOutcome } from './types.ts';

/** pi's construct for a compaction the loop recorded (its summary, firstKeptEntryId, tokensBefore). */
export const COMPACTION_SOURCE = 'pi.compaction';
/** pi's construct for the summary of an abandoned branch (fromId = the abandoned leaf). */
export const BRANCH_SUMMARY_SOURCE = 'pi.branch_summary';

/** A compaction record of the loop (or one it reads back from a resumed journal). */
export function isCompactionRecord(entry: Entry): boolean {
  return entry.kind === 'compaction' && entry.marker?.source === COMPACTION_SOURCE;
}

export class JournalWriter {
  readonly entries: Entry[];
  private readonly byIdMap = new Map<string, Entry>();
  /** Ids handed out, including those reserved for results not yet written. */
  private readonly ids = new Set<string>();
  private next = 1;

  constructor(
    journal: readonly Entry[],
    private readonly now: () => number,
    private readonly emit: (entry: Entry) => void,
  ) {
    this.entries = [...journal];
    for (const entry of journal) {
      this.ids.add(entry.id);
      this.byIdMap.set(entry.id, entry);
      const n = /^a(\d+)$/.exec(entry.id);
      if (n) this.next = Math.max(this.next, Number(n[1]) + 1);
    }
  }

  byId(id: string): Entry | undefined {
    return this.byIdMap.get(id);
  }

  /** A fresh id (`a<n>`), never used in this journal. */
  newId(): string {
    let id = `a${this.next++}`;
    while (this.ids.has(id)) id = `a${this.next++}`;
    this.ids.add(id);
    return id;
  }

  private append(id: string, parentId: string | null, fields: Pick<Entry, 'role' | 'kind' | 'blocks' | 'sourceType'> & Partial<Entry>): Entry {
    const index = this.entries.length;
    const entry: Entry = { id, index, parentId, timestamp: this.now(), line: index + 1, ...fields };
    this.entries.push(entry);
    this.byIdMap.set(id, entry);
    this.emit(entry);
    return entry;
  }

  user(parentId: string | null, text: string): Entry {
    return this.append(this.newId(), parentId, { role: 'user', kind: 'message', blocks: [{ type: 'text', text }], sourceType: 'message/user' });
  }

  /**
   * The assistant reply, with a result entry id reserved for each tool call (in order). The
   * calls' ids are made unique on the branch (a model may repeat or omit one).
   */
  assistant(parentId: string | null, reply: ModelReply, takenCallIds: ReadonlySet<string>): { entry: Entry; calls: Array<{ call: ModelToolCall; resultId: string }> } {
    const id = this.newId();
    const blocks: Block[] = [];
    if (reply.thinking) blocks.push({ type: 'thinking', text: reply.thinking });
    if (reply.text) blocks.push({ type: 'text', text: reply.text });
    const used = new Set(takenCallIds);
    const calls = reply.toolCalls.map((call) => {
      let callId = call.id;
      for (let k = 2; !callId || used.has(callId); k++) callId = `${call.id || 'call'}-${id}-${k}`;
      used.add(callId);
      const resultId = this.newId();
      const block: ToolCallBlock = { type: 'tool_call', callId, name: call.name, input: call.input, resultEntryId: resultId };
      blocks.push(block);
      return { call: { ...call, id: callId }, resultId };
    });
    const usage: Usage | undefined = reply.usage;
    const entry = this.append(id, parentId, {
      role: 'assistant', kind: 'message', blocks, sourceType: 'message/assistant', model: reply.model,
      ...(usage ? { usage } : {}),
    });
    return { entry, calls };
  }

  /** The result of one tool call, under the id reserved for it. */
  toolResult(resultId: string, parentId: string, callEntryId: string, call: ModelToolCall, outcome: ToolOutcome): Entry {
    const text = outcome.ok ? outcome.text : outcome.text || outcome.error || 'The tool failed.';
    return this.append(resultId, parentId, {
      role: 'tool',
      kind: 'message',
      blocks: [{ type: 'tool_result', callId: call.id, toolName: call.name, content: [{ type: 'text', text }], isError: !outcome.ok, callEntryId }],
      sourceType: 'message/toolResult',
    });
  }

  /** A compaction record (pi `compaction`) or a branch summary (pi `branch_summary`). */
  summary(parentId: string | null, text: string, marker: CompactionMarker): Entry {
    const branch = marker.source === BRANCH_SUMMARY_SOURCE;
    return this.append(this.newId(), parentId, {
      role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text }], sourceType: branch ? 'branch_summary' : 'compaction', marker,
    });
  }
}
