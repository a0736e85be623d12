import { describe, expect, it } from 'vitest';
import type { Entry } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { importText } from '../import/run.ts';
import { exportOpenAI, toOpenAIMessages } from './openai.ts';
import { claudeSampleContext, codingSession, entry, journal, shapeOf } from './test-fixtures.ts';

/** What a round trip must keep: role, texts, calls and results of each entry (OpenAI's tool messages carry no error flag). */
const shape = (entries: readonly Entry[]) => entries.map((entry) => shapeOf(entry));

const sampleContext = () => codingSession('call_', {
  bash: { command: 'npm test', timeout: 60 }, grep: { pattern: 'port', glob: '**/*.ts' }, edit: { path: 'src/server.ts', old: 'a', new: 'b', nested: { list: [1, 'two', null] } },
});

describe('toOpenAIMessages', () => {
  it('writes system, user, assistant tool_calls with JSON-string arguments, and tool messages after them', () => {
    const messages = toOpenAIMessages(sampleContext());
    expect(messages.slice(0, 4)).toEqual([
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'The user asked to inspect the server config.' },
      {
        role: 'assistant',
        content: 'Reading the config.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'Read', arguments: '{"path":"src/config.ts"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'export const port = 8080;' },
    ]);
    expect(messages[4]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_2', type: 'function', function: { name: 'Bash', arguments: '{"command":"npm test","timeout":60}' } },
        { id: 'call_3', type: 'function', function: { name: 'Grep', arguments: '{"pattern":"port","glob":"**/*.ts"}' } },
      ],
    });
    expect(messages.slice(5, 7).map((message) => message.role === 'tool' && message.tool_call_id)).toEqual(['call_2', 'call_3']);
    expect(messages).toHaveLength(12);
  });

  it('round-trips through the importer: same roles, texts, calls, results and links', () => {
    const context = sampleContext();
    const result = importText(JSON.stringify(toOpenAIMessages(context)));
    expect(result.format).toBe('openai-chat');
    expect(result.issues).toEqual([]);
    expect(shape(result.entries)).toEqual(shape(context.map((item) => item.entry)));
    expect(linkReport(result.entries)).toEqual({ toolCalls: 4, toolResults: 4, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('does not touch the context', () => {
    const context = sampleContext();
    const before = structuredClone(context);
    toOpenAIMessages(context);
    expect(context).toEqual(before);
  });

  it('writes an image as a text part with its type and size', () => {
    const context = [
      entry('u', 'user', [
        { type: 'text', text: 'What is in this screenshot?' },
        { type: 'image', mediaType: 'image/png', bytes: 34 * 1024, source: 'base64' },
      ]),
      entry('a', 'assistant', [{ type: 'tool_call', callId: 'c1', name: 'Screenshot', input: {} }]),
      entry('t', 'tool', [{ type: 'tool_result', callId: 'c1', content: [{ type: 'image', mediaType: 'image/jpeg', bytes: 0, source: 'url' }], isError: false }]),
    ];
    const messages = toOpenAIMessages(context);
    expect(messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this screenshot?' },
        { type: 'text', text: '[image: image/png, 34 KB]' },
      ],
    });
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '[image: image/jpeg, from a URL]' });
  });

  it('moves text that came between a call and its result to after the result, and merges a second assistant turn into the open one', () => {
    const context = journal([
      { user: 'Go.' },
      { assistant: 'First.', calls: [{ id: 'a', name: 'Read', input: { path: 'a' } }] },
      { user: '<system-reminder>injected</system-reminder>' },
      { assistant: 'Second.', calls: [{ id: 'b', name: 'Read', input: { path: 'b' } }] },
      { tool: 'A', callId: 'a' },
      { tool: 'B', callId: 'b' },
      { assistant: 'Both read.' },
    ]);
    const { messages, notes } = exportOpenAI(context);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user', 'assistant']);
    expect(messages[1]).toMatchObject({ content: [{ type: 'text', text: 'First.' }, { type: 'text', text: 'Second.' }], tool_calls: [{ id: 'a' }, { id: 'b' }] });
    expect(messages[4]).toEqual({ role: 'user', content: '<system-reminder>injected</system-reminder>' });
    expect(notes.join(' ')).toMatch(/Moved 1 message/);
    expect(linkReport(importText(JSON.stringify(messages)).entries)).toMatchObject({ orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('drops calls and results that have no partner in the context, with a note for each', () => {
    const context = journal([
      { user: 'Go.' },
      { tool: 'stale output', callId: 'gone' },
      { assistant: 'Trying.', calls: [{ id: 'x', name: 'Bash', input: { command: 'ls' } }, { id: 'y', name: 'Bash', input: { command: 'pwd' } }] },
      { tool: 'a b', callId: 'x' },
      { assistant: 'Listed.' },
    ]);
    const { messages, notes } = exportOpenAI(context);
    expect(messages).toEqual([
      { role: 'user', content: 'Go.' },
      { role: 'assistant', content: 'Trying.', tool_calls: [{ id: 'x', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } }] },
      { role: 'tool', tool_call_id: 'x', content: 'a b' },
      { role: 'assistant', content: 'Listed.' },
    ]);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/call gone .*entry e1/);
    expect(notes[1]).toMatch(/Bash \(y, entry e2\)/);
  });

  it('keeps thinking out unless asked, then sends it as reasoning_content', () => {
    const context = [entry('a', 'assistant', [{ type: 'thinking', text: 'Let me think.', signature: 'sig' }, { type: 'text', text: 'Hi.' }])];
    const plain = exportOpenAI(context);
    expect(plain.messages).toEqual([{ role: 'assistant', content: 'Hi.' }]);
    expect(plain.notes.join(' ')).toMatch(/Left out 1 thinking block/);
    expect(toOpenAIMessages(context, { reasoningContent: true })).toEqual([{ role: 'assistant', content: 'Hi.', reasoning_content: 'Let me think.' }]);
  });

  it('sends a raw-text tool input as the text itself, and round-trips it', () => {
    const patch = '*** Begin Patch\n*** Update File: a.ts\n-old\n+new\n*** End Patch';
    const context = [
      entry('u', 'user', [{ type: 'text', text: 'Patch it.' }]),
      entry('a', 'assistant', [{ type: 'tool_call', callId: 'p1', name: 'apply_patch', input: patch }]),
      entry('t', 'tool', [{ type: 'tool_result', callId: 'p1', content: [{ type: 'text', text: 'Done!' }], isError: false }]),
      entry('q', 'assistant', [{ type: 'tool_call', callId: 'p2', name: 'echo', input: '{"looks":"like json"}' }]),
      entry('r', 'tool', [{ type: 'tool_result', callId: 'p2', content: [], isError: false }]),
    ];
    const messages = toOpenAIMessages(context);
    expect(messages[1]).toMatchObject({ tool_calls: [{ function: { arguments: patch } }] });
    const back = importText(JSON.stringify(messages)).entries;
    expect(shape(back)).toEqual(shape(context.map((item) => item.entry)));
  });

  it('round-trips the real Claude Code sample with its 101 tool calls linked', () => {
    const context = claudeSampleContext();
    const { messages, notes } = exportOpenAI(context);
    expect(notes.filter((note) => note.startsWith('Dropped'))).toEqual([]);
    const back = importText(JSON.stringify(messages));
    expect(back.format).toBe('openai-chat');
    expect(linkReport(back.entries)).toEqual({ toolCalls: 101, toolResults: 101, orphanToolCalls: 0, orphanToolResults: 0 });
    const callsOf = (entries: readonly Entry[]) => entries.flatMap((item) => item.blocks.flatMap((block) => (block.type === 'tool_call' ? [[block.callId, block.name, block.input]] : [])));
    expect(callsOf(back.entries)).toEqual(callsOf(context.map((item) => item.entry)));
  });
});
