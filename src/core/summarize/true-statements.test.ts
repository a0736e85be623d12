// Summaries that state only what is true, on excerpts in Claude Code's real JSONL format that show
// the faults quoted from held-out sessions (see __fixtures__/README.md) and on the real pi sample:
// pasted error output is no constraint, a rejected call is no error and its reason is a constraint,
// a later run of the same target fixes an error whatever its flags, a strategy's cut mark is no
// file, a slash command is a request, and work an update finishes leaves In Progress.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SUMMARY_CUT_MARK } from '../compaction/summarizer.ts';
import type { Entry } from '../journal/entry.ts';
import { capTokens } from '../strategies/two-layer.ts';
import { getEstimator } from '../tokens/counters.ts';
import { extractFacts } from './extract.ts';
import { offlineSummaryText } from './offline.ts';
import { PI_SAMPLE, sampleEntries } from './testing.ts';

const fixture = (name: string): Entry[] => sampleEntries(readFileSync(`src/core/summarize/__fixtures__/${name}.jsonl`, 'utf8'));
const summary = (entries: readonly Entry[], previousSummary?: string): string =>
  offlineSummaryText({ promptId: 'pi-summary', entries, vars: {}, ...(previousSummary !== undefined ? { previousSummary } : {}) });

/** The lines of one `## Heading` / `### Heading` section. */
function section(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, index) => index > start && /^#{2,3} /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).filter((line) => line.trim() !== '');
}

describe('pasted output is never a constraint', () => {
  const entries = fixture('pasted-git-error');

  it("a pasted git error's lines are not constraints; the user's own instruction is", () => {
    expect(extractFacts(entries).constraints).toEqual(["don't change the global git config"]);
    const constraints = section(summary(entries), '## Constraints & Preferences');
    expect(constraints).toEqual(["- don't change the global git config"]);
    expect(constraints.join('\n')).not.toContain('access rights');
  });
});

describe('a rejected tool call is no failure; its reason is a constraint', () => {
  const entries = fixture('rejected-commit');
  const text = summary(entries);

  it('lists no error, and the reason as a constraint and with the declined call', () => {
    const facts = extractFacts(entries);
    expect(facts.errors).toEqual([]);
    expect(facts.constraints).toEqual(['please add transformer.js too first']);
    expect(facts.declined).toEqual([{ tool: 'Bash', target: 'git add src/bpe.js test/bpe.test.js && git commit -m "Fix BPE merge order for repeated pairs"', reason: 'please add transformer.js too first' }]);
    expect(text).not.toMatch(/failed|still failing/);
    expect(section(text, '### Blocked')).toEqual(['(none)']);
    expect(text).toContain('The user declined Bash `git add src/bpe.js test/bpe.test.js && git commit -m "Fix BPE merge order for repeated pairs"`, saying: please add transformer.js too first');
  });

  it('the commit made right after is done', () => {
    expect(section(text, '### Done')).toContain('- [x] Ran `git add src/bpe.js src/transformer.js test/bpe.test.js && git commit -m "Fix BPE merge order for repeated pairs"`');
  });
});

describe('an error is fixed by a later success on the same target, whatever the flags', () => {
  it('npm test -s failing, then passing with --pool=threads: later fixed', () => {
    const entries = fixture('npm-test-pool');
    expect(extractFacts(entries).errors.map((error) => [error.target, error.resolved])).toEqual([['npm test -s', true]]);
    const text = summary(entries);
    expect(text).toContain('- [x] Bash `npm test -s` failed, later fixed: Error: [vitest-pool]: Timeout starting forks runner.');
    expect(text).not.toContain('still failing');
  });

  it('an update fixes an older summary\'s error by the same rule', () => {
    const entries = fixture('npm-test-pool');
    const failing = entries.findIndex((entry) => entry.blocks.some((block) => block.type === 'tool_result' && block.isError));
    const older = summary(entries.slice(0, failing + 1));
    expect(older).toContain('Bash `npm test -s` failed, still failing');
    const updated = summary(entries.slice(failing + 1), older);
    expect(updated).toContain('Bash `npm test -s` failed, later fixed');
    expect(updated).not.toContain('still failing');
  });
});

