import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkReport } from '../journal/link.ts';
import { importText } from './run.ts';

const REAL = readFileSync(new URL('../../../public/samples/gemini-cli/pomodoro-timer.json', import.meta.url), 'utf8');

describe('a real Gemini CLI chat (gemini-2.5-pro, October 2025)', () => {
  it('imports with the counts read off the file by hand', () => {
    const result = importText(REAL, { fileName: 'pomodoro-timer.json' });
    expect(result.format).toBe('gemini-cli');
    expect(result.meta).toMatchObject({ sessionId: '0b23371a-ce2e-4b1c-81a0-44af5d94d9ce', model: 'gemini-2.5-pro', createdAt: Date.UTC(2025, 9, 21, 20, 4, 20, 819) });
    // 19 messages: 5 prompts, 14 responses; 11 calls (3 write_file, 8 replace), each with its result.
    const roles = result.entries.map((entry) => entry.role);
    expect([roles.length, roles.filter((r) => r === 'user').length, roles.filter((r) => r === 'assistant').length, roles.filter((r) => r === 'tool').length]).toEqual([30, 5, 14, 11]);
    expect(linkReport(result.entries)).toEqual({ toolCalls: 11, toolResults: 11, orphanToolCalls: 0, orphanToolResults: 0 });
    const errors = result.entries.filter((entry) => entry.blocks.some((block) => block.type === 'tool_result' && block.isError));
    expect(errors.map((entry) => entry.id)).toEqual(['41a39780-b35f-46fd-b1b2-272a54bb09e2/replace-1761077322005-e180d6d44397f']);
    expect(result.entries.flatMap((entry) => entry.blocks).filter((block) => block.type === 'thinking')).toHaveLength(22);
    expect(result.issues).toEqual([]);
  });

  it('takes each response\'s tokens as its usage, and the first response\'s all-zero record as none', () => {
    const responses = importText(REAL).entries.filter((entry) => entry.role === 'assistant');
    expect(responses[0]!.usage).toBeUndefined();
    expect(responses[1]!.usage).toEqual({ input: 7269, output: 46 + 58, cacheRead: 5811, reasoning: 58 });
    expect(responses[8]!.usage).toEqual({ input: 9247, output: 303 + 270, reasoning: 270 });
    expect(responses.filter((entry) => entry.usage)).toHaveLength(13);
    expect(responses.at(-1)!.usage).toEqual({ input: 12707, output: 35 + 63, cacheRead: 8840, reasoning: 63 });
  });
});
