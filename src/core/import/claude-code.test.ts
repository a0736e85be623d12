// Claude Code importer: the real 1.0.51 session and the synthetic rewind/compaction sample, driven
// through the import driver so tool-call linking runs as it does in the app, plus small inline cases.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entry } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { branchLeaves } from '../journal/tree.ts';
import { isInjectedText } from './claude-code.ts';
import { importText } from './run.ts';
import { ImportFormatError, type ImportResult } from './types.ts';

const SAMPLES = 'public/samples/claude-code';
const REAL = readFileSync(`${SAMPLES}/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl`, 'utf8');
const DAG = readFileSync(`${SAMPLES}/dag_compact_after_rewind.jsonl`, 'utf8');

type Raw = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function rawLines(text: string): Raw[] {
  return text.split('\n').filter((line) => line.trim().length > 0).map((line) => JSON.parse(line) as Raw);
}

function jsonl(lines: unknown[]): string {
  return lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';
}

function load(lines: unknown[]): ImportResult {
  return importText(jsonl(lines), { format: 'claude-code' });
}

function counts(entries: readonly Entry[], key: (entry: Entry) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of entries) out[key(entry)] = (out[key(entry)] ?? 0) + 1;
  return out;
}

function byId(result: ImportResult, id: string): Entry {
  const entry = result.entries.find((candidate) => candidate.id === id);
  if (!entry) throw new Error(`no entry ${id}`);
  return entry;
}

// Small line factories for the inline cases.
let clock = 0;
function envelope(type: string, uuid: string, parentUuid: string | null, extra: Raw = {}): Raw {
  clock++;
  return {
    type, uuid, parentUuid, isSidechain: false, userType: 'external', cwd: '/p', sessionId: 's', version: '2.1.0',
    timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, clock)).toISOString(), ...extra,
  };
}
function user(uuid: string, parent: string | null, content: unknown, extra: Raw = {}): Raw {
  return envelope('user', uuid, parent, { message: { role: 'user', content }, ...extra });
}
function assistant(uuid: string, parent: string | null, id: string, content: unknown[], usage: Raw = { input_tokens: 1, output_tokens: 1 }, extra: Raw = {}): Raw {
  return envelope('assistant', uuid, parent, {
    requestId: `req_${id}`,
    message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-20250514', content, stop_reason: null, usage },
    ...extra,
  });
}
const text = (value: string) => ({ type: 'text', text: value });
const toolUse = (id: string, name = 'Bash') => ({ type: 'tool_use', id, name, input: { command: 'ls' } });
const toolResult = (id: string, content: unknown = 'ok', isError = false) => ({ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) });

