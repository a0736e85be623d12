import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entry, ToolCallBlock, ToolResultBlock } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { branchLeaves } from '../journal/tree.ts';
import { childSpans, childKey, pathKey } from './json-document.ts';
import { importText } from './run.ts';
import { ImportFormatError } from './types.ts';

const FIXTURE = fileURLToPath(new URL('../../../public/samples/openai-chat/gpt-4o-airline.json', import.meta.url));

type Raw = Record<string, unknown>;

function byId(entries: readonly Entry[], id: string): Entry {
  const entry = entries.find((candidate) => candidate.id === id);
  if (!entry) throw new Error(`no entry ${id}`);
  return entry;
}

function calls(entry: Entry): ToolCallBlock[] {
  return entry.blocks.filter((block): block is ToolCallBlock => block.type === 'tool_call');
}

function results(entry: Entry): ToolResultBlock[] {
  return entry.blocks.filter((block): block is ToolResultBlock => block.type === 'tool_result');
}

describe('openai-chat importer: tau-bench fixture', () => {
  const text = readFileSync(FIXTURE, 'utf8');
  const raw = JSON.parse(text) as Array<{ traj: Raw[] }>;
  const result = importText(text, { fileName: 'gpt-4o-airline.json' });

  it('is detected and imports every message without issues', () => {
    expect(result.format).toBe('openai-chat');
    expect(result.issues).toEqual([]);
    const messages = raw.reduce((sum, record) => sum + record.traj.length, 0);
    expect(messages).toBe(5308);
    expect(result.entries).toHaveLength(messages);
    expect(result.entries.every((entry) => entry.kind === 'message')).toBe(true);
  });

  it('counts roles as the raw JSON does', () => {
    const expected: Record<string, number> = {};
    for (const record of raw) {
      for (const message of record.traj) {
        const role = message.role === 'developer' ? 'system' : message.role === 'function' ? 'tool' : String(message.role);
        expected[role] = (expected[role] ?? 0) + 1;
      }
    }
    const actual: Record<string, number> = {};
    for (const entry of result.entries) actual[entry.role] = (actual[entry.role] ?? 0) + 1;
    expect(actual).toEqual(expected);
  });

  it('links tool calls and results exactly as an independent count of the raw JSON', () => {
    let toolCalls = 0;
    let toolResults = 0;
    let orphanToolCalls = 0;
    let orphanToolResults = 0;
    for (const record of raw) {
      const traj = record.traj;
      traj.forEach((message, i) => {
        for (const call of (message.tool_calls as Raw[] | undefined) ?? []) {
          toolCalls++;
          const answered = traj.slice(i + 1).some((later) => later.role === 'tool' && later.tool_call_id === call.id);
          if (!answered) orphanToolCalls++;
        }
        if (message.role === 'tool') {
          toolResults++;
          const asked = traj.slice(0, i).some((earlier) => ((earlier.tool_calls as Raw[] | undefined) ?? []).some((call) => call.id === message.tool_call_id));
          if (!asked) orphanToolResults++;
        }
      });
    }
    expect(toolCalls).toBe(1164);
    expect(linkReport(result.entries)).toEqual({ toolCalls, toolResults, orphanToolCalls, orphanToolResults });
  });

  it('makes each record a separate root with c<k>.m<i> ids chained inside it', () => {
    const roots = result.entries.filter((entry) => entry.parentId === null);
    expect(roots).toHaveLength(raw.length);
    expect(roots.map((entry) => entry.id)).toEqual(raw.map((_, k) => `c${k}.m0`));
    for (const entry of result.entries) {
      const match = /^c(\d+)\.m(\d+)$/.exec(entry.id);
      expect(match).not.toBeNull();
      const i = Number(match?.[2]);
      expect(entry.parentId).toBe(i === 0 ? null : `c${match?.[1]}.m${i - 1}`);
    }
    expect(branchLeaves(result.entries)).toHaveLength(raw.length);
  });

  it('points each entry at the source lines of its message object', () => {
    const lines = text.split('\n');
    for (const entry of result.entries) {
      expect(lines[entry.line - 1]?.trim()).toBe('{');
      const end = entry.lineEnd ?? entry.line;
      expect(lines[end - 1]?.trim()).toMatch(/^},?$/);
      const body = lines.slice(entry.line - 1, end);
      expect(body.some((line) => line.trim().startsWith(`"role": "${entry.sourceType}"`))).toBe(true);
    }
  });
});

