import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importText } from '../import/run.ts';
import { blockText, type Block, type CompactionMarker, type Entry, type Role } from '../journal/entry.ts';
import { linkToolCalls } from '../journal/link.ts';
import { exportPiSession, toPiSessionJsonl } from './pi-export.ts';

const V3_SMALL = readFileSync(new URL('../../../public/samples/pi/v3-small.jsonl', import.meta.url), 'utf8');

/** Builds a journal the way a live session grows one: entries in order, each under the current leaf. */
class Journal {
  readonly entries: Entry[] = [];
  leaf: string | null = null;
  private time = Date.UTC(2026, 0, 2, 10, 0, 0);
  private calls = 0;

  add(role: Role, blocks: Block[], extra: Partial<Entry> = {}): Entry {
    const entry: Entry = { id: `a${this.entries.length + 1}`, index: this.entries.length, parentId: this.leaf, role, kind: 'message', blocks, sourceType: 'live', line: this.entries.length + 1, timestamp: (this.time += 1000), ...extra };
    this.entries.push(entry);
    this.leaf = entry.id;
    return entry;
  }
  user(text: string, injected = false): Entry {
    return this.add('user', [{ type: 'text', text }], injected ? { flags: { injected: true } } : {});
  }
  assistant(text: string, tools: Array<{ name: string; input: unknown }> = [], extra: Partial<Entry> = {}): string[] {
    const ids = tools.map(() => `call_${++this.calls}`);
    const blocks: Block[] = text ? [{ type: 'text', text }] : [];
    tools.forEach((tool, i) => blocks.push({ type: 'tool_call', callId: ids[i]!, name: tool.name, input: tool.input }));
    this.add('assistant', blocks, { model: 'gpt-test', usage: { input: 900, output: 40 }, ...extra });
    return ids;
  }
  result(callId: string, text: string, isError = false): Entry {
    return this.add('tool', [{ type: 'tool_result', callId, content: [{ type: 'text', text }], isError }]);
  }
  compaction(summary: string, firstKeptEntryId: string, tokensBefore: number): Entry {
    return this.add('summary', [{ type: 'text', text: summary }], { kind: 'compaction', marker: { source: 'pi.compaction', firstKeptEntryId, tokensBefore } });
  }
  /** P7: leave the current leaf for `at`; the abandoned branch's summary continues from there. */
  branchTo(at: string | null, summary: string): Entry {
    const fromId = this.leaf!;
    this.leaf = at;
    return this.add('summary', [{ type: 'text', text: summary }], { kind: 'compaction', marker: { source: 'pi.branch_summary', fromId } });
  }
  path(): string[] {
    const byId = new Map(this.entries.map((e) => [e.id, e]));
    const out: string[] = [];
    for (let id = this.leaf; id !== null; id = byId.get(id)?.parentId ?? null) out.unshift(id);
    return out;
  }
}

/** What must survive the round trip, entry by entry. */
function shape(entries: readonly Entry[]) {
  return entries.map((e) => ({
    id: e.id, parentId: e.parentId, role: e.role, kind: e.kind, timestamp: e.timestamp,
    texts: e.blocks.map((b) => [b.type, blockText(b)]),
    links: e.blocks.flatMap((b) => (b.type === 'tool_call' ? [['call', b.callId, b.resultEntryId ?? null]] : b.type === 'tool_result' ? [['result', b.callId, b.callEntryId ?? null, b.isError]] : [])),
    marker: e.marker ? markerShape(e.marker) : null,
    injected: e.flags?.injected ?? false,
    usage: e.usage ? [e.usage.input, e.usage.output] : null,
  }));
}

function markerShape(marker: CompactionMarker) {
  return { source: marker.source, firstKeptEntryId: marker.firstKeptEntryId ?? null, tokensBefore: marker.tokensBefore ?? null, fromId: marker.fromId ?? null };
}

function roundTrip(entries: Entry[], meta = {}) {
  linkToolCalls(entries);
  const text = toPiSessionJsonl(entries, meta);
  const imported = importText(text, { format: 'pi', fileName: 'live.jsonl' });
  return { text, imported };
}

