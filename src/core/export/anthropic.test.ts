import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, type Spec } from '../compaction/testing.ts';
import type { ContextEntry } from '../compaction/types.ts';
import type { Block, Entry, Role } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { importText } from '../import/run.ts';
import { toAnthropicMessages } from './anthropic.ts';

function journal(specs: Spec[]): ContextEntry[] {
  return linkEntries(makeEntries(specs)).map((entry) => ({ role: entry.role, entry, origin: 'journal' }));
}

function summary(text: string, count: number): ContextEntry {
  const entry: Entry = { id: 'sum-1', index: 0, parentId: null, role: 'summary', kind: 'message', blocks: [{ type: 'text', text }], sourceType: 'summary', line: 0 };
  return { role: 'summary', entry, origin: 'summary', replaces: { fromId: 'x0', toId: `x${count - 1}`, count } };
}

function entry(id: string, role: Role, blocks: Block[]): ContextEntry {
  return { role, entry: { id, index: 0, parentId: null, role, kind: 'message', blocks, sourceType: 'test', line: 1 }, origin: 'journal' };
}

interface Shape {
  role: string;
  texts: string[];
  calls: Array<{ id: string; name: string; input: unknown }>;
  results: Array<{ id: string; text: string; error: boolean }>;
}

function shapeOf(entry: Entry): Shape {
  return {
    role: entry.role === 'summary' ? 'user' : entry.role,
    texts: entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])),
    calls: entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [{ id: block.callId, name: block.name, input: block.input }] : [])),
    results: entry.blocks.flatMap((block) =>
      block.type === 'tool_result' ? [{ id: block.callId, text: block.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'), error: block.isError }] : [],
    ),
  };
}

/** Anthropic merges same-role neighbours, so the expected shape merges them too. */
function merged(entries: readonly Entry[]): Shape[] {
  const out: Shape[] = [];
  for (const shape of entries.map(shapeOf)) {
    const last = out[out.length - 1];
    if (last && last.role === shape.role) {
      last.texts.push(...shape.texts);
      last.calls.push(...shape.calls);
      last.results.push(...shape.results);
    } else {
      out.push(shape);
    }
  }
  return out;
}

function sampleContext(): ContextEntry[] {
  const body = journal([
    { system: 'You are a coding agent.' },
    { user: 'placeholder' },
    { assistant: 'Reading the config.', calls: [{ id: 'toolu_1', name: 'Read', input: { path: 'src/config.ts' } }] },
    { tool: 'export const port = 8080;', callId: 'toolu_1' },
    { assistant: '', calls: [{ id: 'toolu_2', name: 'Bash', input: { command: 'npm test' } }, { id: 'toolu_3', name: 'Grep', input: { pattern: 'port' } }] },
    { tool: '12 passed', callId: 'toolu_2' },
    { tool: 'no matches', callId: 'toolu_3', error: true },
    { assistant: 'The port is 8080 and the tests pass.' },
    { user: 'Thanks, now add a health check.' },
    { assistant: 'Adding it.', calls: [{ id: 'toolu_4', name: 'Edit', input: { path: 'src/server.ts', nested: { list: [1, 'two', null] } } }] },
    { tool: 'ok', callId: 'toolu_4' },
    { assistant: 'Done.' },
  ]);
  body[1] = summary('The user asked to inspect the server config.', 12);
  return body;
}

