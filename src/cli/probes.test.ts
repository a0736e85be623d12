import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProbes, parseProbesArgs, runProbes } from './probes.ts';

const CLAUDE = 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl';

function cli(args: string[]): { code: number; out: string; err: string } {
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, out, err: '' };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, out: e.stdout, err: e.stderr };
  }
}

describe('npm run cli -- probes', () => {
  it('lists each probe with its source line, artifacts with their kind, errors with their status and resolving entry', async () => {
    const report = await runProbes(CLAUDE);
    expect(report).toMatchObject({ format: 'claude-code', conversations: 1 });
    const artifact = report.probes.find((probe) => probe.category === 'artifact' && probe.text === 'test/test_combined_transcript_link.py');
    expect(artifact).toMatchObject({ kind: 'created' });
    expect(artifact!.line).toBeGreaterThan(0);
    for (const probe of report.probes) {
      expect(probe.entryId.length).toBeGreaterThan(0);
      if (probe.category === 'error') {
        expect(probe.status).toBe(probe.resolvedBy ? 'resolved' : 'open');
        if (probe.resolvedBy) expect(probe.resolvedBy.line).toBeGreaterThan(probe.line);
      } else expect(probe.status).toBeUndefined();
    }
    expect(report.probes.some((probe) => probe.status === 'resolved')).toBe(true);
    const text = formatProbes(report);
    expect(text.split('\n')[0]).toMatch(/\d+ probes \(.*\d+ artifact/);
    expect(text).toMatch(/line \d+ +error +resolved \(line \d+\)/);
  });

  it('lists each conversation of a multi-conversation document under its number', async () => {
    const report = await runProbes('public/samples/openai-chat/gpt-4o-airline.json');
    expect(report.conversations).toBe(200);
    expect(new Set(report.probes.map((probe) => probe.conversation)).size).toBeGreaterThan(100);
    expect(formatProbes(report)).toMatch(/^#1 line \d+/m);
  });

  it('reads its arguments and refuses wrong ones', () => {
    expect(parseProbesArgs(['a.jsonl', '--json'])).toEqual({ file: 'a.jsonl', json: true });
    expect(parseProbesArgs(['--format', 'pi', 'a.jsonl'])).toEqual({ file: 'a.jsonl', json: false, format: 'pi' });
    expect(() => parseProbesArgs([])).toThrow(/needs a <file>/);
    expect(() => parseProbesArgs(['a', 'b'])).toThrow(/one <file>/);
    expect(() => parseProbesArgs(['a', '--bogus'])).toThrow(/unknown option --bogus/);
    expect(() => parseProbesArgs(['a', '--format', 'nope'])).toThrow(/--format must be one of/);
  });

  it('prints JSON, and names a missing file, a folder or a file that is not a transcript (exit 1) or a usage error (exit 2)', () => {
    const json = cli(['probes', 'public/samples/pi/v3-small.jsonl', '--json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.out) as { format: string; probes: Array<{ category: string; line: number; text: string }> };
    expect(parsed.format).toBe('pi');
    expect(parsed.probes).toContainEqual(expect.objectContaining({ category: 'task', line: 4, text: expect.stringContaining('hello.py') }));
    expect(cli(['probes', 'missing.jsonl'])).toMatchObject({ code: 1, err: expect.stringContaining('no such file: missing.jsonl') });
    expect(cli(['probes', 'src'])).toMatchObject({ code: 1, err: expect.stringContaining('"src" is a folder, but not an opencode storage folder') });
    const bad = join(mkdtempSync(join(tmpdir(), 'foldlab-probes-')), 'bad.jsonl');
    writeFileSync(bad, '{"foo": 1}\nnot json\n');
    const broken = cli(['probes', bad]);
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/Error: /);
    expect(cli(['probes'])).toMatchObject({ code: 2, err: expect.stringContaining('usage:') });
  });
});
