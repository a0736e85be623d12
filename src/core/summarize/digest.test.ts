// Digest building and merging: what an update keeps from the older summary, what the newer entries
// replace (current state, labelled notes), how older errors get resolved, and the small inferences.
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries } from '../compaction/testing.ts';
import { codeSpan, commonRoot, digestFromFacts, emptyDigest, inferEnvironment, inferStack, MAX_ERRORS, MAX_MERGED_COMMANDS, mergeDigests } from './digest.ts';
import { parseSummary } from './parse-summary.ts';
import { extractFacts } from './extract.ts';
import { renderTemplateText } from './formats.ts';

describe('digestFromFacts', () => {
  it('marks answered requests done and an unanswered last request in progress', () => {
    const digest = digestFromFacts(extractFacts(makeEntries([{ user: 'first' }, { assistant: 'Sure.' }, { user: 'second' }])));
    expect(digest.done).toEqual(['first - answered']);
    expect(digest.inProgress).toEqual(['second']);
    expect(digest.nextSteps).toHaveLength(1);
    expect(digest.context).toEqual(['Last user request: second', 'Last assistant reply: Sure.']);
    expect(digest.hasState).toBe(true);
  });

  it('maps todos to done / in progress / next steps', () => {
    const entries = makeEntries([
      { user: 'plan it' },
      { assistant: '', calls: [{ id: 't', name: 'TodoWrite', input: { todos: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'in_progress' }, { content: 'c', status: 'pending' }] } }] },
    ]);
    const digest = digestFromFacts(extractFacts(entries));
    expect(digest.done).toEqual(['a - completed']);
    expect(digest.inProgress).toEqual(['b']);
    expect(digest.nextSteps).toEqual(['c']);
  });

  it('keeps each distinct error of a repeated command, newest last, and collapses a repeated one', () => {
    const entries = linkEntries(makeEntries([
      { assistant: '', calls: [{ id: '1', name: 'Bash', input: { command: 'make' } }] },
      { tool: 'error one', callId: '1', error: true },
      { assistant: '', calls: [{ id: '2', name: 'Bash', input: { command: 'make' } }] },
      { tool: 'error two', callId: '2', error: true },
      { assistant: '', calls: [{ id: '3', name: 'Bash', input: { command: 'make' } }] },
      { tool: 'error one', callId: '3', error: true },
    ]));
    expect(digestFromFacts(extractFacts(entries)).errors).toEqual([
      { tool: 'Bash', target: 'make', message: 'error two', resolved: false, recent: true },
      { tool: 'Bash', target: 'make', message: 'error one', resolved: false, recent: true },
    ]);
  });

  it('bounds the errors per command and in all, newest kept, and counts what it left out', () => {
    const specs = Array.from({ length: 30 }, (_, i) => [
      { assistant: '', calls: [{ id: `c${i}`, name: 'Bash', input: { command: i < 8 ? 'make' : `make t${i}` } }] },
      { tool: `src/a.ts(${i},1): error TS${2300 + i}: bad ${i}`, callId: `c${i}`, error: true },
    ]).flat();
    const digest = digestFromFacts(extractFacts(linkEntries(makeEntries(specs))));
    expect(digest.errors).toHaveLength(MAX_ERRORS);
    expect(digest.errors.filter((error) => error.target === 'make')).toHaveLength(0);
    expect(digest.errors[digest.errors.length - 1]!.message).toBe('src/a.ts(29,1): error TS2329: bad 29');
    expect(digest.errorsOmitted).toBe(10);
    const text = renderTemplateText('pi-summary', digest);
    expect(text).toContain('Earlier errors left out: 10');
    // An update keeps the count and adds what its own bound leaves out; the newest errors stay.
    expect(mergeDigests(parseSummary(text), emptyDigest()).errorsOmitted).toBe(10);
    const later = Array.from({ length: 5 }, (_, i) => [
      { assistant: '', calls: [{ id: `n${i}`, name: 'Bash', input: { command: `npm test -- n${i}` } }] },
      { tool: `E   AssertionError: later ${i}`, callId: `n${i}`, error: true },
    ]).flat();
    const merged = mergeDigests(parseSummary(text), digestFromFacts(extractFacts(linkEntries(makeEntries(later)))));
    expect(merged.errors).toHaveLength(MAX_ERRORS);
    expect(merged.errors.slice(-5).map((error) => error.message)).toEqual([0, 1, 2, 3, 4].map((i) => `E AssertionError: later ${i}`));
    expect(merged.errors[0]!.message).toBe('src/a.ts(15,1): error TS2315: bad 15');
    expect(merged.errorsOmitted).toBe(15);
  });
});