describe('toPiSessionJsonl', () => {
  it('writes the header, a model_change root, messages, tool results, a compaction and a branch summary as pi v3 does', () => {
    const j = new Journal();
    const first = j.user('What is in this folder?');
    const [call] = j.assistant('Listing it.', [{ name: 'ls', input: { path: '' } }]);
    j.result(call!, 'README.md\nsrc/');
    j.assistant('A parser project.');
    j.compaction('## Goal\nExplore the folder.', first.id, 1234);
    const fork = j.leaf;
    j.user('Now read the README.');
    j.branchTo(fork, 'The user asked to read the README; nothing was read yet.');
    const lines = toPiSessionJsonl(j.entries, { sessionId: 's-1', cwd: '/work/demo', createdAt: Date.UTC(2026, 0, 2, 10), model: 'gpt-test', provider: 'ollama' })
      .trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toEqual({ type: 'session', version: 3, id: 's-1', timestamp: '2026-01-02T10:00:00.000Z', cwd: '/work/demo' });
    expect(lines[1]).toEqual({ type: 'model_change', id: 'model', parentId: null, timestamp: '2026-01-02T10:00:00.000Z', provider: 'ollama', modelId: 'gpt-test' });
    expect(lines[2]).toEqual({ type: 'message', id: 'a1', parentId: 'model', timestamp: '2026-01-02T10:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'What is in this folder?' }], timestamp: Date.UTC(2026, 0, 2, 10, 0, 1) } });
    expect(lines[3]).toMatchObject({ type: 'message', id: 'a2', parentId: 'a1', message: {
      role: 'assistant', content: [{ type: 'text', text: 'Listing it.' }, { type: 'toolCall', id: 'call_1', name: 'ls', arguments: { path: '' } }],
      api: 'openai-completions', provider: 'ollama', model: 'gpt-test', stopReason: 'toolUse',
      usage: { input: 900, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: 940, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    } });
    expect(lines[4]).toMatchObject({ id: 'a3', message: { role: 'toolResult', toolCallId: 'call_1', toolName: 'ls', content: [{ type: 'text', text: 'README.md\nsrc/' }], isError: false } });
    expect(lines[6]).toEqual({ type: 'compaction', id: 'a5', parentId: 'a4', timestamp: '2026-01-02T10:00:05.000Z', summary: '## Goal\nExplore the folder.', firstKeptEntryId: 'a1', tokensBefore: 1234, fromHook: false });
    expect(lines[8]).toEqual({ type: 'branch_summary', id: 'a7', parentId: 'a5', timestamp: '2026-01-02T10:00:07.000Z', fromId: 'a6', summary: 'The user asked to read the README; nothing was read yet.', fromHook: false });
    expect(lines).toHaveLength(9);
  });

  it('reads back with the pi importer: same entries, roles, tree, markers and tool links', () => {
    const j = new Journal();
    const first = j.user('Find every TODO');
    const [a, b] = j.assistant('', [{ name: 'grep', input: { pattern: 'TODO' } }, { name: 'read', input: { path: 'notes/todo.txt', offset: 0, limit: 50 } }]);
    j.result(a!, 'src/parser.py:19: # TODO');
    j.result(b!, 'no such file', true);
    j.user('<system-reminder>The user mentioned @src/parser.py.</system-reminder>', true);
    j.assistant('Two TODOs.', [], { usage: { input: 1500, output: 20, cacheRead: 1000, cacheWrite: 100 } });
    j.compaction('Found two TODOs.', first.id, 4321);
    const { imported } = roundTrip(j.entries, { model: 'gpt-test', title: 'TODO hunt' });
    expect(imported.issues).toEqual([]);
    expect(shape(imported.entries)).toEqual(shape(j.entries));
    expect(imported.entries[5]!.usage).toEqual({ input: 1500, output: 20, cacheRead: 1000, cacheWrite: 100 });
    expect(imported.meta).toMatchObject({ version: '3', model: 'gpt-test', title: 'TODO hunt' });
  });

  it('says what pi cannot hold: events as custom lines, images as placeholders, several results split', () => {
    const j = new Journal();
    j.user('look');
    const [a, b] = j.assistant('', [{ name: 'ls', input: {} }, { name: 'stat', input: { path: 'x' } }]);
    j.add('tool', [
      { type: 'tool_result', callId: a!, content: [{ type: 'text', text: 'x' }, { type: 'image', mediaType: 'image/png', bytes: 2048, source: 'base64' }], isError: false },
      { type: 'tool_result', callId: b!, content: [{ type: 'text', text: 'file, 3 bytes' }], isError: false },
    ]);
    j.add('assistant', [{ type: 'text', text: 'Recovery failed.' }], { kind: 'event' });
    j.user('next');
    linkToolCalls(j.entries);
    const result = exportPiSession(j.entries);
    expect(result.notes).toHaveLength(3);
    expect(result.notes.join('\n')).toMatch(/1 image\(s\) as text placeholders[\s\S]*1 event or system entry as pi "custom" lines[\s\S]*Split 1 tool entry/);
    const imported = importText(result.text, { format: 'pi' });
    expect(imported.entries.map((e) => [e.id, e.role, e.parentId])).toEqual([
      ['a1', 'user', null], ['a2', 'assistant', 'a1'], ['a3-r1', 'tool', 'a2'], ['a3', 'tool', 'a3-r1'], ['a5', 'user', 'a3'],
    ]);
    expect(blockText(imported.entries[2]!.blocks[0]!)).toBe('x\n[image: image/png, 2 KB]');
    expect(imported.entries.flatMap((e) => e.blocks).filter((b) => b.type === 'tool_call').every((b) => b.resultEntryId)).toBe(true);
  });

  it('re-exporting an imported pi v3 file keeps its entries, tree and compactions', () => {
    const once = importText(V3_SMALL, { format: 'pi' });
    const again = importText(toPiSessionJsonl(once.entries, { model: once.meta.model ?? 'x', ...(once.meta.cwd ? { cwd: once.meta.cwd } : {}) }), { format: 'pi' });
    expect(shape(again.entries)).toEqual(shape(once.entries));
    expect(again.entries.filter((e) => e.marker?.source === 'pi.compaction')).toHaveLength(2);
  });

  it('round-trips any journal a live session can make (property)', () => {
    const op = fc.oneof(
      fc.record({ op: fc.constant('user' as const), text: fc.string({ maxLength: 20 }), injected: fc.boolean() }),
      fc.record({
        op: fc.constant('turn' as const), text: fc.string({ maxLength: 20 }),
        tools: fc.array(fc.record({ name: fc.constantFrom('ls', 'read', 'grep', 'glob', 'stat'), input: fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer())) }), { maxLength: 3 }),
        answered: fc.boolean(), isError: fc.boolean(),
      }),
      fc.record({ op: fc.constant('compact' as const), back: fc.nat(), tokens: fc.nat(1_000_000) }),
      fc.record({ op: fc.constant('branch' as const), back: fc.nat(), summary: fc.string({ maxLength: 20 }) }),
    );
    fc.assert(fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
      const j = new Journal();
      j.user('start'); // a session starts with the user's first message
      for (const step of ops) {
        const path = j.path();
        switch (step.op) {
          case 'user':
            j.user(step.text, step.injected);
            break;
          case 'turn': {
            const ids = j.assistant(step.text, step.tools);
            // An aborted or failed run may leave calls unanswered: the orphans must stay orphans.
            if (step.answered) ids.forEach((id, i) => j.result(id, `out ${i}`, step.isError));
            break;
          }
          case 'compact':
            if (path.length > 0) j.compaction('summary', path[step.back % path.length]!, step.tokens);
            break;
          case 'branch':
            if (path.length > 1) j.branchTo(path[step.back % (path.length - 1)]!, step.summary);
            break;
        }
      }
      const { imported } = roundTrip(j.entries, { model: 'm' });
      expect(imported.issues).toEqual([]);
      expect(imported.entries).toHaveLength(j.entries.length);
      expect(shape(imported.entries)).toEqual(shape(j.entries));
    }), { numRuns: 200 });
  });
});
