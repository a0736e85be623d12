import { describe, expect, it } from 'vitest';
import type { Entry } from '../journal/entry.ts';
import { linkReport } from '../journal/link.ts';
import { importText } from './run.ts';
import { ImportFormatError } from './types.ts';

function shape(entries: readonly Entry[]): Array<[string, string | null, string]> {
  return entries.map((entry) => [entry.id, entry.parentId, entry.role]);
}

describe('anthropic importer', () => {
  it('imports {system: string, messages} and pairs tool_use with tool_result', () => {
    const doc = {
      model: 'claude-sonnet-4-5',
      system: 'You are a careful assistant.',
      messages: [
        { role: 'user', content: 'List the files.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Listing.' },
            { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'ls' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'a.txt\nb.txt' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Two files.' }] },
      ],
    };
    const text = JSON.stringify(doc, null, 2);
    const result = importText(text);
    expect(result.format).toBe('anthropic');
    expect(result.issues).toEqual([]);
    expect(result.meta.model).toBe('claude-sonnet-4-5');
    expect(shape(result.entries)).toEqual([
      ['system', null, 'system'],
      ['m0', 'system', 'user'],
      ['m1', 'm0', 'assistant'],
      ['m2', 'm1', 'tool'],
      ['m3', 'm2', 'assistant'],
    ]);
    expect(result.entries[0]?.blocks).toEqual([{ type: 'text', text: 'You are a careful assistant.' }]);
    expect(result.entries[2]?.blocks[1]).toEqual({ type: 'tool_call', callId: 'toolu_01', name: 'Bash', input: { command: 'ls' }, resultEntryId: 'm2' });
    expect(result.entries[3]?.blocks).toEqual([
      { type: 'tool_result', callId: 'toolu_01', content: [{ type: 'text', text: 'a.txt\nb.txt' }], isError: false, callEntryId: 'm1' },
    ]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
    const lines = text.split('\n');
    expect(lines[(result.entries[0]?.line ?? 0) - 1]).toContain('"system"');
    for (const entry of result.entries.slice(1)) expect(lines[entry.line - 1]?.trim()).toBe('{');
  });

  it('makes system text blocks one system entry', () => {
    const result = importText(
      JSON.stringify({
        system: [
          { type: 'text', text: 'Part one.', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Part two.' },
        ],
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    );
    expect(result.format).toBe('anthropic');
    expect(result.entries[0]).toMatchObject({ id: 'system', role: 'system', parentId: null, sourceType: 'system' });
    expect(result.entries[0]?.blocks).toEqual([
      { type: 'text', text: 'Part one.' },
      { type: 'text', text: 'Part two.' },
    ]);
    expect(result.entries).toHaveLength(2);
  });

  it('splits a user message with tool_result then text into a tool entry and a user entry, in order', () => {
    const result = importText(
      JSON.stringify([
        { role: 'user', content: 'Read it.' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { path: 'a' } },
            { type: 'tool_use', id: 'toolu_b', name: 'Read', input: { path: 'b' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: [{ type: 'text', text: 'A' }] },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: [{ type: 'text', text: 'missing' }], is_error: true },
            { type: 'text', text: 'Now summarize.' },
          ],
        },
      ]),
    );
    expect(shape(result.entries)).toEqual([
      ['m0', null, 'user'],
      ['m1', 'm0', 'assistant'],
      ['m2', 'm1', 'tool'],
      ['m2.1', 'm2', 'user'],
    ]);
    const tool = result.entries[2];
    expect(tool?.sourceType).toBe('user/tool_result');
    expect(tool?.blocks.map((block) => (block.type === 'tool_result' ? [block.callId, block.isError, block.callEntryId] : block.type))).toEqual([
      ['toolu_a', false, 'm1'],
      ['toolu_b', true, 'm1'],
    ]);
    expect(result.entries[3]?.blocks).toEqual([{ type: 'text', text: 'Now summarize.' }]);
  });

  it('keeps thinking signatures and redacted thinking', () => {
    const result = importText(
      JSON.stringify([
        { role: 'user', content: 'Think.' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Step one.', signature: 'sig-abc' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'Done.' },
          ],
        },
      ]),
    );
    expect(result.format).toBe('anthropic');
    expect(result.entries[1]?.blocks).toEqual([
      { type: 'thinking', text: 'Step one.', signature: 'sig-abc' },
      { type: 'thinking', text: '', signature: 'opaque', redacted: true },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('sizes images without keeping their data and shows documents as placeholders', () => {
    const data = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const result = importText(
      JSON.stringify({
        system: 'sys',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/private-photo.jpg' } },
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } },
              { type: 'text', text: 'Describe.' },
            ],
          },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'screenshot', input: {} }] },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'shot' }, { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data } }] }],
          },
        ],
      }),
    );
    expect(result.entries[1]?.blocks).toEqual([
      { type: 'image', mediaType: 'image/png', bytes: Buffer.from(data, 'base64').length, source: 'base64' },
      { type: 'image', mediaType: 'image', bytes: 0, source: 'url' },
      { type: 'text', text: '[document: application/pdf]' },
      { type: 'text', text: 'Describe.' },
    ]);
    const tool = result.entries[3]?.blocks[0];
    expect(tool?.type === 'tool_result' && tool.content).toEqual([
      { type: 'text', text: 'shot' },
      { type: 'image', mediaType: 'image/jpeg', bytes: Buffer.from(data, 'base64').length, source: 'base64' },
    ]);
    const json = JSON.stringify(result.entries);
    expect(json).not.toContain(data.slice(0, 20));
    expect(json).not.toContain('private-photo');
    expect(json).not.toContain('JVBERi');
  });

  it('normalizes the usage of a response object and links server tools', () => {
    const result = importText(
      JSON.stringify({
        system: 'sys',
        messages: [
          { role: 'user', content: 'News?' },
          {
            id: 'msg_01',
            type: 'message',
            role: 'assistant',
            model: 'claude-opus-4-1',
            content: [
              { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'news' } },
              { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', title: 'Headline', url: 'https://news.test/1', encrypted_content: 'xyz' }] },
              { type: 'text', text: 'Here is the news.' },
            ],
            stop_reason: 'end_turn',
            usage: { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 100, cache_creation_input_tokens: 5 },
          },
        ],
      }),
    );
    expect(shape(result.entries)).toEqual([
      ['system', null, 'system'],
      ['m0', 'system', 'user'],
      ['m1', 'm0', 'assistant'],
      ['m1.1', 'm1', 'tool'],
      ['m1.2', 'm1.1', 'assistant'],
    ]);
    expect(result.entries[2]).toMatchObject({ usage: { input: 115, output: 20, cacheRead: 100, cacheWrite: 5 }, model: 'claude-opus-4-1', sourceType: 'message' });
    expect(result.entries[4]?.usage).toBeUndefined();
    expect(result.entries[3]?.blocks).toEqual([
      {
        type: 'tool_result',
        callId: 'srvtoolu_1',
        toolName: 'web_search',
        content: [{ type: 'text', text: 'Headline — https://news.test/1' }],
        isError: false,
        callEntryId: 'm1',
      },
    ]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
  });

  it('reports a bad message with its line and keeps the others', () => {
    const doc = {
      system: 'sys',
      messages: [
        { role: 'user', content: 'one' },
        'garbage',
        { role: 'moderator', content: 'x' },
        { role: 'assistant', content: [{ type: 'text', text: 'two' }, 7] },
      ],
    };
    const text = JSON.stringify(doc, null, 2);
    const lines = text.split('\n');
    const result = importText(text);
    expect(shape(result.entries)).toEqual([
      ['system', null, 'system'],
      ['m0', 'system', 'user'],
      ['m3', 'm0', 'assistant'],
    ]);
    expect(result.issues.map((issue) => [issue.line, issue.kind])).toEqual([
      [lines.findIndex((line) => line.includes('"garbage"')) + 1, 'malformed'],
      [lines.findIndex((line) => line.includes('"moderator"')), 'unsupported'],
      [result.entries[2]?.line, 'malformed'],
    ]);
    expect(result.issues[1]?.message).toContain('unknown role "moderator"');
    expect(result.issues[2]?.message).toContain('content[1] is number 7');
  });

  it('imports records holding messages as separate conversations, each with its own system', () => {
    const result = importText(
      JSON.stringify([
        { id: 'a', messages: [{ role: 'user', content: 'q1' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'f', input: {} }] }] },
        { id: 'b', system: 'second', messages: [{ role: 'user', content: 'q2' }] },
      ]),
    );
    expect(result.format).toBe('anthropic');
    expect(shape(result.entries)).toEqual([
      ['c0.m0', null, 'user'],
      ['c0.m1', 'c0.m0', 'assistant'],
      ['c1.system', null, 'system'],
      ['c1.m0', 'c1.system', 'user'],
    ]);
  });

  it('refuses JSON of an unknown shape, naming what it found and what it expects', () => {
    expect(() => importText('{"foo":1}')).toThrow(ImportFormatError);
    expect(() => importText('{"foo":1}')).toThrow(/unknown shape \(an object with keys "foo"\); expected/);
    expect(() => importText('{"foo":1}', { format: 'anthropic' })).toThrow(/"foo".*expected Anthropic Messages/);
  });
});
