import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEval } from './eval.ts';
import { parseEvalArgs } from './eval-args.ts';
import { formatEvalMarkdown, formatEvalText } from './eval-format.ts';

const PI_COMPACTED = 'public/samples/pi/before-compaction.jsonl';
const REWIND = 'public/samples/claude-code/dag_compact_after_rewind.jsonl';
const MASKING = [{ strategy: 'observation-masking' as const, options: {} }];

/** Claude Code lines: a piece of work (2 calls), then a `/clear` hung under `clearParent` (null: a new root). */
function clearedSession(clearParent: string | null): string {
  const at = (s: number) => `2026-01-01T10:00:${String(s).padStart(2, '0')}.000Z`;
  const user = (uuid: string, parentUuid: string | null, content: unknown, s: number) => ({ type: 'user', uuid, parentUuid, sessionId: 's', timestamp: at(s), message: { role: 'user', content } });
  const assistant = (uuid: string, parentUuid: string, id: string, content: unknown[], s: number) => ({
    type: 'assistant', uuid, parentUuid, sessionId: 's', timestamp: at(s),
    message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content, usage: { input_tokens: 100, output_tokens: 20 } },
  });
  return [
    user('u1', null, 'Fix the parser in src/parse.ts', 1),
    assistant('a1', 'u1', 'm1', [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'src/parse.ts' } }], 2),
    user('r1', 'a1', [{ type: 'tool_result', tool_use_id: 't1', content: 'export function parse() {}' }], 3),
    assistant('a2', 'r1', 'm2', [{ type: 'text', text: 'Fixed the parser.' }], 4),
    user('c1', clearParent, '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>', 5),
    user('c2', 'c1', '<local-command-stdout></local-command-stdout>', 6),
  ].map((line) => JSON.stringify(line)).join('\n');
}

describe('eval: the whole session', () => {
  it('replays a pi session from its first entry by default (471 calls), and from its last recorded compaction with --from last-compaction (177), stating the scope in JSON', async () => {
    const whole = await runEval({ ...parseEvalArgs([PI_COMPACTED, '--strategies', 'observation-masking', '--counter', 'chars4']), jobs: 1 });
    const last = await runEval(parseEvalArgs([PI_COMPACTED, '--strategies', 'observation-masking', '--counter', 'chars4', '--from', 'last-compaction']));
    expect(whole.files).toHaveLength(1);
    expect(whole.files[0]).toMatchObject({ calls: 471, scope: { from: 'start', calls: 471, branchCalls: 471, sourceCompactions: 2 } });
    expect(whole.files[0]!.strategies[0]!.series).toHaveLength(471);
    expect(last.files[0]).toMatchObject({ calls: 177, scope: { from: 'last-compaction', calls: 177, branchCalls: 471 } });
    expect(last.files[0]!.strategies[0]!.series).toHaveLength(177);
    expect(JSON.parse(JSON.stringify(last)).files[0].scope.note).toMatch(/^From the compaction the source agent recorded at line 629/);
    expect(formatEvalMarkdown(whole)).toContain("the source agent's own compactions (line 360, 629) are left out");
  }, 60_000);

  it('--branches all (default) replays every branch of a rewind, saying what each shares with the one before; --branches last only the last', async () => {
    const all = await runEval({ paths: [REWIND], configs: MASKING, counter: 'chars4', contextWindow: 10_000, jobs: 1 });
    expect(all.files.map((file) => [file.branch, file.calls, file.scope?.from])).toEqual([
      [{ index: 1, of: 2, leafId: expect.any(String), line: 4, sharedCalls: 0 }, 2, 'start'],
      [{ index: 2, of: 2, leafId: expect.any(String), line: 12, sharedCalls: 1 }, 4, 'start'],
    ]);
    expect(formatEvalText(all).split('\n').filter((line) => line.includes('branch 2/2'))[0]).toMatch(/^public\/samples\/claude-code\/dag_compact_after_rewind\.jsonl branch 2\/2 \(leaf line 12\) {2}observation-masking/);
    const last = await runEval({ paths: [REWIND], configs: MASKING, counter: 'chars4', contextWindow: 10_000, jobs: 1, branches: 'last' });
    expect(last.files.map((file) => [file.branch, file.calls])).toEqual([[undefined, 4]]);
    const compacted = await runEval({ paths: [REWIND], configs: MASKING, counter: 'chars4', contextWindow: 10_000, jobs: 1, branches: 'last', from: 'last-compaction' });
    expect(compacted.files[0]).toMatchObject({ calls: 1, scope: { from: 'last-compaction', branchCalls: 4 } });
  }, 60_000);

  it('a /clear as the last branch does not hide the work before it: that branch is listed as not replayed, the work is replayed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'foldlab-eval-clear-'));
    const rewound = join(dir, 'rewound.jsonl');
    const rooted = join(dir, 'rooted.jsonl');
    writeFileSync(rewound, clearedSession('u1'));
    writeFileSync(rooted, clearedSession(null));
    // As before branches could be chosen: the /clear branch alone, with no call.
    const before = await runEval({ paths: [rewound], configs: MASKING, counter: 'chars4', contextWindow: 10_000, jobs: 1, branches: 'last' });
    expect(before.files.map((file) => file.calls)).toEqual([0]);
    for (const file of [rewound, rooted]) {
      const report = await runEval({ paths: [file], configs: MASKING, counter: 'chars4', contextWindow: 10_000, jobs: 1 });
      expect(report.files).toHaveLength(2);
      const [work, cleared] = report.files;
      expect(work).toMatchObject({ calls: 2, scope: { from: 'start', calls: 2 } });
      expect(work!.notReplayed).toBeUndefined();
      expect(work!.strategies[0]!.series).toHaveLength(2);
      expect(cleared).toMatchObject({ calls: 0, strategies: [], notReplayed: expect.stringMatching(/^no model call on this branch/) });
      expect(formatEvalText(report)).toMatch(/^\S+( branch 2\/2 \(leaf line 6\)|#2) {2}not replayed: no model call on this branch/m);
    }
  }, 60_000);

  it('names a wrong --from or --branches', () => {
    expect(() => parseEvalArgs(['a.jsonl', '--strategies', 'pi', '--from', 'middle'])).toThrow('--from must be one of start, last-compaction; got "middle"');
    expect(() => parseEvalArgs(['a.jsonl', '--strategies', 'pi', '--branches', 'some'])).toThrow('--branches must be one of last, all; got "some"');
    expect(parseEvalArgs(['a.jsonl', '--strategies', 'pi', '--from', 'last-compaction', '--branches', 'last'])).toMatchObject({ from: 'last-compaction', branches: 'last' });
  });

  it('--jobs 2 passes --from and --branches to its processes', async () => {
    const args = { paths: [REWIND, 'public/samples/pi/v3-small.jsonl'], configs: MASKING, counter: 'chars4' as const, contextWindow: 10_000, from: 'last-compaction' as const, branches: 'last' as const };
    const two = await runEval({ ...args, jobs: 2 });
    expect(two).toEqual(await runEval({ ...args, jobs: 1 }));
    expect(two.files[0]).toMatchObject({ calls: 1, scope: { from: 'last-compaction' } });
  }, 60_000);
});
