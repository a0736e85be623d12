// A conversation without a title of its own is titled by its first real request (harness text and
// bare command echoes skipped), on the real samples; a title the file gives wins; `cli inspect
// --json` gives the same title.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeEntries } from '../compaction/testing.ts';
import { claudeWithHarness, CLAUDE_SAMPLE, FIRST_PROMPT } from '../summarize/testing.ts';
import { importText } from './run.ts';
import { conversationTitle, firstRequestTitle, REQUEST_TITLE_MAX_CHARS } from './title.ts';

const load = (path: string) => importText(readFileSync(path));

describe('conversationTitle', () => {
  it('takes the first request of a session whose file names no title', () => {
    expect(conversationTitle(load('public/samples/pi/v3-small.jsonl'))).toBe('Read hello.py and summarize what it prints without editing files.');
    expect(conversationTitle(load('public/samples/openai-chat/gpt-4o-airline.json'))).toBe("Hi! I'm looking to book a flight from New York to Seattle on May 20th.");
  });

  it("skips an IDE's opened file and selection before the typed words (real-format Claude Code prompt)", () => {
    expect(conversationTitle(load('src/core/summarize/__fixtures__/ide-context.jsonl'))).toBe('Why is the discount applied before shipping here? Make it apply after shipping.');
  });

  it('skips the caveat, a /clear echo and its output, and the harness tags inside the first prompt', () => {
    const entries = claudeWithHarness(readFileSync(CLAUDE_SAMPLE, 'utf8'));
    const title = firstRequestTitle(entries)!;
    expect(title).toBe('Hey Claude, please have a look at the git diff of claude_code_log/renderer.py…');
    expect(FIRST_PROMPT.startsWith(title.slice(0, -1))).toBe(true);
  });

  it('keeps a title the file gives (a Claude Code summary line)', () => {
    expect(conversationTitle(load(CLAUDE_SAMPLE))).toBe('Centralizing Project Name Logic Across Codebase');
  });

  it('a command with arguments is the request as typed; a bare command, a bare path and an empty message are not', () => {
    expect(firstRequestTitle(makeEntries([{ user: '/model' }, { user: '<command-name>/clear</command-name>\n<command-args></command-args>' }, { user: '   ' }, { user: '/review the parser changes' }]))).toBe('/review the parser changes');
    expect(firstRequestTitle(makeEntries([{ user: '<system-reminder>x</system-reminder>' }, { assistant: 'hello' }]))).toBeUndefined();
  });

  it('is one line cut between words', () => {
    const title = firstRequestTitle(makeEntries([{ user: `Please\nrefactor ${'the parser module '.repeat(10)}` }]))!;
    expect(title.length).toBeLessThanOrEqual(REQUEST_TITLE_MAX_CHARS);
    expect(title).not.toContain('\n');
    expect(title).toMatch(/^Please refactor the parser module .*…$/);
    expect(`${title.slice(0, -1)} `).toBe(`Please refactor ${'the parser module '.repeat(10)}`.slice(0, title.length));
  });
});

describe('cli inspect --json', () => {
  it('gives the title the library shows', () => {
    const report = JSON.parse(execFileSync('node_modules/.bin/tsx', ['src/cli/main.ts', 'inspect', 'src/core/summarize/__fixtures__/ide-context.jsonl', '--json'], { encoding: 'utf8' })) as { title?: string };
    expect(report.title).toBe('Why is the discount applied before shipping here? Make it apply after shipping.');
  });
});