describe('Claude Code importer: real session 37f83ec9 (CLI 1.0.51)', () => {
  const raw = rawLines(REAL);
  const result = importText(REAL, { fileName: '37f83ec9.jsonl' });

  it('detects the format and reads every line without issues', () => {
    expect(result.format).toBe('claude-code');
    expect(result.issues).toEqual([]);
    expect(result.lines).toBe(346);
    // 6 summary (title) lines are the only lines that are not entries or merged into one.
    expect(result.ignoredLines).toBe(6);
  });

  it('merges the 177 assistant lines into 105 responses', () => {
    const assistants = result.entries.filter((entry) => entry.role === 'assistant');
    const ids = new Set(raw.filter((line) => line.type === 'assistant').map((line) => line.message.id as string));
    expect(ids.size).toBe(105);
    expect(assistants).toHaveLength(105);
    // Each merged entry spans its first to last line and holds one block per line.
    const split = assistants.filter((entry) => entry.lineEnd !== undefined);
    expect(split.reduce((sum, entry) => sum + entry.blocks.length, 0) + (105 - split.length)).toBe(177);
    for (const entry of split) expect(entry.lineEnd).toBeGreaterThan(entry.line);
  });

  it('counts roles and kinds', () => {
    expect(counts(result.entries, (entry) => entry.role)).toEqual({ user: 8, assistant: 105, tool: 101, system: 54 });
    expect(counts(result.entries, (entry) => entry.kind)).toEqual({ message: 214, event: 54 });
    const users = result.entries.filter((entry) => entry.role === 'user');
    // The two "[Request interrupted by user for tool use]" lines are injected, the 6 prompts are not.
    expect(users.filter((entry) => entry.flags?.injected)).toHaveLength(2);
  });

  it('links all 101 tool calls to their 101 results', () => {
    expect(linkReport(result.entries)).toEqual({ toolCalls: 101, toolResults: 101, orphanToolCalls: 0, orphanToolResults: 0 });
    const errors = result.entries.flatMap((entry) => entry.blocks).filter((block) => block.type === 'tool_result' && block.isError);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('counts usage once per message id (the last line of each response)', () => {
    const lastOutput = new Map<string, number>();
    const lastInput = new Map<string, number>();
    for (const line of raw) {
      if (line.type !== 'assistant') continue;
      const usage = line.message.usage;
      lastOutput.set(line.message.id, usage.output_tokens);
      lastInput.set(line.message.id, usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens);
    }
    const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
    const assistants = result.entries.filter((entry) => entry.role === 'assistant');
    expect(sum(assistants.map((entry) => entry.usage?.output ?? 0))).toBe(sum(lastOutput.values()));
    expect(sum(assistants.map((entry) => entry.usage?.input ?? 0))).toBe(sum(lastInput.values()));
    // Summing every line instead would count more: the test would catch a per-line sum.
    const perLine = sum(raw.filter((line) => line.type === 'assistant').map((line) => line.message.usage.output_tokens as number));
    expect(perLine).toBeGreaterThan(sum(lastOutput.values()));
  });

  it('takes the title from the summary lines and the session metadata from the envelope', () => {
    // None of the summaries' leafUuids is in this file, so the first one is the title.
    expect(result.meta.title).toBe('Centralizing Project Name Logic Across Codebase');
    expect(result.meta).toMatchObject({
      sessionId: '37f83ec9-f2ea-42a9-925e-0d5c105cb6e8',
      cwd: '/Users/dain/workspace/claude-code-log',
      version: '1.0.51',
      model: 'claude-sonnet-4-20250514',
    });
  });

  it('is one branch: every parent resolves to an entry', () => {
    expect(branchLeaves(result.entries)).toHaveLength(1);
    const ids = new Set(result.entries.map((entry) => entry.id));
    expect(result.entries.filter((entry) => entry.parentId === null)).toHaveLength(1);
    for (const entry of result.entries) if (entry.parentId !== null) expect(ids.has(entry.parentId)).toBe(true);
  });

  it('keeps hook output as system events and drops toolUseResult', () => {
    const event = result.entries.find((entry) => entry.kind === 'event');
    expect(event).toMatchObject({ role: 'system', sourceType: 'system' });
    expect(JSON.stringify(result.entries)).not.toContain('toolUseResult');
  });
});

describe('Claude Code importer: rewind then compaction (synthetic sample)', () => {
  const result = importText(DAG, { fileName: 'dag_compact_after_rewind.jsonl' });

  it('keeps both branches of the rewind', () => {
    expect(result.entries).toHaveLength(12);
    expect(branchLeaves(result.entries).map((entry) => entry.id)).toEqual(['b1a', 'p1a']);
  });

  it('keeps the compaction markers, chained through logicalParentUuid', () => {
    expect(byId(result, 'cb')).toMatchObject({
      kind: 'compaction', role: 'system', parentId: 'b2a2', sourceType: 'system/compact_boundary',
      marker: { source: 'claude.compact_boundary', trigger: 'auto', tokensBefore: 150000 },
    });
    expect(byId(result, 'cs')).toMatchObject({ kind: 'compaction', role: 'summary', parentId: 'cb', marker: { source: 'claude.compact_summary' } });
    expect(result.entries.filter((entry) => entry.parentId === null).map((entry) => entry.id)).toEqual(['u1']);
    expect(counts(result.entries, (entry) => entry.role)).toEqual({ user: 5, assistant: 5, system: 1, summary: 1 });
    expect(result.meta).toMatchObject({ sessionId: 's1', cwd: '/tmp', version: '2.1.0', model: 'claude-sonnet-4-20250514' });
  });
});

describe('Claude Code importer: inline cases', () => {
  it('merges split lines with partial streaming usage into one entry, counting the final usage once', () => {
    const usage = (output: number) => ({ input_tokens: 4, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: output });
    const result = load([
      user('u1', null, 'do it'),
      assistant('a1', 'u1', 'msg_1', [{ type: 'thinking', thinking: '', signature: 'Sig' }], usage(1)),
      assistant('a2', 'a1', 'msg_1', [text('Running it')], usage(1)),
      assistant('a3', 'a2', 'msg_1', [toolUse('t1')], usage(125)),
      user('r1', 'a3', [toolResult('t1')]),
      assistant('a4', 'r1', 'msg_2', [text('done')], usage(7)),
    ]);
    const merged = byId(result, 'a1');
    expect(merged).toMatchObject({ role: 'assistant', line: 2, lineEnd: 4, parentId: 'u1' });
    expect(merged.blocks.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_call']);
    expect(merged.blocks[0]).toEqual({ type: 'thinking', text: '', signature: 'Sig' });
    expect(merged.usage).toEqual({ input: 124, output: 125, cacheRead: 100, cacheWrite: 20 });
    expect(byId(result, 'r1').parentId).toBe('a1');
    expect(byId(result, 'a4').parentId).toBe('r1');
    expect(result.entries.map((entry) => entry.id)).toEqual(['u1', 'a1', 'r1', 'a4']);
  });

  it('merges the parts of one response across the results of parallel calls', () => {
    const result = load([
      user('u1', null, 'look at both'),
      assistant('a1', 'u1', 'msg_p', [toolUse('t1', 'Read')]),
      user('r1', 'a1', [toolResult('t1')]),
      assistant('a2', 'a1', 'msg_p', [toolUse('t2', 'Read')]),
      user('r2', 'a2', [toolResult('t2')]),
      assistant('a3', 'r2', 'msg_q', [text('both read')]),
      // Newer CLIs can chain the next part through the previous result.
      assistant('b1', 'a3', 'msg_r', [toolUse('t3', 'Read')]),
      user('s1', 'b1', [toolResult('t3')]),
      assistant('b2', 's1', 'msg_r', [toolUse('t4', 'Read')]),
      user('s2', 'b2', [toolResult('t4')]),
    ]);
    expect(counts(result.entries, (entry) => entry.role)).toEqual({ user: 1, assistant: 3, tool: 4 });
    expect(byId(result, 'a1').blocks).toHaveLength(2);
    expect(byId(result, 'b1').blocks).toHaveLength(2);
    expect(byId(result, 'r2').parentId).toBe('a1');
    expect(byId(result, 's2').parentId).toBe('b1');
    expect(linkReport(result.entries)).toEqual({ toolCalls: 4, toolResults: 4, orphanToolCalls: 0, orphanToolResults: 0 });
    expect(branchLeaves(result.entries).map((entry) => entry.id)).toEqual(['s2']);
  });

  it('does not merge a repeated message id that is not the same response', () => {
    const result = load([
      user('u1', null, 'hi'),
      assistant('a1', 'u1', 'msg_same', [text('one')]),
      user('u2', 'a1', 'again'),
      assistant('a2', 'u2', 'msg_same', [text('two')]),
    ]);
    expect(result.entries.filter((entry) => entry.role === 'assistant')).toHaveLength(2);
  });

  it('flags injected text as user role, kind message, injected', () => {
    const injected = [
      '<command-name>/clear</command-name>\n<command-message>clear</command-message>',
      '<command-message>init is analyzing your codebase…</command-message>',
      '<local-command-stdout>ok</local-command-stdout>',
      '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands.</local-command-caveat>',
      '<bash-input>ls</bash-input>',
      '<bash-stdout>a b</bash-stdout>',
      '<task-notification>done</task-notification>',
      '[Request interrupted by user]',
      '[Request interrupted by user for tool use]',
      '  <system-reminder>remember</system-reminder>\n<system-reminder>twice</system-reminder>\n',
      'This session is being continued from a previous conversation that ran out of context.',
    ];
    const lines: Raw[] = [user('root', null, 'real prompt')];
    injected.forEach((value, i) => lines.push(user(`i${i}`, i === 0 ? 'root' : `i${i - 1}`, i % 2 === 0 ? value : [text(value)])));
    lines.push(user('meta', `i${injected.length - 1}`, [text('Caveat: plain text but isMeta')], { isMeta: true }));
    lines.push(user('mixed', 'meta', [text('<system-reminder>x</system-reminder>'), text('and my real question')]));
    lines.push(user('reminderThenText', 'mixed', '<system-reminder>x</system-reminder> then words'));
    const result = load(lines);
    for (let i = 0; i < injected.length; i++) {
      expect(byId(result, `i${i}`), injected[i]).toMatchObject({ role: 'user', kind: 'message', flags: { injected: true } });
    }
    expect(byId(result, 'meta').flags?.injected).toBe(true);
    for (const id of ['root', 'mixed', 'reminderThenText']) expect(byId(result, id).flags?.injected, id).toBeUndefined();
    expect(isInjectedText('<system-reminder>unclosed')).toBe(false);
    expect(isInjectedText('')).toBe(false);
  });

  it('splits a user line mixing tool results and text into a tool entry then a user entry', () => {
    const result = load([
      user('u1', null, 'go'),
      assistant('a1', 'u1', 'msg_1', [toolUse('t1')]),
      user('m1', 'a1', [toolResult('t1', [text('out'), { type: 'tool_reference', tool_name: 'TaskCreate' }]), text('also, stop after this')], {
        toolUseResult: { stdout: 'out', stderr: '' },
      }),
      assistant('a2', 'm1', 'msg_2', [text('stopping')]),
    ]);
    expect(result.entries.map((entry) => [entry.id, entry.role, entry.parentId])).toEqual([
      ['u1', 'user', null],
      ['a1', 'assistant', 'u1'],
      ['m1', 'tool', 'a1'],
      ['m1:text', 'user', 'm1'],
      ['a2', 'assistant', 'm1:text'],
    ]);
    expect(byId(result, 'm1').blocks).toEqual([
      { type: 'tool_result', callId: 't1', content: [text('out'), text('[tool: TaskCreate]')], isError: false, callEntryId: 'a1' },
    ]);
    expect(byId(result, 'm1:text')).toMatchObject({ line: 3, blocks: [text('also, stop after this')] });
    expect(byId(result, 'm1:text').flags).toBeUndefined();
  });

  it('reports an assistant line without "message" by line number and imports the rest', () => {
    const broken = envelope('assistant', 'a1', 'u1', { requestId: 'req_x' });
    const result = load([
      user('u1', null, 'hi'),
      broken,
      user('u2', 'a1', 'are you there?'),
      assistant('a2', 'u2', 'msg_2', [text('yes')]),
      envelope('user', 'u3', 'a2', { message: { role: 'user' } }),
    ]);
    expect(result.issues).toEqual([
      { line: 2, kind: 'malformed', message: expect.stringMatching(/^expected "message" to be an object on an assistant line, got nothing/) },
      { line: 5, kind: 'malformed', message: expect.stringContaining('"message.content"') },
    ]);
    expect(result.entries.map((entry) => entry.id)).toEqual(['u1', 'u2', 'a2']);
    // The skipped line's child hangs from the skipped line's own parent.
    expect(byId(result, 'u2').parentId).toBe('u1');
  });

  it('ignores unknown and metadata line types without issues, keeping the chain through them', () => {
    const result = load([
      { type: 'file-history-snapshot', messageId: 'x', snapshot: {}, isSnapshotUpdate: false },
      user('u1', null, 'hi'),
      envelope('progress', 'p1', 'u1', { data: { type: 'bash_progress' } }),
      envelope('attachment', 'at1', 'p1', { attachment: { type: 'todo_reminder' } }),
      envelope('some-future-type', 'f1', 'at1', { whatever: 1 }),
      { type: 'permission-mode', permissionMode: 'default', sessionId: 's' },
      { noType: true },
      assistant('a1', 'f1', 'msg_1', [text('hello')]),
    ]);
    expect(result.issues).toEqual([]);
    expect(result.lines).toBe(8);
    expect(result.ignoredLines).toBe(6);
    expect(result.entries.map((entry) => [entry.id, entry.parentId])).toEqual([['u1', null], ['a1', 'u1']]);
  });

  it('picks the title: custom-title, then ai-title, then the summary whose leaf is in the file', () => {
    const base = [user('u1', null, 'hi'), assistant('a1', 'u1', 'msg_1', [text('yo')])];
    const summaries = [
      { type: 'summary', summary: 'Other file', leafUuid: 'elsewhere' },
      { type: 'summary', summary: 'This file', leafUuid: 'a1' },
    ];
    expect(load([...summaries, ...base]).meta.title).toBe('This file');
    expect(load([summaries[0], ...base]).meta.title).toBe('Other file');
    expect(load([...summaries, ...base, { type: 'ai-title', aiTitle: 'AI', sessionId: 's' }]).meta.title).toBe('AI');
    expect(
      load([...summaries, { type: 'custom-title', customTitle: 'Mine', sessionId: 's' }, ...base, { type: 'ai-title', aiTitle: 'AI', sessionId: 's' }]).meta.title,
    ).toBe('Mine');
    expect(load(base).meta.title).toBeUndefined();
  });

  it('converts every content block shape without keeping image data', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const result = load([
      user('u1', null, [text('see'), { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }, { type: 'image', source: { type: 'url', url: 'https://x/y.png' } }]),
      assistant('a1', 'u1', 'msg_1', [
        { type: 'redacted_thinking', data: 'ENCRYPTED' },
        { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: { query: 'q' } },
        { type: 'web_search_tool_result', tool_use_id: 'srv_1', content: [{ type: 'web_search_result', title: 'Hit', url: 'https://hit', encrypted_content: 'E' }] },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc body' }, title: 'notes' },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' } },
        { type: 'weird_new_block', foo: 1 },
        null,
        toolUse('t1', 'Read'),
      ]),
      user('r1', 'a1', [toolResult('t1', [text('img:'), { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } }, { type: 'mystery' }], true)]),
    ]);
    const u1 = byId(result, 'u1');
    expect(u1.blocks).toEqual([
      text('see'),
      { type: 'image', mediaType: 'image/png', bytes: Buffer.from(png, 'base64').length, source: 'base64' },
      { type: 'image', mediaType: 'image', bytes: 0, source: 'url' },
    ]);
    expect(JSON.stringify(result.entries)).not.toContain(png.slice(0, 20));
    expect(JSON.stringify(result.entries)).not.toContain('https://x/y.png');
    const a1 = byId(result, 'a1');
    expect(a1.blocks).toEqual([
      { type: 'thinking', text: '', redacted: true, signature: 'ENCRYPTED' },
      { type: 'tool_call', callId: 'srv_1', name: 'web_search', input: { query: 'q' }, resultEntryId: 'a1' },
      { type: 'tool_result', callId: 'srv_1', content: [text('[web_search_result: Hit (https://hit)]')], isError: false, callEntryId: 'a1' },
      text('[document: notes]\ndoc body'),
      text('[document: application/pdf]'),
      text('[weird_new_block]'),
      { type: 'tool_call', callId: 't1', name: 'Read', input: { command: 'ls' }, resultEntryId: 'r1' },
    ]);
    expect(byId(result, 'r1').blocks[0]).toEqual({
      type: 'tool_result', callId: 't1', isError: true, callEntryId: 'a1',
      content: [text('img:'), { type: 'image', mediaType: 'image/jpeg', bytes: 3, source: 'base64' }, text('[mystery]')],
    });
  });

  it('flags sidechain, synthetic and api-error lines and keeps other system lines as events', () => {
    const noReply = assistant('s1', 'u1', 'msg_s', [text('No response requested.')]);
    const result = load([
      user('u1', null, 'hi'),
      { ...assistant('e1', 'u1', 'msg_e', [text('API Error: 529 overloaded')]), isApiErrorMessage: true },
      { ...noReply, message: { ...noReply.message, model: '<synthetic>' } },
      envelope('system', 'x1', 's1', { subtype: 'api_error', level: 'error', error: { error: { message: 'Overloaded' } }, retryInMs: 500 }),
      envelope('system', 'x2', 'x1', { subtype: 'turn_duration', durationMs: 1200 }),
      envelope('system', 'x3', 'x2', { subtype: 'microcompact_boundary', microcompactMetadata: { trigger: 'auto', preTokens: 9000, tokensSaved: 4000 } }),
      user('side1', null, 'Warmup', { isSidechain: true }),
      assistant('side2', 'side1', 'msg_w', [text('ready')], undefined, { isSidechain: true }),
    ]);
    expect(byId(result, 'e1').flags).toEqual({ synthetic: true, error: true });
    expect(byId(result, 's1').flags).toEqual({ synthetic: true });
    expect(byId(result, 's1').model).toBeUndefined();
    expect(byId(result, 'x1')).toMatchObject({ role: 'system', kind: 'event', flags: { error: true }, sourceType: 'system/api_error', blocks: [text('[api_error] Overloaded')] });
    expect(byId(result, 'x2')).toMatchObject({ kind: 'event', blocks: [text('[turn_duration] 1200 ms')] });
    expect(byId(result, 'x2').flags).toBeUndefined();
    expect(byId(result, 'x3')).toMatchObject({ kind: 'compaction', parentId: 'x2', marker: { source: 'claude.microcompact_boundary', trigger: 'auto', tokensBefore: 9000 } });
    // The sidechain left the main thread for a thread of its own (claude-code-threads.test.ts).
    expect(result.entries.some((entry) => entry.id.startsWith('side'))).toBe(false);
    expect(result.threads?.map((thread) => thread.entries.map((entry) => [entry.id, entry.parentId]))).toEqual([[['side1', null], ['side2', 'side1']]]);
    expect(branchLeaves(result.entries).map((entry) => entry.id)).toEqual(['e1', 'x3']);
  });

  it('skips a repeated uuid (a copied line) and counts it as ignored', () => {
    const lines = [user('u1', null, 'hi'), assistant('a1', 'u1', 'msg_1', [text('yo')])];
    const result = load([...lines, ...lines]);
    expect(result.entries.map((entry) => entry.id)).toEqual(['u1', 'a1']);
    expect(result.ignoredLines).toBe(2);
  });
});

