// `eval` over real Claude Code sessions with subagents (src/core/import/__fixtures__/claude-code):
// a row per thread naming its parent, metadata read and never reported as an error, every skipped
// file listed with its reason, and an eval that evaluates nothing failing with why.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEval, type EvalArgs } from './eval.ts';
import { evaluatedAny, nothingEvaluated } from './eval-files.ts';
import { formatEvalCsv, formatEvalMarkdown } from './eval-format.ts';

const FIXTURES = 'src/core/import/__fixtures__/claude-code';
const SESSION = 'ef958aa1-0e93-49f0-bb71-150f63befcd1';
const INLINE = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b';
const ARGS: Omit<EvalArgs, 'paths'> = { configs: [{ strategy: 'sliding-window', options: { windowSize: 4 } }], counter: 'chars4', contextWindow: 50_000, jobs: 1 };

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'foldlab-eval-subagents-'));
}

const shown = (path: string) => relative(process.cwd(), path);

describe('eval on a session folder with its subagents', () => {
  const dir = tempDir();
  cpSync(join(FIXTURES, SESSION), join(dir, SESSION), { recursive: true });
  copyFileSync(join(FIXTURES, `${SESSION}.jsonl`), join(dir, `${SESSION}.jsonl`));
  writeFileSync(join(dir, 'notes.txt'), 'not a transcript');
  writeFileSync(join(dir, SESSION, 'subagents', 'agent-gone.meta.json'), '{"agentType":"Explore"}');

  it('gives the session a row and each subagent a row under it, with its type and description from .meta.json', async () => {
    const report = await runEval({ ...ARGS, paths: [dir] });
    const parentFile = shown(join(dir, `${SESSION}.jsonl`));
    expect(report.files.map((file) => [basename(file.file), file.calls, file.parent?.file ?? null, file.agent?.description ?? null])).toEqual([
      [`${SESSION}.jsonl`, 17, null, null],
      ['agent-a36efb2a1231c41e2.jsonl', 6, parentFile, 'Round 2: alice comparison'],
      ['agent-a4ca7529859c158c2.jsonl', 20, parentFile, 'Research Claude Code plan mode'],
      ['agent-a52886dc180afb356.jsonl', 15, parentFile, 'Research Claude Code teammates'],
      ['agent-a6aa8ad077d9ea083.jsonl', 5, parentFile, 'Round 2: carol comparison'],
      ['agent-ab1e6e141221a29ab.jsonl', 15, parentFile, 'Research Steve Yegge Beads'],
      ['agent-aef063ba534d73153.jsonl', 5, parentFile, 'Round 2: bob comparison'],
    ]);
    expect(report.files.every((file) => file.error === undefined && file.strategies.length === 1)).toBe(true);
    expect(report.files[1]).toMatchObject({ parent: { sessionId: SESSION, toolUseId: 'toolu_017y4gSjMWeQ3L2DAKiygU2y' }, agent: { id: 'a36efb2a1231c41e2', type: 'general-purpose' } });
    expect(Object.keys(report.files[0]!.subagentCalls ?? {})).toHaveLength(6);
    // The metadata files are read, never rows; an orphan one and a non-transcript are listed with why.
    expect(report.files.some((file) => file.file.endsWith('.meta.json'))).toBe(false);
    expect(report.skipped).toEqual([
      { file: shown(join(dir, SESSION, 'subagents', 'agent-gone.meta.json')), reason: 'subagent metadata without its transcript agent-gone.jsonl' },
      { file: shown(join(dir, 'notes.txt')), reason: 'not a transcript (.jsonl or .json)' },
    ]);
    const md = formatEvalMarkdown(report);
    expect(md).toMatch(/\| parent \|\n/);
    expect(md.split('\n').filter((line) => line.includes('agent-a4ca7529859c158c2.jsonl') && line.endsWith(`| ${parentFile} |`))).toHaveLength(1);
    expect(formatEvalCsv(report).split('\n')[2]).toMatch(new RegExp(`,${parentFile.replace(/[.]/g, '\\.')}$`));
  }, 60_000);

  it('a subagent file alone names its session as not evaluated', async () => {
    const report = await runEval({ ...ARGS, paths: [join(FIXTURES, 'agent-c8d9b115.jsonl')] });
    expect(report.files).toHaveLength(1);
    expect(report.files[0]).toMatchObject({ calls: 6, parent: { sessionId: 'a7da6a22-facc-4fcd-8bab-f83c87862004', file: null }, agent: { id: 'c8d9b115' } });
    expect(formatEvalCsv(report)).toContain('session a7da6a22-facc-4fcd-8bab-f83c87862004 (not evaluated)');
  }, 60_000);

  it('a metadata file named on its own is skipped with where its transcript is', async () => {
    const meta = join(dir, SESSION, 'subagents', 'agent-a36efb2a1231c41e2.meta.json');
    await expect(runEval({ ...ARGS, paths: [meta] })).rejects.toThrow(/agent-a36efb2a1231c41e2\.meta\.json: skipped, subagent metadata, read with its transcript: evaluate .*agent-a36efb2a1231c41e2\.jsonl/);
  });
});

describe('eval on a 1.0 session with inline subagents', () => {
  it('gives the main thread and each sidechain thread its own row, parented to the same file', async () => {
    const file = join(FIXTURES, `${INLINE}.jsonl`);
    const report = await runEval({ ...ARGS, paths: [file] });
    expect(report.files.map((row) => [row.thread ?? null, row.calls, row.parent?.file ?? null, row.parent?.toolUseId ?? null])).toEqual([
      [null, 9, null, null],
      ['sidechain-1', 9, file, 'toolu_01LS6tcVd796SbQKmZqeVnWY'],
      ['sidechain-2', 34, file, 'toolu_014i9ThHMNShCHocf9xMKasf'],
      ['sidechain-3', 40, file, 'toolu_01EbxY94wRUAGyMLj5wh699C'],
      ['sidechain-4', 25, file, 'toolu_017rjDpjVPeNFmAEXNTkoP55'],
      ['sidechain-5', 53, file, 'toolu_01EPom7jESzNbU8coiKjzVGS'],
    ]);
    expect(formatEvalMarkdown(report)).toContain(`| ${file}#sidechain-3 |`);
  }, 60_000);
});

describe('eval that evaluates nothing', () => {
  it('refuses a folder without transcripts, listing what it skipped', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'readme.md'), '# notes');
    await expect(runEval({ ...ARGS, paths: [dir] })).rejects.toThrow(/Nothing to evaluate under .*:\n {2}.*readme\.md: skipped, not a transcript/);
  });

  it('exits 1 and says why when every file failed to import', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'empty.jsonl'), '');
    writeFileSync(join(dir, 'notes.txt'), 'x');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'eval', dir, '--strategies', 'pi', '--counter', 'chars4'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`skipped ${shown(join(dir, 'notes.txt'))}: not a transcript`);
    expect(run.stderr).toMatch(/Nothing to evaluate under .*\n {2}.*empty\.jsonl: "empty\.jsonl" is empty: there is nothing to import\.\n {2}.*notes\.txt: skipped/);
    expect(evaluatedAny({ files: [{ error: 'x' }] })).toBe(false);
    expect(nothingEvaluated(['d'], [], [])).toBe('Nothing to evaluate under d: no file was found there.');
  }, 60_000);
});
