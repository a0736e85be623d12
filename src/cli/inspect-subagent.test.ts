// `inspect` of a subagent's own session: the link, and the type and description its caller's call gave it.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatInspect, runInspect } from './inspect.ts';

const SUBAGENT = 'public/samples/droid/5b9d2f4e-8c13-4a7b-b6e0-2d4f6a8c1e93.jsonl';
const link = { parentSessionId: 'e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70', parentToolUseId: 'toolu_01TaskReview3nV8cW2yL5q' };
const alone = mkdtempSync(join(tmpdir(), 'foldlab-droid-subagent-'));
afterAll(() => rmSync(alone, { recursive: true, force: true }));

describe('inspect of a Factory Droid subagent session', () => {
  it('gives the type and description of the Task call in the caller\'s session file beside it (line 5 of e3a7c1d9-….jsonl)', async () => {
    const report = await runInspect(SUBAGENT, 'chars4');
    expect(report.subagent).toEqual({ ...link, agentType: 'code-reviewer', description: 'Review the CSV export' });
    expect(report.errors).toEqual([]);
    expect(formatInspect(report)).toContain('\nthread        subagent (code-reviewer) under session e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70, call toolu_01TaskReview3nV8cW2yL5q\n');
  });

  it('keeps the link alone when the caller\'s file is not beside it', async () => {
    const copy = join(alone, '5b9d2f4e-8c13-4a7b-b6e0-2d4f6a8c1e93.jsonl');
    copyFileSync(SUBAGENT, copy);
    const report = await runInspect(copy, 'chars4');
    expect(report.subagent).toEqual(link);
    expect(formatInspect(report)).toContain('\nthread        subagent under session e3a7c1d9');
  });
});
