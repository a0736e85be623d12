// Probes of the real samples, against lists written by hand from reading the sessions (entry
// indexes are positions in `importText(...).entries`, which is what the replay passes).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../import/run.ts';
import { entryText, type Entry } from '../journal/entry.ts';
import { extractProbes } from './extract.ts';
import { matchProbe, prepareContext } from './match.ts';
import type { Probe } from './types.ts';

function load(path: string): Entry[] {
  return importText(readFileSync(path, 'utf8')).entries;
}

const of = (probes: readonly Probe[], category: string, kind?: string): Probe[] => probes.filter((probe) => probe.category === category && (kind === undefined || probe.kind === kind));
const texts = (probes: readonly Probe[]): string[] => probes.map((probe) => probe.text).sort();

describe('Claude Code sample 37f83ec9 (claude-code-log: combined transcript link)', () => {
  const entries = load('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
  const probes = extractProbes(entries);

  it('lists the files written and read, relative to the project root', () => {
    // Exact lists: every Write/Edit/MultiEdit/Read of the session, read by hand. The rejected
    // Write of test_combined_link.py (#47, refused by the user) created nothing.
    expect(texts(of(probes, 'artifact', 'created'))).toEqual(['test/test_combined_transcript_link.py']);
    expect(texts(of(probes, 'artifact', 'modified'))).toEqual([
      'claude_code_log/renderer.py',
      'claude_code_log/templates/components/session_nav_styles.css',
      'claude_code_log/templates/transcript.html',
    ]);
    // The test file was created in the session and edited afterwards: "created" only.
    // transcript.html and session_nav_styles.css were read before being edited: write probes only.
    expect(texts(of(probes, 'artifact', 'read'))).toEqual(['claude_code_log/templates/components/session_nav.html']);
    expect(of(probes, 'artifact', 'deleted')).toEqual([]);
    expect(probes.some((probe) => probe.text.includes('test_combined_link.py'))).toBe(false);
    const renderer = of(probes, 'artifact').find((probe) => probe.text === 'claude_code_log/renderer.py')!;
    expect(renderer.entryIndex).toBe(7); // the MultiEdit
    expect(renderer.needles).toContainEqual(['renderer.py']);
  });

  it('takes the reasons typed after rejecting a tool call and the correction as constraints', () => {
    // #50 and #150 answer the rejected Write (#47) and Edit (#147); #228 says work was lost.
    expect(of(probes, 'constraint').map((probe) => [probe.entryIndex, probe.kind])).toEqual([[50, 'steer'], [150, 'steer'], [228, 'steer']]);
    // "oh, I didn't find those cross-session navigation links helpful, can you please replace…" is a request.
    expect(of(probes, 'constraint').some((probe) => probe.entryIndex === 4)).toBe(false);
  });

  it('takes the six real user messages as tasks, not the interruption markers', () => {
    // #49 and #149 are "[Request interrupted by user for tool use]".
    expect(of(probes, 'task').map((probe) => probe.entryIndex)).toEqual([0, 4, 50, 150, 228, 250]);
    expect(of(probes, 'task').every((probe) => probe.kind === 'request')).toBe(true);
  });

  it('finds the errors and which of them a later run resolved', () => {
    const errors = of(probes, 'error');
    const byIndex = new Map(errors.map((probe) => [probe.entryIndex, probe]));
    // Resolved, by hand: the three "Found 2 matches" Edit failures by the next Edit of the same
    // file; pytest on the new test file (relative path) by the passing run with the absolute path
    // (#216); the relative grep / pytest / ruff runs by their absolute-path reruns.
    // The `cd test && python -c` script (#114) by the same script run without the `cd` (#116);
    // `git diff HEAD~1 <path>` (#126) by `git diff -- <path>` right after (#128).
    const resolved: Array<[number, number]> = [[56, 216], [72, 74], [82, 216], [92, 216], [100, 102], [114, 116], [126, 128], [138, 144], [174, 216], [176, 216], [194, 216], [206, 208], [218, 220], [222, 224]];
    for (const [at, by] of resolved) {
      expect(byIndex.get(at)?.kind, `error at #${at}`).toBe('resolved');
      expect(byIndex.get(at)?.resolvedAt, `error at #${at}`).toBe(by);
    }
    // Open: pytest -m unit (no tests selected), the two abandoned python -c scripts' ImportError /
    // ValidationError, the last ImportError.
    for (const at of [30, 32, 44, 46, 242]) expect(byIndex.get(at)?.kind, `error at #${at}`).toBe('open');
    // Exact: #110 repeats a failure still open (same first failure, same count) and adds nothing;
    // #194 (1 failed, 5 passed) is a new failure of the same test file.
    expect(errors.map((probe) => probe.entryIndex)).toEqual([30, 32, 44, 46, 56, 72, 82, 92, 100, 114, 126, 138, 174, 176, 194, 206, 218, 222, 242]);
    // The user's refusals (#48, #148) are not errors.
    expect(byIndex.has(48)).toBe(false);
    expect(byIndex.has(148)).toBe(false);
    expect(byIndex.get(46)!.needles[0]).toEqual(expect.arrayContaining(['importerror', 'claude_code_log.parser']));
  });

  it('keeps stated choices and drops diagnoses as decisions', () => {
    const decisions = of(probes, 'decision');
    expect(decisions.map((probe) => probe.entryIndex)).toEqual(expect.arrayContaining([131, 133]));
    // #1 "I'll examine the git diff…" and #111 "…falling back to generate_html instead of using…" are not choices.
    expect(decisions.some((probe) => probe.entryIndex === 1 || probe.entryIndex === 111 || probe.entryIndex === 117)).toBe(false);
  });

  it('takes the paths and symbols the user typed as values', () => {
    expect(texts(of(probes, 'identifier'))).toEqual([
      '_generate_html_with_combined_link',
      '_generate_html_with_navigation',
      '_get_enhanced_session_navigation',
      'claude_code_log/renderer.py',
      'claude_code_log/templates/components/session_nav.html',
    ]);
  });

  it('is deterministic, in entry order, with unique ids', () => {
    const again = extractProbes(entries);
    expect(again).toEqual(probes);
    expect(new Set(probes.map((probe) => probe.id)).size).toBe(probes.length);
    for (let i = 1; i < probes.length; i++) expect(probes[i]!.entryIndex).toBeGreaterThanOrEqual(probes[i - 1]!.entryIndex);
  });

  it('finds every probe in the verbatim text of the journal', () => {
    // The needles are read from the entries: the journal's own text must match them all.
    const context = prepareContext(entries.map(entryText).join('\n'));
    const missed = probes.filter((probe) => !matchProbe(probe, context).kept);
    expect(missed.map((probe) => `${probe.category} ${probe.text}`)).toEqual([]);
  });
});

describe('pi sample large-session (pi-mono themes)', () => {
  const entries = load('public/samples/pi/large-session.jsonl');
  const probes = extractProbes(entries);

  it('lists the user constraints', () => {
    // The instructions and corrections read by hand from the 88 user messages (see
    // gold/pi-large-session.gold.json); "i don't tink the component invalidate works correctly"
    // ("I don't" is not a prohibition) and the pasted stack traces are not constraints.
    expect(of(probes, 'constraint').map((probe) => probe.entryIndex)).toEqual([15, 247, 271, 347, 361, 431, 469, 477, 653, 730, 750, 758, 792]);
    expect(texts(of(probes, 'constraint'))).toEqual(expect.arrayContaining(['no conosle logs!', 'omfg use fucking rgb values in the themes, no rgb indices!', 'no, the block should stay as is']));
    expect(of(probes, 'constraint').some((probe) => /invalidate works/.test(probe.text) || /at resolveVarRefs|Invalid hex color/.test(probe.text))).toBe(false);
    const modify = of(probes, 'constraint').find((probe) => probe.text.includes("don't modify"))!;
    expect(modify.kind).toBe('never');
    expect(modify.needles).toEqual([['modify', 'theme']]);
  });

  it('lists the files, including ~ paths written by shell commands', () => {
    const created = texts(of(probes, 'artifact', 'created'));
    // Superset check on the hand list: these were written with write/bash (cp, python > file).
    expect(created).toEqual(expect.arrayContaining([
      'packages/tui/test/test-themes.ts',
      'packages/tui/test/truncated-text.test.ts',
      'packages/coding-agent/test/test-theme-colors.ts',
      '~/.pi/agent/themes/custom-light.json',
      '~/.pi/agent/themes/custom-dark.json',
    ]));
    // `rm ~/.pi/agent/themes/*.json` (the user asked to delete the theme files): created earlier in
    // the session, they end deleted and are stated so, once.
    expect(created.filter((path) => /themes\/(?:test|custom|nord)\.json$/.test(path))).toEqual([]);
    expect(texts(of(probes, 'artifact', 'deleted'))).toEqual(['~/.pi/agent/themes/custom.json', '~/.pi/agent/themes/nord.json', '~/.pi/agent/themes/test.json']);
    expect(texts(of(probes, 'artifact', 'modified'))).toEqual(expect.arrayContaining([
      'packages/coding-agent/src/theme/dark.json',
      'packages/coding-agent/src/theme/light.json',
      'packages/coding-agent/src/theme/theme.ts',
      'packages/coding-agent/src/tui/tui-renderer.ts',
      'packages/coding-agent/docs/theme.md',
      'packages/tui/src/components/truncated-text.ts',
      'packages/tui/test/markdown.test.ts', // sed -i '' … markdown.test.ts
      'packages/coding-agent/README.md',
      'packages/coding-agent/CHANGELOG.md',
    ]));
    // sed scripts are not files.
    expect(of(probes, 'artifact').some((probe) => probe.text.startsWith('s/') || probe.text.includes('undefined,'))).toBe(false);
  });

  it('resolves the type-check errors by the later clean check, and ignores grep misses and aborts', () => {
    const errors = of(probes, 'error');
    // `npm run check 2>&1 | grep "error TS"` failures: the check later came back clean (#207,
    // `npm run check 2>&1 | grep "error" | head -5` printing nothing).
    for (const at of [59, 185, 191, 201]) {
      const probe = errors.find((error) => error.entryIndex === at);
      expect(probe?.kind, `error at #${at}`).toBe('resolved');
      expect(probe?.resolvedAt).toBe(207);
    }
    // `grep …` exiting 1 with no output is "no match"; "sleep 5" ended by the user is an abort.
    expect(errors.some((error) => error.text.startsWith('bash: grep -n "invalidate"'))).toBe(false);
    expect(errors.some((error) => error.text.includes('sleep 5'))).toBe(false);
    // The release build that failed at the end (TS2305 in theme.ts) was never rerun clean.
    expect(errors.find((error) => error.entryIndex === 902)?.kind).toBe('open');
  });

  it('takes hex colors and units the user gave as values, and skips slash commands as tasks', () => {
    const values = texts(of(probes, 'identifier', 'value'));
    expect(values).toEqual(expect.arrayContaining(['#b5bd68', '#8abeb7', 'cc6666', 'f0c674', '5 seconds', '70%', '90%']));
    // "/mode", "/them", "/" are slash commands.
    const tasks = of(probes, 'task');
    expect(tasks.some((probe) => probe.text.startsWith('/'))).toBe(false);
    expect(tasks[0]!.entryIndex).toBe(2);
    // "continue" asks nothing new.
    expect(tasks.some((probe) => probe.text === 'continue')).toBe(false);
  });

  it('finds every probe in the verbatim text of the journal', () => {
    const context = prepareContext(entries.map(entryText).join('\n'));
    const missed = probes.filter((probe) => !matchProbe(probe, context).kept);
    expect(missed.map((probe) => `${probe.category} ${probe.text}`)).toEqual([]);
  });
});

describe('Codex sample schema-coverage', () => {
  it('has one task and no artifact (ls reads no file)', () => {
    const probes = extractProbes(load('public/samples/codex/schema-coverage.jsonl'));
    expect(probes.map((probe) => `${probe.category}/${probe.kind} ${probe.text}`)).toEqual(['task/request List the files']);
  });
});