describe("a strategy's cut mark is never a file", () => {
  it('an update of a summary cut inside its file list lists no mark and no half path', () => {
    const pi = sampleEntries(readFileSync(PI_SAMPLE, 'utf8'));
    const full = summary(pi.slice(0, 300));
    const counter = getEstimator('chars4');
    // Cut inside <modified-files>: the last 40 tokens of the file list are lost.
    const files = full.slice(full.indexOf('<modified-files>'));
    const cut = capTokens(full, counter.count(full) - counter.count(files) + Math.floor(counter.count(files) / 2), counter);
    expect(cut.endsWith(`\n${SUMMARY_CUT_MARK}`)).toBe(true);
    const kept = cut.split('\n').slice(cut.split('\n').indexOf('<modified-files>') + 1, -1);
    const modified = full.split('\n').slice(full.split('\n').indexOf('<modified-files>') + 1, full.split('\n').indexOf('</modified-files>'));
    // Cut at a line end: every kept line is a whole path.
    for (const line of kept) expect(modified).toContain(line);
    const updated = summary(pi.slice(300, 320), cut);
    expect(updated).not.toContain(SUMMARY_CUT_MARK);
    expect(updated).not.toContain('summary cut');
  });
});

describe('the Goal is never empty while the session has a request', () => {
  it('/init (its command line and its prompt are harness messages) is the request, in words', () => {
    const entries = fixture('init-command');
    expect(entries.filter((entry) => entry.role === 'user' && !entry.flags?.injected && !entry.blocks.some((block) => block.type === 'tool_result'))).toEqual([]);
    const goal = section(summary(entries), '## Goal');
    expect(goal).toHaveLength(1);
    expect(goal[0]).toMatch(/^- \/init: .*CLAUDE\.md/);
  });

  it('a part with no request says so, and the note never reads back as a request', () => {
    const pi = sampleEntries(readFileSync(PI_SAMPLE, 'utf8'));
    // pi's first entries: `/mode` and an aborted reply, the history before the first turn a split-turn compaction keeps.
    const before = summary(pi.slice(0, 2));
    expect(section(before, '## Goal')).toEqual(['(none: no user request in these messages)']);
    const updated = summary(pi.slice(2, 6), before);
    expect(section(updated, '## Goal')).toHaveLength(1);
    expect(section(updated, '## Goal')[0]).toMatch(/^- read packages\/coding-agent\/docs\/theme\.md/);
  });

  it('harness commands (/clear, /mode) and a typed path are not requests', () => {
    const pi = sampleEntries(readFileSync(PI_SAMPLE, 'utf8'));
    const requests = extractFacts(pi).requests;
    expect(requests.filter((request) => request.startsWith('/'))).toEqual([]);
  });
});

describe('finished work leaves In Progress', () => {
  it('an update whose entries end with the answer moves the request it finished to Done', () => {
    const pi = sampleEntries(readFileSync(PI_SAMPLE, 'utf8'));
    const userAt = (start: string): number => pi.findIndex((entry) => entry.role === 'user' && entry.blocks.some((block) => block.type === 'text' && block.text.startsWith(start)));
    const request = userAt('read packages/coding-agent/docs/theme.md');
    const next = userAt('you fucked thet component up');
    // The first compaction cuts the turn after its first tool results; the update covers the rest of the turn, which ends with the answer.
    const older = summary(pi.slice(0, request + 4));
    expect(section(older, '### In Progress')[0]).toMatch(/^- \[ \] read packages\/coding-agent\/docs\/theme\.md/);
    const updated = summary(pi.slice(request + 4, next), older);
    expect(section(updated, '### In Progress')).toEqual(['(none)']);
    expect(section(updated, '### Done')[0]).toMatch(/^- \[x\] read packages\/coding-agent\/docs\/theme\.md.* - answered$/);
    expect(updated).not.toContain('Finish the last user request');
  });
});
