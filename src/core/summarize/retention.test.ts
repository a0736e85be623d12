// What the retention probes measure, checked by hand on the real samples: files written by shell
// commands are listed with the others, each distinct error of a repeated command is kept with its
// real error line (file, error code) and marked fixed or still failing, and an update keeps them.
// Expectations are written by hand from the sample transcripts, not computed by the probes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { digestFromFacts } from './digest.ts';
import { errorLine, extractFacts } from './extract.ts';
import { offlineSummaryText } from './offline.ts';
import { CLAUDE_SAMPLE, PI_SAMPLE, sampleEntries } from './testing.ts';

const PI = sampleEntries(readFileSync(PI_SAMPLE, 'utf8'));
const CLAUDE = sampleEntries(readFileSync(CLAUDE_SAMPLE, 'utf8'));

/** The summary lines that mention `needle`. */
function linesWith(text: string, needle: string): string[] {
  return text.split('\n').filter((line) => line.includes(needle));
}

describe('files written by shell commands (pi sample)', () => {
  const facts = extractFacts(PI);

  it('lists the files the bash tool created and deleted', () => {
    // cat > … <<'EOF' (4), cp … ~/.pi/agent/themes/*.json (5, one failed cp left out), plus three write-tool files.
    expect(facts.files.created).toEqual([
      '/tmp/fix-markdown.sed',
      '/tmp/fix_markdown.py',
      '/tmp/fix_markdown2.py',
      '/tmp/fix_markdown3.py',
      'packages/coding-agent/test/test-theme-colors.ts',
      'packages/tui/test/test-themes.ts',
      'packages/tui/test/truncated-text.test.ts',
      '~/.pi/agent/themes/custom-dark.json',
      '~/.pi/agent/themes/custom-light.json',
      '~/.pi/agent/themes/custom.json',
      '~/.pi/agent/themes/nord.json',
      '~/.pi/agent/themes/test.json',
    ]);
    // rm ~/.pi/agent/themes/{test,nord,custom}.json
    expect(facts.files.deleted).toEqual(['~/.pi/agent/themes/custom.json', '~/.pi/agent/themes/nord.json', '~/.pi/agent/themes/test.json']);
    // sed -i '' … packages/tui/test/{editor,markdown}.test.ts
    expect(facts.files.modified).toEqual(expect.arrayContaining(['packages/tui/test/editor.test.ts', 'packages/tui/test/markdown.test.ts']));
  });

  it('shows them in the pi and augment summaries, not as the directory the files lie under', () => {
    for (const promptId of ['pi-summary', 'augment-summary', 'layered-archived-summary']) {
      const text = offlineSummaryText({ promptId, entries: PI, vars: {} });
      for (const path of ['/tmp/fix_markdown.py', '/tmp/fix-markdown.sed', '~/.pi/agent/themes/custom-dark.json']) expect(text, promptId).toContain(path);
      expect(text).not.toContain('files under `/tmp`');
    }
  });
});

