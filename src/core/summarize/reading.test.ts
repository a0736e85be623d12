// The offline summaries read as a user would, on the real samples: clips fall between words and
// count what they leave out, constraints are the user's instructions only, decisions are choices
// (not narration), a later success on the same target resolves an error, a declined call is not an
// error, and harness text (slash-command echoes, IDE selections, reminders) is never a goal.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SummaryRequest } from '../compaction/summarizer.ts';
import type { Entry } from '../journal/entry.ts';
import { clipHead, clipLine, clipWords, oneLine } from './clip.ts';
import { extractConstraints, extractDecisions, extractFacts } from './extract.ts';
import { stripHarness, userWords } from './harness.ts';
import { offlineSummaryText } from './offline.ts';
import { CLAUDE_SAMPLE, claudeWithHarness, FIRST_PROMPT, PI_SAMPLE, sampleEntries } from './testing.ts';

const CLAUDE_RAW = readFileSync(CLAUDE_SAMPLE, 'utf8');
const CLAUDE = sampleEntries(CLAUDE_RAW);
const PI = sampleEntries(readFileSync(PI_SAMPLE, 'utf8'));
const TEMPLATES = ['pi-summary', 'pi-turn-prefix', 'augment-summary', 'layered-archived-summary', 'budget-memory-block'];
const MARKER = / … \[(\d+) chars omitted\](?: … )?/g;
const SEPARATED = /^[/\\:,;=&|?#]$/;

function summary(promptId: string, entries: readonly Entry[]): string {
  const request: Pick<SummaryRequest, 'promptId' | 'entries' | 'vars'> = { promptId, entries, vars: {} };
  return offlineSummaryText(request);
}

/** Every whitespace-separated token of every text, tool input and result of the entries. */
function sourceTokens(entries: readonly Entry[]): Set<string> {
  const tokens = new Set<string>();
  const add = (text: string) => oneLine(text).split(' ').forEach((token) => tokens.add(token));
  for (const entry of entries) {
    for (const block of entry.blocks) {
      if (block.type === 'text' || block.type === 'thinking') add(block.text);
      else if (block.type === 'tool_call') add(typeof block.input === 'string' ? block.input : JSON.stringify(block.input));
      else if (block.type === 'tool_result') add(block.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'));
    }
    if (entry.blocks.some((block) => block.type === 'tool_call')) {
      for (const block of entry.blocks) if (block.type === 'tool_call') for (const value of Object.values(block.input as Record<string, unknown>)) if (typeof value === 'string') add(value);
    }
  }
  return tokens;
}

function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

describe('1. clipping at sentence and word boundaries, saying how much was left out', () => {
  it('every clip in every template on the real samples cuts between whole words of the source', () => {
    for (const [name, entries] of [['claude-code', CLAUDE], ['pi', PI]] as const) {
      const tokens = sourceTokens(entries);
      let clips = 0;
      for (const id of TEMPLATES) {
        const text = summary(id, entries);
        for (const line of text.split('\n')) {
          for (const match of line.matchAll(MARKER)) {
            clips++;
            const before = line.slice(0, match.index).split(' ').pop()!.replace(/^[`(]+/, '');
            const after = line.slice(match.index + match[0].length).split(' ')[0]!.replace(/[`)]+$/, '');
            // The text before the marker ends a source word (or a part of a path: `a/b`, `x::y`);
            // the text after it starts one (or the line ends there).
            const ends = (token: string) => token.endsWith(before) || (SEPARATED.test(before.slice(-1)) && token.includes(before));
            expect([...tokens].some(ends), `${name} ${id}: "${before}" in ${line.slice(0, 200)}`).toBe(true);
            if (after && after !== '-') expect([...tokens].some((token) => token.startsWith(after) || (SEPARATED.test(after.charAt(0)) && token.includes(after))), `${name} ${id}: "${after}" in ${line.slice(0, 200)}`).toBe(true);
          }
        }
      }
      expect(clips, name).toBeGreaterThan(0);
    }
  });

  it('a middle clip of the real first request keeps whole words at both ends and counts exactly what it left out', () => {
    const error = 'Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: x';
    for (const text of [FIRST_PROMPT, oneLine(error)]) {
      for (let max = 40; max < text.length; max += 7) {
        const clipped = clipLine(text, max);
        expect(clipped.length, `${max}`).toBeLessThanOrEqual(max);
        const match = / … \[(\d+) chars omitted\](?: … )?/.exec(clipped);
        if (!match) {
          // Too short for a count: the start, cut between words, and `…`.
          expect(clipped.endsWith('…')).toBe(true);
          expect(text[clipped.length - 1]).toMatch(/\s/);
          continue;
        }
        const head = clipped.slice(0, match.index);
        const tail = clipped.slice(match.index + match[0].length);
        expect(text.startsWith(head)).toBe(true);
        expect(text[head.length] ?? ' ', `head of ${max}: ${head}`).toMatch(/\s/);
        if (tail) {
          expect(text.endsWith(tail)).toBe(true);
          expect(text[text.length - tail.length - 1], `tail of ${max}: ${tail}`).toMatch(/\s/);
        }
        expect(Number(match[1])).toBe(text.length - head.length - tail.length);
      }
    }
    // Before: "Hey Claude, please have a look at the git diff of claude_code_log/re … erate_html_with_navigation do".
    expect(clipHead(FIRST_PROMPT, 100)).toBe('Hey Claude, please have a look at the git diff of claude_code_log/renderer.py … [93 chars omitted]');
    expect(clipLine(FIRST_PROMPT, 100)).toBe('Hey Claude, please have a look at the git diff of … [119 chars omitted] … do');
    expect(clipLine(oneLine(error), 200)).toBe('Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. … [53 chars omitted] … context to uniquely identify the instance. String: x');
  });

  it('a 100k-character token is cut at a character boundary, bounded, fast, and never splits a surrogate pair', () => {
    const token = 'x'.repeat(100_000);
    const start = performance.now();
    const clipped = clipLine(token, 200);
    expect(performance.now() - start).toBeLessThan(200);
    expect(clipped).toBe(`${'x'.repeat(175)} … [99825 chars omitted]`);
    const emoji = '😀'.repeat(50_000);
    for (const max of [1, 2, 7, 8, 33, 60, 61, 201]) {
      for (const clip of [clipLine, clipWords, clipHead]) {
        const out = clip(emoji, max);
        expect(out.length, `${clip.name} ${max}`).toBeLessThanOrEqual(max);
        expect(hasLoneSurrogate(out), `${clip.name} ${max}`).toBe(false);
      }
    }
  });
});

describe('2. constraints are the user\'s explicit instructions', () => {
  it('on the pi sample: only the instructions, none of the sentences that merely contain a keyword', () => {
    // Before: 9 "constraints", e.g. "i don't tink the component invalidate works correctly.",
    // "wait, do we only have a single link color?", "alright, i think there's only one file left to fix up, …".
    expect(extractFacts(PI).constraints).toEqual([
      'omfg use fucking rgb values in the themes, no rgb indices!',
      "don't modify the theme, look into the footer sources",
      'make sure toolText is also used.',
    ]);
  });

  it('on the Claude Code sample: only what the user typed right after rejecting a call (the assistant\'s "must" is not one)', () => {
    // Gold lines 74 and 194: each typed right after the user rejected a Write / an Edit.
    expect(extractFacts(CLAUDE).constraints).toEqual(["I'd actually love that test to be saved a permanent unit test", 'Do we even need _generate_html_with_combined_link then?']);
    expect(summary('pi-summary', CLAUDE)).not.toContain('must');
  });

  it('instructions and prohibitions, English and Chinese, are found; statements and questions are not', () => {
    expect(extractConstraints("Don't touch the tests. Always run lint first. Never push to main. Make sure the API stays the same. Only edit src/. You must keep it small. Please don't add deps. If it fails, don't retry.")).toEqual([
      "Don't touch the tests.", 'Always run lint first.', 'Never push to main.', 'Make sure the API stays the same.', 'Only edit src/.', 'You must keep it small.', "Please don't add deps.", "If it fails, don't retry.",
    ]);
    expect(extractConstraints("I don't know why it fails. It must be the cache. Why doesn't it build? Do we only have one? Only one file is left. I think we must refactor.")).toEqual([]);
    expect(extractConstraints('不要修改数据库结构。请务必保留注释。我不知道为什么。请帮我看看这个文件')).toEqual(['不要修改数据库结构。', '请务必保留注释。']);
  });
});

describe('3. decisions are choices between alternatives, not narration', () => {
  it('on the Claude Code sample: the stated choices only', () => {
    // Before: "I'll create a proper unit test …", "It looks like the function is returning `None` …",
    // "It seems like the code is still falling back to … instead of …" were listed as decisions.
    // The gold's five decisions (lines 39, 170-190, 195, 298, 325) and two switches of approach.
    expect(extractFacts(CLAUDE).decisions).toEqual([
      'I can reuse the existing `.navigation` class styling.',
      'Let me use the test data instead:',
      'I need to pass a Path object instead of a string.',
      'I should just modify that function to accept an optional `combined_transcript_link` parameter instead of creating a separate simplified version.',
      'I should just modify the existing `generate_html` function to accept the combined_transcript_link parameter instead of duplicating all the message processing logic.',
      "We don't need `_generate_html_with_combined_link` at all.",
      'I need to restore the session navigation while keeping the combined transcript link.',
      'Let me check what that component provides and use it instead.',
    ]);
  });

  it('narration and diagnosis are not decisions; "X instead of Y", "chose X over Y", "decided … because" are', () => {
    expect(extractDecisions("I'll examine the pending changes. Let me read the file. Now I'll run the tests. It seems the code falls back to X instead of Y. I'll read the file first because the bug is there.")).toEqual([]);
    expect(extractDecisions("I'll use a Map instead of an object. We chose Postgres over SQLite for the locks. I decided to keep the old API because clients depend on it. Let's go with pnpm rather than npm.")).toHaveLength(4);
  });
});

describe('4. errors: resolved by a later success on the same target; a declined call is not an error', () => {
  const facts = extractFacts(CLAUDE);

  it('a later run of the same command on the same file (relative or absolute path) resolves it', () => {
    const status = (target: string) => facts.errors.filter((error) => error.target === target).map((error) => error.resolved);
    // `ruff check claude_code_log/renderer.py` failed; `ruff check /Users/…/claude_code_log/renderer.py` passed next.
    expect(status('ruff check claude_code_log/renderer.py')).toEqual([true]);
    expect(status('grep -n "def generate_html" claude_code_log/renderer.py')).toEqual([true]);
    expect(status('uv run pytest test/test_template_rendering.py -v')).toEqual([true]);
    // Never run again in any form: still open.
    expect(status('uv run pytest -m unit -v')).toEqual([false]);
  });

  it('the same command modulo whitespace resolves it', () => {
    const entries: Entry[] = [
      { id: 'a', index: 0, parentId: null, role: 'assistant', kind: 'message', sourceType: 'test', line: 1, blocks: [{ type: 'tool_call', callId: 'c1', name: 'Bash', input: { command: 'npm  test\n -- --run' } }] },
      { id: 'b', index: 1, parentId: 'a', role: 'tool', kind: 'message', sourceType: 'test', line: 2, blocks: [{ type: 'tool_result', callId: 'c1', isError: true, content: [{ type: 'text', text: '2 failed' }] }] },
      { id: 'c', index: 2, parentId: 'b', role: 'assistant', kind: 'message', sourceType: 'test', line: 3, blocks: [{ type: 'tool_call', callId: 'c2', name: 'Bash', input: { command: 'npm test -- --run' } }] },
      { id: 'd', index: 3, parentId: 'c', role: 'tool', kind: 'message', sourceType: 'test', line: 4, blocks: [{ type: 'tool_result', callId: 'c2', isError: false, content: [{ type: 'text', text: 'all passed' }] }] },
    ];
    expect(extractFacts(entries).errors.map((error) => error.resolved)).toEqual([true]);
  });

  it('a call the user declined is reported as declined, not as an error, and changed nothing', () => {
    expect(facts.errors.some((error) => /doesn't want to proceed/.test(error.message))).toBe(false);
    expect(facts.declined).toEqual([
      { tool: 'Write', target: '/Users/dain/workspace/claude-code-log/test_combined_link.py' },
      { tool: 'Edit', target: '/Users/dain/workspace/claude-code-log/claude_code_log/renderer.py' },
    ]);
    // The declined Write never created the file.
    expect(facts.files.modified).not.toContain('/Users/dain/workspace/claude-code-log/test_combined_link.py');
    const text = summary('pi-summary', CLAUDE);
    expect(text).not.toContain("doesn't want to proceed");
    expect(text).toContain('- The user declined Write `/Users/dain/workspace/claude-code-log/test_combined_link.py`');
    expect(text).not.toContain('<modified-files>\n/Users/dain/workspace/claude-code-log/test_combined_link.py');
  });
});

describe('5. harness text is never the user\'s goal', () => {
  it('slash commands typed as messages (pi sample) are not requests', () => {
    const requests = extractFacts(PI).requests;
    for (const command of ['/mode', '/them', '/the', '/']) expect(requests).not.toContain(command);
    // Before: "## Goal\n- /mode".
    expect(summary('pi-summary', PI)).toMatch(/^## Goal\n- read packages\/coding-agent\/docs\/theme\.md in full/);
  });

  it('slash-command echoes, the caveat, IDE selections and reminders inside a prompt are stripped (Claude Code sample)', () => {
    const entries = claudeWithHarness(CLAUDE_RAW);
    expect(entries.slice(0, 3).every((entry) => entry.flags?.injected)).toBe(true);
    const facts = extractFacts(entries);
    expect(facts.requests[0]).toBe(FIRST_PROMPT);
    for (const request of facts.requests) expect(request).not.toMatch(/<ide_selection>|<system-reminder>|<command-name>|Caveat:/);
    for (const id of TEMPLATES) expect(summary(id, entries), id).not.toMatch(/ide_selection|system-reminder|command-name|local-command|Caveat: The messages/);
  });

  it('the person\'s words of a message', () => {
    expect(stripHarness('<ide_selection>The user selected …</ide_selection>\nFix this <system-reminder>x</system-reminder>please')).toBe('Fix this please');
    expect(userWords('<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>')).toBeUndefined();
    expect(userWords('/mode')).toBeUndefined();
    expect(userWords('/tmp/a.png why is this red?')).toBe('/tmp/a.png why is this red?');
    expect(stripHarness('<system-reminder>unclosed\nreal words')).toBe('real words');
  });
});