describe('mergeDigests', () => {
  it('keeps the newest commands of an update, a re-run moving to the end, and counts the older ones left out', () => {
    const older = emptyDigest();
    older.commands = Array.from({ length: MAX_MERGED_COMMANDS }, (_, i) => `make t${i}`);
    older.commandsOmitted = 3;
    const newer = emptyDigest();
    newer.commands = ['make t0', 'npm test'];
    const merged = mergeDigests(older, newer);
    expect(merged.commands).toHaveLength(MAX_MERGED_COMMANDS);
    expect(merged.commands.slice(-2)).toEqual(['make t0', 'npm test']);
    expect(merged.commands[0]).toBe('make t2');
    expect(merged.commandsOmitted).toBe(4);
    const text = renderTemplateText('augment-summary', merged);
    expect(text).toContain('- Earlier commands left out: 4');
    expect(parseSummary(text).commandsOmitted).toBe(4);
  });

  function older() {
    const digest = emptyDigest();
    digest.requests = ['old request'];
    digest.constraints = ['Never push to main.'];
    digest.inProgress = ['old work'];
    digest.context = ['Last user request: old request', 'free note'];
    digest.errors = [{ tool: 'Bash', target: 'npm test', message: 'failed', resolved: false }, { tool: 'Edit', target: 'a.ts', message: 'no match', resolved: false }];
    digest.files.set('a.ts', { read: false, modified: true, created: false, deleted: false, edits: 2 });
    digest.files.set('r.ts', { read: true, modified: false, created: false, deleted: false, edits: 0 });
    digest.timeRange = { start: '2025-01-01T00:00:00.000Z', end: '2025-01-01T01:00:00.000Z' };
    digest.hasState = true;
    return digest;
  }

  it('keeps everything older, adds the newer, sums edits and takes the wider time range', () => {
    const newer = emptyDigest();
    newer.requests = ['new request', 'OLD REQUEST.'];
    newer.constraints = ['Always add tests.'];
    newer.context = ['Last user request: new request'];
    newer.files.set('a.ts', { read: false, modified: true, created: false, deleted: false, edits: 1 });
    newer.files.set('r.ts', { read: false, modified: true, created: false, deleted: false, edits: 1 });
    newer.timeRange = { start: '2025-01-01T02:00:00.000Z', end: '2025-01-01T03:00:00.000Z' };
    const merged = mergeDigests(older(), newer);
    expect(merged.requests).toEqual(['old request', 'new request']);
    expect(merged.constraints).toEqual(['Never push to main.', 'Always add tests.']);
    expect(merged.context).toEqual(['free note', 'Last user request: new request']);
    expect(merged.files.get('a.ts')?.edits).toBe(3);
    expect(merged.files.get('r.ts')).toMatchObject({ modified: true, read: false });
    expect(merged.timeRange).toEqual({ start: '2025-01-01T00:00:00.000Z', end: '2025-01-01T03:00:00.000Z' });
    // The newer entries carry no request or todo: the older state still stands.
    expect(merged.inProgress).toEqual(['old work']);
  });

  it('replaces the current state when the newer entries have one', () => {
    const newer = emptyDigest();
    newer.requests = ['next'];
    newer.hasState = true;
    expect(mergeDigests(older(), newer).inProgress).toEqual([]);
  });

  it('merges environment notes into one tool list and one shared directory (older summaries said project root)', () => {
    const a = emptyDigest();
    a.environment = ['macOS (paths under /Users)', 'project root `/Users/x/p/src`', 'tools used: Bash, Read'];
    const b = emptyDigest();
    b.environment = ['macOS (paths under /Users)', 'files under `/Users/x/p/test`', 'tools used: Edit, Read'];
    expect(mergeDigests(a, b).environment).toEqual(['macOS (paths under /Users)', 'files under `/Users/x/p`', 'tools used: Bash, Edit, Read']);
  });

  it('resolves an older error when the newer entries ran the same command or tool on the same path', () => {
    const newer = emptyDigest();
    newer.succeeded = new Set(['cmd\u0000npm test', 'edit\u0000a.ts']);
    expect(mergeDigests(older(), newer).errors.map((error) => error.resolved)).toEqual([true, true]);
    expect(mergeDigests(older(), emptyDigest()).errors.map((error) => error.resolved)).toEqual([false, false]);
  });
});

describe('inferences', () => {
  it('code spans survive backticks', () => {
    expect(codeSpan('a')).toBe('`a`');
    expect(codeSpan('echo `date`')).toBe('`` echo `date` ``');
    expect(codeSpan('a`b')).toBe('``a`b``');
  });

  it('finds the directory every file lies under, stack and environment', () => {
    expect(commonRoot(['/home/u/p/src/a.ts', '/home/u/p/test/b.ts'])).toBe('/home/u/p');
    expect(commonRoot(['/home/u/p', '/home/u/p/src/a.ts'])).toBe('/home/u/p');
    expect(commonRoot(['relative.ts'])).toBeUndefined();
    expect(inferStack(['a.py', 'b.py', 'c.html'], ['uv run pytest && git status'])).toEqual(['Python', 'HTML', 'git', 'uv']);
    expect(inferEnvironment(['/Users/x/p/a.ts', '/Users/x/p/b.ts'], ['Bash'])).toEqual(['macOS (paths under /Users)', 'files under `/Users/x/p`', 'tools used: Bash']);
  });
});