describe('distinct errors of a repeated command (pi sample)', () => {
  const summary = offlineSummaryText({ promptId: 'pi-summary', entries: PI.slice(0, 300), vars: {} });

  it('keeps each distinct TypeScript error line, with its file and code, marked fixed or still failing', () => {
    const expected: Array<[string, 'later fixed' | 'still failing']> = [
      // `npx tsc --noEmit` in coding-agent: fixed when the same type check (`npm run check`) passed there (gold: line 64, resolved at 210).
      ['../tui/test/chat-simple.ts(28,2): error TS2739', 'later fixed'],
      // tsc over src/**/*.ts without the project config: fixed when the build passed right after (gold: line 66, resolved at 68).
      ['src/changelog.ts(104,35): error TS1343', 'later fixed'],
      ['../tui/test/wrap-ansi.test.ts(70,52): error TS2353', 'later fixed'],
      ['../tui/test/chat-simple.ts(83,49): error TS2345', 'later fixed'],
      ['../tui/test/markdown.test.ts(16,5): error TS2345', 'later fixed'],
      ['../tui/test/markdown.test.ts(200,5): error TS2322', 'later fixed'],
      ['../tui/test/markdown.test.ts(221,22): error TS2304', 'later fixed'],
    ];
    for (const [line, status] of expected) {
      const found = linesWith(summary, line);
      expect(found, line).toHaveLength(1);
      expect(found[0], line).toContain(`failed, ${status}: ${line}`);
    }
  });

  it('clips an error line at a word boundary, saying how much it left out', () => {
    const [line] = linesWith(summary, 'chat-simple.ts(28,2): error TS2739');
    expect(line).toMatch(/: \.\.\/tui\/test\/chat-simple\.ts\(28,2\): error TS2739: Type .* missing the following properties … \[\d+ chars omitted\]$/);
  });

  it('keeps the list bounded and without duplicates', () => {
    const digest = digestFromFacts(extractFacts(PI));
    expect(digest.errors.length).toBeLessThanOrEqual(20);
    const messages = digest.errors.map((error) => error.message);
    expect(new Set(messages).size).toBe(messages.length);
  });

  it('an update keeps the earlier errors and files', () => {
    const update = offlineSummaryText({ promptId: 'pi-update-summary', entries: PI.slice(300), previousSummary: summary, vars: {} });
    for (const line of ['markdown.test.ts(16,5): error TS2345', 'markdown.test.ts(221,22): error TS2304', 'chat-simple.ts(28,2): error TS2739']) expect(update).toContain(line);
    for (const path of ['/tmp/fix_markdown.py', '/tmp/fix_markdown3.py']) expect(update).toContain(path);
    // Errors of the newer entries are there too.
    expect(update).toContain("theme.ts(5,15): error TS2305: Module '\"@mariozechner/pi-tui\"' has no exported member 'EditorTheme'.");
  });
});

describe('errors of the Claude Code sample', () => {
  it('keeps the pytest, pydantic and git errors in the augment summary', () => {
    const text = offlineSummaryText({ promptId: 'augment-summary', entries: CLAUDE, vars: {} });
    const expected = [
      "E TypeError: CacheManager.__init__() missing 1 required positional argument: 'library_version'",
      "E TypeError: unsupported operand type(s) for /: 'str' and 'str'",
      'pydantic_core._pydantic_core.ValidationError: 5 validation errors for UserTranscriptEntry',
      "fatal: ambiguous argument 'claude_code_log/renderer.py': unknown revision or path not in the working tree.",
    ];
    for (const line of expected) expect(text).toContain(line);
    // The pytest run passed later (by its absolute path): its errors are fixed.
    expect(linesWith(text, 'E TypeError: unsupported operand')[0]).toContain('failed, later fixed:');
    // `git diff HEAD~1 …` fixed by `git diff -- …` on the same file right after (gold: line 165, resolved at 167).
    expect(linesWith(text, 'fatal: ambiguous argument')[0]).toContain('failed, later fixed:');
  });
});

describe('errorLine picks the real error line', () => {
  it('over the command output before it', () => {
    expect(errorLine('> pkg@1.0.0 check\n> tsgo --noEmit\n\nsrc/a.ts(3,1): error TS2345: Argument of type x.\nsrc/b.ts(4,1): error TS2322: Type y.\nnpm error Lifecycle script `check` failed')).toBe('src/a.ts(3,1): error TS2345: Argument of type x.');
    expect(errorLine('collecting ...\n    def test_x():\n>       assert f() == 2\nE       AssertionError: assert 1 == 2\n=== 1 failed in 0.1s ===')).toBe('E AssertionError: assert 1 == 2');
    expect(errorLine("fatal: ambiguous argument 'a.py': unknown revision\nUse '--' to separate paths")).toBe("fatal: ambiguous argument 'a.py': unknown revision");
    expect(errorLine('Building...\ncp: /x/dark.json: No such file or directory')).toBe('cp: /x/dark.json: No such file or directory');
  });
});
