// Tool inputs show real line breaks, not JSON's `\n`, on a real Claude Code Write call.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../../core/import/run.ts';
import { toolInputText } from './tool-input.ts';

describe('toolInputText', () => {
  it("shows a written file's content with its line breaks (real Write call)", () => {
    const entries = importText(readFileSync('src/core/import/__fixtures__/claude-code/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl')).entries;
    const write = entries.flatMap((entry) => entry.blocks).find((block) => block.type === 'tool_call' && block.name === 'Write');
    if (write?.type !== 'tool_call') throw new Error('the sample has a Write call');
    const content = (write.input as { content: string }).content;
    expect(content).toContain('\n');
    const text = toolInputText(write.input);
    expect(text).not.toContain('\\n');
    expect(text.startsWith(`file_path: ${(write.input as { file_path: string }).file_path}\ncontent:\n  `)).toBe(true);
    expect(text.split('\n').length).toBeGreaterThanOrEqual(content.split('\n').length + 1);
  });

  it('keeps one-line strings on their field, other values as JSON, a string input as it is', () => {
    expect(toolInputText({ command: 'npm test', timeout: 120, flags: ['-v'], nested: { a: 'x\ny' } })).toBe('command: npm test\ntimeout: 120\nflags: ["-v"]\nnested: {"a":"x\\ny"}');
    expect(toolInputText('*** Begin Patch\n*** End Patch')).toBe('*** Begin Patch\n*** End Patch');
    expect(toolInputText({})).toBe('{}');
    expect(toolInputText([1, 2])).toBe('[\n  1,\n  2\n]');
    expect(toolInputText(null)).toBe('null');
  });
});
