// A file whose opening line is damaged (a write cut short, a bad byte) is still read as its format:
// the line is reported by number and every other line imports. Each agent's line sample is damaged
// at line 1; pi's v3 lines, shaped like Droid's session store, are never taken for it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectJsonlFormat } from './detect.ts';
import { importText } from './run.ts';

const SAMPLES = [
  'gemini-cli/jsonl_v040.jsonl',
  'copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e/events.jsonl',
  'cursor/large.jsonl',
  'droid/exec-rc-claude.jsonl',
  'droid/b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl',
  'droid/e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70.jsonl',
  'kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35/wire.jsonl',
];

/** The line cut short mid-way (not where a pretty-printed document's first line could end: `{`, `[`, `,` or `:`). */
function cutShort(line: string): string {
  let cut = line.slice(0, Math.floor(line.length / 2));
  while (/[[{,:\s]$/.test(cut)) cut = cut.slice(0, -1);
  return cut;
}

describe('a damaged opening line', () => {
  for (const path of SAMPLES) {
    it(`is reported and the rest of ${path} imports as its format`, () => {
      const text = readFileSync(`public/samples/${path}`, 'utf8');
      const name = path.split('/').pop()!;
      const whole = importText(text, { fileName: name });
      const lines = text.trimEnd().split('\n');
      const damaged = importText([cutShort(lines[0]!), ...lines.slice(1)].join('\n'), { fileName: name });
      expect(damaged.format).toBe(whole.format);
      expect(damaged.issues[0]).toMatchObject({ line: 1, kind: 'malformed' });
      // Only what line 1 made is lost (the session store's first message is then a root: one more issue, no entry lost).
      const fromFirst = whole.entries.filter((entry) => entry.line === 1).length;
      expect(damaged.entries.length).toBe(whole.entries.length - fromFirst);
    });
  }

  it("reads Droid's session store without its session_start line: 12 entries, the first message a root", () => {
    const lines = readFileSync('public/samples/droid/b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl', 'utf8').trimEnd().split('\n');
    const result = importText(lines.slice(1).join('\n'), { fileName: 'b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl' });
    expect(result.format).toBe('droid');
    expect(result.entries).toHaveLength(12);
    expect(result.issues.map((issue) => issue.line)).toEqual([1]);
  });

  it("never takes pi's message lines for Droid's (they carry the message's timestamp)", () => {
    for (const path of ['pi/v3-small.jsonl', 'pi/large-session.jsonl', 'pi/before-compaction.jsonl']) {
      for (const line of readFileSync(`public/samples/${path}`, 'utf8').trimEnd().split('\n')) {
        const value = JSON.parse(line) as Record<string, unknown>;
        if (value.type === 'message') expect(detectJsonlFormat(value), `${path}: ${line.slice(0, 80)}`).not.toBe('droid');
      }
    }
  });
});
