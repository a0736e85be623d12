// Cline's history as real task folders of Cline 3.x write it (January and April 2026, published
// without a licence, so not shipped): native calls answered by text results, metrics per message.
import { describe, expect, it } from 'vitest';
import { linkReport } from '../journal/link.ts';
import { withClineTextResults } from './cline-history.ts';
import { importText } from './run.ts';

const task = { type: 'text', text: '<task>\nList the game actions.\n</task>' };
const env = { type: 'text', text: '<environment_details>\n# Current Working Directory (/w) Files\nActionSystem.cs\n</environment_details>' };
const call = (id: string, name: string, input: object) => ({ type: 'tool_use', id, name, input });
const HISTORY = [
  { role: 'user', content: [task, env], ts: 1769053680600 },
  {
    role: 'assistant',
    content: [{ type: 'thinking', thinking: 'Read the file first.', signature: 'sig' }, call('toolu_1', 'read_file', { path: 'ActionSystem.cs' })],
    modelInfo: { modelId: 'claude-sonnet-4-5-20250929', providerId: 'anthropic', mode: 'act' },
    metrics: { tokens: { prompt: 10, completion: 595, cached: 9573 } },
    ts: 1769053690000,
  },
  { role: 'user', content: [{ type: 'text', text: "[read_file for 'ActionSystem.cs'] Result:\nusing System;" }, env], ts: 1769053691000 },
  {
    role: 'assistant',
    content: [call('toolu_2', 'execute_command', { command: 'ls\n-la' })],
    modelInfo: { modelId: 'claude-sonnet-4-5-20250929', providerId: 'anthropic', mode: 'act' },
    metrics: { tokens: { prompt: 10, completion: 200, cached: 12085 } },
    ts: 1769053700000,
  },
  // A bare header, its output in the next block; the parameter holds a newline and a bracket.
  { role: 'user', content: [{ type: 'text', text: "[execute_command for 'ls\n-la]'] Result:" }, { type: 'text', text: 'a.cs\nb.cs' }, env], ts: 1769053701000 },
  { role: 'assistant', content: [call('toolu_3', 'attempt_completion', { result: 'Done.' })], metrics: { tokens: { prompt: 12, completion: 30, cached: 0 } } },
];

describe("Cline's history as Cline 3.x writes it", () => {
  it('pairs each call with the text result that answers it; the last call, never answered, stays an orphan', () => {
    const result = importText(JSON.stringify(HISTORY), { fileName: 'api_conversation_history.json' });
    expect(result.format).toBe('cline');
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}`)).toEqual(['m0:user', 'm1:assistant', 'm2:tool', 'm2.1:user', 'm3:assistant', 'm4:tool', 'm4.1:user', 'm5:assistant']);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 3, toolResults: 2, orphanToolCalls: 1, orphanToolResults: 0 });
    const results = result.entries.flatMap((entry) => entry.blocks).flatMap((block) => (block.type === 'tool_result' ? [[block.callId, block.content.map((part) => (part.type === 'text' ? part.text : part.type))]] : []));
    expect(results).toEqual([
      ['toolu_1', ["[read_file for 'ActionSystem.cs'] Result:\nusing System;"]],
      ['toolu_2', ["[execute_command for 'ls\n-la]'] Result:", 'a.cs\nb.cs']],
    ]);
    expect(result.issues).toEqual([]);
  });

  it("takes each response's metrics as its usage (the prompt with the cache), its model and every message's time", () => {
    const result = importText(JSON.stringify(HISTORY), { fileName: 'api_conversation_history.json' });
    const responses = result.entries.filter((entry) => entry.role === 'assistant');
    expect(responses.map((entry) => entry.usage)).toEqual([{ input: 10 + 9573, output: 595 }, { input: 10 + 12085, output: 200 }, { input: 12, output: 30 }]);
    expect(responses.map((entry) => entry.model)).toEqual(['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5-20250929', undefined]);
    expect(result.entries.map((entry) => entry.timestamp)).toEqual([1769053680600, 1769053690000, 1769053691000, 1769053691000, 1769053700000, 1769053701000, 1769053701000, undefined]);
  });

  it('keeps the panel usage, with its cache split, over the metrics in a task folder', () => {
    const ui = [{ ts: 1, type: 'say', say: 'api_req_started', text: JSON.stringify({ tokensIn: 10, tokensOut: 595, cacheWrites: 9573, cacheReads: 0 }) }];
    const result = importText(JSON.stringify({ taskId: '1769053680585', messages: HISTORY.slice(0, 3), ui_messages: ui }), { format: 'cline' });
    expect(result.entries.find((entry) => entry.role === 'assistant')!.usage).toEqual({ input: 9583, output: 595, cacheWrite: 9573 });
  });

  it('leaves text alone that answers no call: a header with no call before it, one more header than calls, a result block already there', () => {
    const header = { type: 'text', text: '[read_file for \'a\'] Result:\nx' };
    expect(withClineTextResults([{ role: 'user', content: [header] }])).toEqual([{ role: 'user', content: [header] }]);
    const twice = withClineTextResults([{ role: 'assistant', content: [call('t1', 'read_file', {})] }, { role: 'user', content: [header, header] }]);
    expect((twice[1] as { content: unknown[] }).content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: [header] }, header]);
    const answered = [{ role: 'assistant', content: [call('t1', 'read_file', {})] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }, header] }];
    expect(withClineTextResults(answered)).toEqual(answered);
  });
});
