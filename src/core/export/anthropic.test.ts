import { describe, expect, it } from 'vitest';
import type { Entry } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { importText } from '../import/run.ts';
import { toAnthropicMessages } from './anthropic.ts';
import { claudeSampleContext, codingSession, entry, journal, shapeOf, type EntryShape } from './test-fixtures.ts';

/** Anthropic merges same-role neighbours, so the expected shape merges them too. */
function merged(entries: readonly Entry[]): EntryShape[] {
  const out: EntryShape[] = [];
  for (const shape of entries.map((entry) => shapeOf(entry, { errors: true }))) {
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

const sampleContext = () => codingSession('toolu_', {
  bash: { command: 'npm test' }, grep: { pattern: 'port' }, edit: { path: 'src/server.ts', nested: { list: [1, 'two', null] } },
});

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
    const context = claudeSampleContext();
    const doc = toAnthropicMessages(context);
    expect(doc.notes.filter((note) => note.startsWith('Dropped'))).toEqual([]);
    const back = importText(JSON.stringify(doc), { format: 'anthropic' });
    expect(linkReport(back.entries)).toEqual({ toolCalls: 101, toolResults: 101, orphanToolCalls: 0, orphanToolResults: 0 });
  });
});
