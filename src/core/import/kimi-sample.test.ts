// A real Kimi CLI session (kimi-cli 0.42, October 2025): the context history file of a SWE-bench
// task run in Docker, checked against counts read off the file by hand.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkReport } from '../journal/link.ts';
import { importText } from './run.ts';

const REAL = readFileSync(new URL('../../../public/samples/kimi/531d195b-6436-426e-b010-4bf723a992de.jsonl', import.meta.url), 'utf8');
const jsonl = (...records: object[]) => records.map((record) => JSON.stringify(record)).join('\n');

describe('a real Kimi CLI context file (kimi-cli 0.42, October 2025)', () => {
  it('imports with the counts read off the file by hand', () => {
    const result = importText(REAL, { fileName: '531d195b-6436-426e-b010-4bf723a992de.jsonl' });
    expect(result.format).toBe('kimi');
    // 141 records: the task, 28 responses, 27 results; 29 checkpoints and 56 usage records.
    const roles = result.entries.map((entry) => entry.role);
    expect([roles.length, roles.filter((r) => r === 'user').length, roles.filter((r) => r === 'assistant').length, roles.filter((r) => r === 'tool').length]).toEqual([56, 1, 28, 27]);
    expect(result.ignoredLines).toBe(29 + 56);
    // 17 Bash, 4 WriteFile, 2 Think, 2 ReadContext, 2 StrReplaceFile: each with its result.
    expect(linkReport(result.entries)).toEqual({ toolCalls: 27, toolResults: 27, orphanToolCalls: 0, orphanToolResults: 0 });
    expect(result.issues).toEqual([]);
  });

  it('takes the usage records around each response as its usage: input before it, output the difference after', () => {
    const responses = importText(REAL).entries.filter((entry) => entry.role === 'assistant');
    expect(responses.every((entry) => entry.usage)).toBe(true);
    expect(responses[0]!.usage).toEqual({ input: 4504, output: 4711 - 4504 });
    expect(responses[1]!.usage).toEqual({ input: 4736, output: 4788 - 4736 });
    expect(responses.at(-1)!.usage).toEqual({ input: 19878, output: 20384 - 19878 });
    expect(responses.reduce((sum, entry) => sum + entry.usage!.output, 0)).toBe(6242);
  });
});

describe('Kimi CLI context usage and errors', () => {
  it('gives usage only to a response between two usage records; an estimate alone, or one the response does not follow, gives none', () => {
    const result = importText(jsonl(
      { role: 'user', content: 'go' },
      { role: '_usage', token_count: 100 },
      { role: 'assistant', content: 'one' },
      { role: '_usage', token_count: 130 },
      { role: '_usage', token_count: 500 },
      { role: '_checkpoint', id: 1 },
      { role: 'assistant', content: 'two' },
      { role: '_usage', token_count: 600 },
      { role: '_usage', token_count: 700 },
      { role: 'assistant', content: 'three' },
    ));
    expect(result.entries.filter((entry) => entry.role === 'assistant').map((entry) => entry.usage)).toEqual([{ input: 100, output: 30 }, undefined, undefined]);
  });

  it('refuses a total smaller than the input as usage', () => {
    const result = importText(jsonl({ role: 'user', content: 'go' }, { role: '_usage', token_count: 100 }, { role: 'assistant', content: 'one' }, { role: '_usage', token_count: 90 }));
    expect(result.entries[1]!.usage).toBeUndefined();
  });

  it('reads a tool message that starts with <system>ERROR: as an error result', () => {
    const result = importText(jsonl(
      { role: '_checkpoint', id: 0 },
      { role: 'assistant', content: [], tool_calls: [{ type: 'function', id: 'Bash:0', function: { name: 'Bash', arguments: '{}' } }, { type: 'function', id: 'Bash:1', function: { name: 'Bash', arguments: '{}' } }] },
      { role: 'tool', content: [{ type: 'text', text: '<system>ERROR: Command failed with exit code: 2.</system>' }, { type: 'text', text: 'boom' }], tool_call_id: 'Bash:0' },
      { role: 'tool', content: [{ type: 'text', text: '<system>Command executed successfully.</system>' }], tool_call_id: 'Bash:1' },
    ));
    expect(result.entries.flatMap((entry) => entry.blocks).flatMap((block) => (block.type === 'tool_result' ? [block.isError] : []))).toEqual([true, false]);
  });
});