describe('toAnthropicMessages', () => {
  it('joins system entries, answers each tool_use in the next user message, results first', () => {
    const { system, messages, notes } = toAnthropicMessages(sampleContext());
    expect(system).toBe('You are a coding agent.');
    expect(notes).toEqual([]);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'The user asked to inspect the server config.' }] });
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading the config.' },
        { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'src/config.ts' } },
      ],
    });
    expect(messages[4]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_2', content: '12 passed' },
        { type: 'tool_result', tool_use_id: 'toolu_3', content: 'no matches', is_error: true },
      ],
    });
    // The user's next words join the user message that holds the results, after them.
    expect(messages[6]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Thanks, now add a health check.' }],
    });
  });

  it('round-trips through the importer: same roles, texts, calls, results and links', () => {
    const context = sampleContext();
    const doc = toAnthropicMessages(context);
    const result = importText(JSON.stringify(doc), { format: 'anthropic' });
    expect(result.issues).toEqual([]);
    expect(merged(result.entries)).toEqual(merged(context.map((item) => item.entry)));
    expect(linkReport(result.entries)).toEqual({ toolCalls: 4, toolResults: 4, orphanToolCalls: 0, orphanToolResults: 0 });
    // Detected without being told, too.
    expect(importText(JSON.stringify(doc)).format).toBe('anthropic');
  });

  it('merges consecutive same-role messages and puts results before text that came first', () => {
    const context = journal([
      { user: 'One.' },
      { user: 'Two.' },
      { assistant: 'Looking.', calls: [{ id: 'a', name: 'Read', input: { path: 'a' } }] },
      { user: '<system-reminder>injected</system-reminder>' },
      { assistant: 'Also.', calls: [{ id: 'b', name: 'Read', input: { path: 'b' } }] },
      { tool: 'A', callId: 'a' },
      { tool: 'B', callId: 'b' },
      { user: 'Next.' },
      { assistant: 'Read both.' },
      { assistant: 'Anything else?' },
    ]);
    const { messages } = toAnthropicMessages(context);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'One.' }, { type: 'text', text: 'Two.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'a', name: 'Read', input: { path: 'a' } },
          { type: 'text', text: 'Also.' },
          { type: 'tool_use', id: 'b', name: 'Read', input: { path: 'b' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'A' },
          { type: 'tool_result', tool_use_id: 'b', content: 'B' },
          { type: 'text', text: '<system-reminder>injected</system-reminder>' },
          { type: 'text', text: 'Next.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Read both.' }, { type: 'text', text: 'Anything else?' }] },
    ]);
  });

  it('keeps signed thinking unchanged, redacted thinking as redacted_thinking, and leaves unsigned thinking out', () => {
    const context = [
      entry('u', 'user', [{ type: 'text', text: 'Hi' }]),
      entry('a', 'assistant', [
        { type: 'thinking', text: 'Plan: greet.', signature: 'EqQBCkYIBxgCKkB…' },
        { type: 'thinking', text: '', redacted: true, signature: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
        { type: 'thinking', text: 'Codex reasoning, no signature.' },
        { type: 'text', text: 'Hello!' },
      ]),
    ];
    const { messages, notes } = toAnthropicMessages(context);
    expect(messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'Plan: greet.', signature: 'EqQBCkYIBxgCKkB…' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
      { type: 'text', text: 'Hello!' },
    ]);
    expect(notes.join(' ')).toMatch(/Left out 1 thinking block/);
    const back = importText(JSON.stringify(toAnthropicMessages(context)), { format: 'anthropic' }).entries;
    expect(back[1]?.blocks.slice(0, 2)).toEqual(context[1]?.entry.blocks.slice(0, 2));
  });

  it('drops a tool_result whose call is not in the context, and a call with no result, with notes', () => {
    const context = journal([
      { user: 'Continue.' },
      { tool: 'output of a call that was summarized away', callId: 'toolu_old' },
      { assistant: 'Running.', calls: [{ id: 'toolu_new', name: 'Bash', input: { command: 'ls' } }, { id: 'toolu_lost', name: 'Bash', input: { command: 'pwd' } }] },
      { tool: 'a b', callId: 'toolu_new' },
    ]);
    const { messages, notes } = toAnthropicMessages(context);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Continue.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Running.' }, { type: 'tool_use', id: 'toolu_new', name: 'Bash', input: { command: 'ls' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_new', content: 'a b' }] },
    ]);
    expect(notes).toEqual([
      'Dropped the tool result for call toolu_old (entry e1): its call is not in the context before it.',
      'Dropped the tool call Bash (toolu_lost, entry e2): its result is not in the context after it.',
    ]);
  });

  it('writes images as text, wraps non-object inputs, renames ids the API refuses, and moves late system text', () => {
    const context = [
      entry('s', 'system', [{ type: 'text', text: 'Be brief.' }]),
      entry('u', 'user', [{ type: 'image', mediaType: 'image/png', bytes: 34 * 1024, source: 'base64' }]),
      entry('a', 'assistant', [{ type: 'tool_call', callId: 'call|1', name: 'apply_patch', input: '*** Begin Patch' }]),
      entry('t', 'tool', [
        { type: 'tool_result', callId: 'call|1', content: [{ type: 'text', text: 'ok' }, { type: 'image', mediaType: 'image/jpeg', bytes: 2048, source: 'base64' }], isError: false },
      ]),
      entry('s2', 'system', [{ type: 'text', text: 'Mode: plan.' }]),
    ];
    const { system, messages, notes } = toAnthropicMessages(context);
    expect(system).toBe('Be brief.\n\nMode: plan.');
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: '[image: image/png, 34 KB]' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'apply_patch', input: { input: '*** Begin Patch' } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'ok' }, { type: 'text', text: '[image: image/jpeg, 2 KB]' }] }],
      },
    ]);
    expect(notes).toHaveLength(3);
    expect(notes.join(' ')).toMatch(/Moved 1 system entry/);
  });

  it('never lets a system entry carry tool traffic', () => {
    const context = [
      entry('u', 'user', [{ type: 'text', text: 'Go.' }]),
      entry('a', 'assistant', [{ type: 'tool_call', callId: 'k', name: 'Read', input: {} }]),
      entry('s', 'system', [{ type: 'text', text: 'Note.' }, { type: 'tool_result', callId: 'k', content: [], isError: false }]),
    ];
    const { system, messages, notes } = toAnthropicMessages(context);
    expect(system).toBe('Note.');
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }]);
    expect(notes.slice(0, 2)).toEqual([
      'Dropped 1 tool call(s)/result(s) held by system entry s: system text carries no tool traffic.',
      'Dropped the tool call Read (k, entry a): its result is not in the context after it.',
    ]);
  });

  it('does not touch the context', () => {
    const context = sampleContext();
    const before = structuredClone(context);
    toAnthropicMessages(context);
    expect(context).toEqual(before);
  });

  it('round-trips the real Claude Code sample with its 101 tool calls linked', () => {
    const text = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8');
    const context: ContextEntry[] = importText(text)
      .entries.filter((item) => item.kind === 'message')
      .map((item) => ({ role: item.role, entry: item, origin: 'journal' }));
    const doc = toAnthropicMessages(context);
    expect(doc.notes.filter((note) => note.startsWith('Dropped'))).toEqual([]);
    const back = importText(JSON.stringify(doc), { format: 'anthropic' });
    expect(linkReport(back.entries)).toEqual({ toolCalls: 101, toolResults: 101, orphanToolCalls: 0, orphanToolResults: 0 });
  });
});