describe('Claude Code importer: garbage lines (property)', () => {
  const lines = REAL.split('\n').filter((line) => line.trim().length > 0);
  const parsed = lines.map((line) => JSON.parse(line) as Raw);

  const garbage = (original: string): fc.Arbitrary<string> =>
    fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }).filter((value) => value.trim().length > 0),
      fc.nat({ max: Math.max(0, original.length - 2) }).map((cut) => original.slice(0, cut + 1)),
      fc.constantFrom('[]', '42', 'null', '"text"', '{}', '{"type":"assistant"}', '{"type":"user","message":7}', '{"type":"system","subtype":5}'),
      fc.constant(original).map((line) => {
        const value = JSON.parse(line) as Raw;
        delete value.message;
        return JSON.stringify(value);
      }),
    );

  // A sorted sample of the real lines, one of which is replaced by garbage.
  const scenario = fc
    .subarray(lines.map((_, index) => index), { minLength: 1 })
    .chain((picked) =>
      fc.nat({ max: picked.length - 1 }).chain((k) => {
        const broken = picked[k] ?? 0;
        return garbage(lines[broken] ?? '').map((junk) => ({ picked, broken, junk }));
      }),
    );

  it('never throws (except "no entries") and keeps every other response', () => {
    fc.assert(
      fc.property(scenario, ({ picked, broken, junk }) => check(picked, broken, junk)),
      { numRuns: 150 },
    );

    function check(picked: number[], broken: number, junk: string): boolean {
      const text = picked.map((index) => (index === broken ? junk : lines[index])).join('\n') + '\n';
      let result: ImportResult;
      try {
        result = importText(text, { format: 'claude-code' });
      } catch (error) {
        expect(error).toBeInstanceOf(ImportFormatError);
        expect((error as Error).message).toContain('no conversation entries');
        return true;
      }
      // The first kept line of each response is the entry's id (later parts merge into it).
      const firstLine = new Map<string, string>();
      for (const index of picked) {
        const line = parsed[index];
        if (index === broken || line?.type !== 'assistant') continue;
        if (!firstLine.has(line.message.id)) firstLine.set(line.message.id, line.uuid);
      }
      const assistants = new Set(result.entries.filter((entry) => entry.role === 'assistant').map((entry) => entry.id));
      for (const uuid of firstLine.values()) expect(assistants.has(uuid), uuid).toBe(true);
      return true;
    }
  });
});