describe('openai-chat importer: inline documents', () => {
  it('imports a bare single-line array with m<i> ids, one root and line 1', () => {
    const text = JSON.stringify([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ]);
    const result = importText(text);
    expect(result.format).toBe('openai-chat');
    expect(result.entries.map((entry) => [entry.id, entry.parentId, entry.role, entry.line])).toEqual([
      ['m0', null, 'system', 1],
      ['m1', 'm0', 'user', 1],
      ['m2', 'm1', 'assistant', 1],
    ]);
    expect(result.entries[2]?.blocks).toEqual([{ type: 'text', text: 'Hello!' }]);
    expect(result.lines).toBe(1); // the document is one line long
  });

  it('imports {messages} with developer as system and finds pretty-printed lines', () => {
    const doc = { model: 'gpt-4.1', messages: [{ role: 'developer', content: 'Rules' }, { role: 'user', content: [{ type: 'text', text: 'Q' }] }] };
    const text = JSON.stringify(doc, null, 2);
    const result = importText(text);
    expect(result.entries.map((entry) => [entry.id, entry.role, entry.sourceType])).toEqual([
      ['m0', 'system', 'developer'],
      ['m1', 'user', 'user'],
    ]);
    const lines = text.split('\n');
    for (const entry of result.entries) expect(lines[entry.line - 1]?.trim()).toBe('{');
    expect(result.entries[1]?.blocks).toEqual([{ type: 'text', text: 'Q' }]);
    expect(result.meta.model).toBe('gpt-4.1');
  });

  it('parses tool_calls arguments loosely and links them to tool messages by id', () => {
    const result = importText(
      JSON.stringify([
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_b', type: 'function', function: { name: 'shell', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_b', name: 'shell', content: 'ok' },
        { role: 'tool', tool_call_id: 'call_a', name: 'get_weather', content: [{ type: 'text', text: 'sunny' }] },
      ]),
    );
    const assistant = byId(result.entries, 'm1');
    expect(assistant.blocks).toEqual([
      { type: 'tool_call', callId: 'call_a', name: 'get_weather', input: { city: 'Paris' }, resultEntryId: 'm3' },
      { type: 'tool_call', callId: 'call_b', name: 'shell', input: 'not json', resultEntryId: 'm2' },
    ]);
    expect(results(byId(result.entries, 'm3'))).toEqual([
      { type: 'tool_result', callId: 'call_a', toolName: 'get_weather', content: [{ type: 'text', text: 'sunny' }], isError: false, callEntryId: 'm1' },
    ]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 2, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('pairs legacy function_call with the following function message', () => {
    const result = importText(
      JSON.stringify({
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          { role: 'function', name: 'get_weather', content: '{"temp": 3}' },
          { role: 'assistant', content: 'It is 3 degrees.' },
        ],
      }),
    );
    const call = calls(byId(result.entries, 'm1'));
    expect(call).toEqual([{ type: 'tool_call', callId: 'fc-0-1', name: 'get_weather', input: { city: 'Oslo' }, resultEntryId: 'm2' }]);
    const answer = byId(result.entries, 'm2');
    expect(answer.role).toBe('tool');
    expect(answer.sourceType).toBe('function');
    expect(results(answer)).toEqual([
      { type: 'tool_result', callId: 'fc-0-1', toolName: 'get_weather', content: [{ type: 'text', text: '{"temp": 3}' }], isError: false, callEntryId: 'm1' },
    ]);
  });

  it('turns a SWE-agent tool_call_ids list into one result per id', () => {
    const doc = {
      trajectory: [{ action: 'ls', observation: 'a b', thought: 'look' }],
      history: [
        { role: 'system', content: 'You are SWE-agent.', agent: 'main', message_type: 'system_prompt' },
        { role: 'user', content: 'demo', agent: 'main', message_type: 'demonstration', is_demo: true },
        {
          role: 'assistant',
          content: 'Let me look.',
          thought: 'Let me look.',
          action: 'ls',
          agent: 'main',
          message_type: 'action',
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'bash', arguments: '{"command":"pwd"}' } },
          ],
        },
        { role: 'tool', content: [{ type: 'text', text: 'OBSERVATION:\na b' }], agent: 'main', message_type: 'observation', tool_call_ids: ['toolu_1', 'toolu_2'] },
      ],
      info: { exit_status: 'submitted' },
    };
    const result = importText(JSON.stringify(doc, null, 2));
    expect(result.format).toBe('openai-chat');
    expect(result.entries.map((entry) => entry.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(result.entries[1]?.flags).toEqual({ injected: true });
    const tool = byId(result.entries, 'm3');
    expect(results(tool).map((block) => [block.callId, block.callEntryId, block.content])).toEqual([
      ['toolu_1', 'm2', [{ type: 'text', text: 'OBSERVATION:\na b' }]],
      ['toolu_2', 'm2', [{ type: 'text', text: 'OBSERVATION:\na b' }]],
    ]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 2, toolResults: 2, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('keeps null content as no blocks and reasoning as a thinking block first', () => {
    const result = importText(
      JSON.stringify([
        { role: 'user', content: null },
        { role: 'assistant', content: 'Answer', reasoning_content: 'Let me think', refusal: null },
        { role: 'assistant', content: null, reasoning: 'Hmm', refusal: 'I cannot help with that.' },
      ]),
    );
    expect(result.entries.map((entry) => entry.blocks)).toEqual([
      [],
      [{ type: 'thinking', text: 'Let me think' }, { type: 'text', text: 'Answer' }],
      [{ type: 'thinking', text: 'Hmm' }, { type: 'text', text: 'I cannot help with that.' }],
    ]);
  });

  it('turns image, audio and refusal parts into blocks and never keeps the data or the URL', () => {
    const data = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const result = importText(
      JSON.stringify([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${data}`, detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://example.com/secret-cat.png' } },
            { type: 'input_audio', input_audio: { data: 'UklGRiQAAABXQVZF', format: 'wav' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
      ]),
    );
    expect(result.entries[0]?.blocks).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', mediaType: 'image/png', bytes: Buffer.from(data, 'base64').length, source: 'base64' },
      { type: 'image', mediaType: 'image', bytes: 0, source: 'url' },
      { type: 'text', text: '[audio]' },
    ]);
    expect(result.entries[1]?.blocks).toEqual([{ type: 'text', text: 'No.' }]);
    const json = JSON.stringify(result.entries);
    expect(json).not.toContain('base64,');
    expect(json).not.toContain(data.slice(0, 20));
    expect(json).not.toContain('secret-cat');
    expect(json).not.toContain('UklGR');
  });

  it('sizes an Anthropic-style image block found in a Chat Completions list', () => {
    const result = importText(
      JSON.stringify([
        { role: 'system', content: 'sys' },
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGODlhAQABAAAAACw=' } }] },
      ]),
    );
    expect(result.format).toBe('openai-chat');
    expect(result.entries[1]?.blocks).toEqual([{ type: 'image', mediaType: 'image/gif', bytes: 14, source: 'base64' }]);
    expect(JSON.stringify(result.entries)).not.toContain('R0lGOD');
  });

  it('reports a bad message in the middle with its line and imports the others', () => {
    const doc = {
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hello' },
        42,
        { role: 'robot', content: 'beep' },
        { content: 'no role' },
        { role: 'assistant', content: 'hi' },
      ],
    };
    const text = JSON.stringify(doc, null, 2);
    const lines = text.split('\n');
    const result = importText(text);
    expect(result.entries.map((entry) => [entry.id, entry.parentId])).toEqual([
      ['m0', null],
      ['m1', 'm0'],
      ['m5', 'm1'],
    ]);
    expect(result.issues.map((issue) => [issue.line, issue.kind])).toEqual([
      [lines.findIndex((line) => line.trim() === '42,') + 1, 'malformed'],
      [lines.findIndex((line) => line.includes('"robot"')), 'unsupported'],
      [lines.findIndex((line) => line.includes('"no role"')), 'malformed'],
    ]);
    expect(result.issues[0]?.message).toContain('message 2 is number 42');
    expect(result.issues[1]?.message).toContain('unknown role "robot"');
    expect(result.entries[2]?.line).toBe(lines.findIndex((line) => line.includes('"role": "assistant"')));
  });

  it('numbers conversations by record index, skipping records without messages', () => {
    const result = importText(
      JSON.stringify([
        { task_id: 1, traj: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] },
        { task_id: 2, note: 'no conversation' },
        { task_id: 3, traj: [{ role: 'user', content: 'c' }, 'oops'] },
      ]),
    );
    expect(result.entries.map((entry) => [entry.id, entry.parentId])).toEqual([
      ['c0.m0', null],
      ['c0.m1', 'c0.m0'],
      ['c2.m0', null],
    ]);
    expect(result.issues.map((issue) => issue.message)).toEqual([expect.stringContaining('conversation 2, message 1 is a string "oops"')]);
  });

  it('refuses JSON of an unknown shape, naming what it found and what it expects', () => {
    expect(() => importText('{"foo":1}', { fileName: 'x.json' })).toThrow(ImportFormatError);
    expect(() => importText('{"foo":1}', { fileName: 'x.json' })).toThrow(/"foo".*expected .*messages/);
  });
});

// ------------------------------------------------------------------------------------------------
// Property: generated Chat Completions message arrays never crash the import, and every tool call
// with a later tool message for its id is linked to the first such message.

type Gen = Raw | number | string | boolean | null;

const refId = fc.nat({ max: 6 }).map((n) => `call_${n}`);
const textArb = fc.string({ maxLength: 12 });
const partArb = fc.oneof(
  textArb.map((text) => ({ type: 'text', text })),
  fc.constantFrom('data:image/png;base64,AAAA', 'https://x.test/a.png', 'data:,raw').map((url) => ({ type: 'image_url', image_url: { url } })),
  fc.constant({ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }),
  textArb.map((refusal) => ({ type: 'refusal', refusal })),
  fc.constant({ type: 'mystery' }),
);
const contentArb = fc.oneof(textArb, fc.constant(null), fc.array(partArb, { maxLength: 3 }));
/** Tool call ids are assigned afterwards (unique, `call_<n>`), so results sometimes precede, follow or miss them. */
const toolCallArb = fc.record({
  type: fc.constant('function'),
  function: fc.record({ name: fc.constantFrom('bash', 'read', 'edit'), arguments: fc.oneof(fc.constant('{"a":1}'), textArb) }),
});
const messageArb: fc.Arbitrary<Gen> = fc.oneof(
  { arbitrary: fc.record({ role: fc.constantFrom('system', 'developer'), content: contentArb }), weight: 1 },
  { arbitrary: fc.record({ role: fc.constant('user'), content: contentArb }), weight: 2 },
  {
    arbitrary: fc.record(
      { role: fc.constant('assistant'), content: contentArb, tool_calls: fc.array(toolCallArb, { maxLength: 3 }), reasoning_content: textArb },
      { requiredKeys: ['role', 'content'] },
    ),
    weight: 5,
  },
  {
    arbitrary: fc.record({ role: fc.constant('assistant'), content: contentArb, function_call: fc.record({ name: fc.constantFrom('bash', 'read'), arguments: textArb }) }),
    weight: 1,
  },
  {
    arbitrary: fc.record(
      { role: fc.constant('tool'), tool_call_id: refId, content: contentArb, name: fc.constantFrom('bash', 'read') },
      { requiredKeys: ['role', 'tool_call_id', 'content'] },
    ),
    weight: 5,
  },
  { arbitrary: fc.record({ role: fc.constant('tool'), tool_call_ids: fc.array(refId, { maxLength: 3 }), content: contentArb }), weight: 2 },
  { arbitrary: fc.record({ role: fc.constant('function'), name: fc.constantFrom('bash', 'read', 'other'), content: contentArb }), weight: 1 },
  { arbitrary: fc.record({ role: fc.string({ maxLength: 6 }), content: contentArb }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Gen>, weight: 1 },
);

function assignCallIds(messages: Gen[]): void {
  let n = 0;
  for (const message of messages) {
    if (message && typeof message === 'object' && !Array.isArray(message) && message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls as Raw[]) call.id = `call_${n++}`;
    }
  }
}

function resultIds(message: Gen): string[] {
  if (!message || typeof message !== 'object' || Array.isArray(message) || message.role !== 'tool') return [];
  if (typeof message.tool_call_id === 'string' && message.tool_call_id) return [message.tool_call_id];
  return Array.isArray(message.tool_call_ids) ? (message.tool_call_ids as unknown[]).filter((id): id is string => typeof id === 'string' && id.length > 0) : [];
}

describe('openai-chat importer: property', () => {
  it('never throws anything but ImportFormatError and links every answered tool call', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 25 }), fc.boolean(), fc.boolean(), (messages, wrap, pretty) => {
        assignCallIds(messages);
        const doc = wrap ? { messages } : messages;
        const text = JSON.stringify(doc, null, pretty ? 2 : undefined);
        let result;
        try {
          result = importText(text);
        } catch (error) {
          expect(error).toBeInstanceOf(ImportFormatError);
          return;
        }
        if (result.format !== 'openai-chat') return;
        messages.forEach((message, i) => {
          if (!message || typeof message !== 'object' || Array.isArray(message) || message.role !== 'assistant' || !Array.isArray(message.tool_calls)) return;
          const entry = byId(result.entries, `m${i}`);
          for (const call of message.tool_calls as Raw[]) {
            const answer = messages.findIndex((later, j) => j > i && resultIds(later).includes(call.id as string));
            const block = calls(entry).find((candidate) => candidate.callId === call.id);
            expect(block).toBeDefined();
            if (answer !== -1) expect(block?.resultEntryId).toBe(`m${answer}`);
            // Unanswered later, it may still pair with a result written before it (out-of-order logs).
            else if (block?.resultEntryId !== undefined) expect(byId(result.entries, block.resultEntryId).index).toBeLessThan(entry.index);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('childSpans', () => {
  const lineCount = (value: unknown): number => JSON.stringify(value, null, 2).split('\n').length;
  const children = fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 8 });

  it('finds the first and last line of each element of a nested list, with any keys and strings', () => {
    fc.assert(
      // The `k` prefix keeps the key after "a" (integer-like keys would be ordered first).
      fc.property(fc.jsonValue({ maxDepth: 2 }), fc.string({ unit: 'binary' }).map((tail) => `k${tail}`), children, (junk, key, list) => {
        const doc = { a: junk, [key]: list };
        const text = JSON.stringify(doc, null, 2);
        const spans = childSpans(text, [[key]]);
        let line = 2 + lineCount(junk) + 1;
        list.forEach((child, i) => {
          const height = lineCount(child);
          expect(spans.get(childKey(pathKey([key]), i))).toEqual({ line, lineEnd: line + height - 1 });
          line += height;
        });
        expect(childSpans(JSON.stringify(doc), [[key]]).get(childKey(pathKey([key]), 0))).toEqual(list.length > 0 ? { line: 1, lineEnd: 1 } : undefined);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on text that does not match the document', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        childSpans(text, [[], [0, 'traj']]);
      }),
    );
  });
});
