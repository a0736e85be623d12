// The shared reading rules on the texts real tools and agents write: git's and npm's output,
// Claude Code's rejection and slash-command lines, pi's abort, Codex's rejection.
import { describe, expect, it } from 'vitest';
import { isPastedLine, typedText } from './pasted.ts';
import { readRefusal } from './refusal.ts';
import { asksForWork, builtInAsk, readSlashCommand } from './slash-command.ts';

describe('typedText', () => {
  const gitPaste = "i get this when pushing:\n\nERROR: Permission to dev-acme/lexer.git denied to dev-old.\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n\nswitch the remote to ssh, don't change the global git config";

  it("drops a pasted git error, the paragraph it wraps onto included, and keeps the user's lines", () => {
    const typed = typedText(gitPaste);
    expect(typed).toContain('i get this when pushing:');
    expect(typed).toContain("don't change the global git config");
    expect(typed).not.toContain('fatal');
    expect(typed).not.toContain('access rights');
    expect(typed.split('\n')).toHaveLength(gitPaste.split('\n').length);
  });

  it('drops stack traces, log lines, diffs, JSON, quotes and fenced code', () => {
    for (const line of ['    at Object.<anonymous> (src/a.js:3:9)', 'at run (node:internal/main:12:5)', 'npm error code ELIFECYCLE', 'src/a.ts(3,1): error TS2345: bad', '2025-10-02 10:00:01 INFO started', '$ npm test', '@@ -1,3 +1,4 @@', '"name": "lexer",', '> never push to main', 'TypeError: x is not a function', '➜  repo git:(main) npx tsx cli.ts', '│ Tests 3 passed │', "'/var/folders/49/Screenshot.png'", '+314 - Tips for creating themes', 'Node.js v23.4.0']) {
      expect(isPastedLine(line), line).toBe(true);
    }
    expect(typedText('look:\n```\nalways use tabs\n```\nkeep the API')).toBe('look:\n\n\n\nkeep the API');
  });

  it("keeps the user's own prose, rules and lists", () => {
    for (const text of ["Don't touch the tests.\nAlways run the linter.", '- only edit src/\n- never force-push', 'Error handling must stay in one place.', 'note: use pnpm']) {
      expect(typedText(text)).toBe(text);
    }
  });

  it('a document pasted after output goes on while it is wrapped, a heading or a list', () => {
    const text = 'fatal: bad object HEAD\n\n## Recovery\n\n- run git fsck\n- never delete .git\n\nok now fix it, but keep the history';
    expect(typedText(text).trim()).toBe('ok now fix it, but keep the history');
  });
});

describe('readRefusal', () => {
  const rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";

  it("reads Claude Code's rejection with the reason the user typed", () => {
    expect(readRefusal(`${rejected} To tell you how to proceed, the user said:\nplease add transformer.js too first`)).toEqual({ reason: 'please add transformer.js too first' });
    expect(readRefusal(`Error: ${rejected} To tell you how to proceed, the user said:\nuse tabs`)).toEqual({ reason: 'use tabs' });
    expect(readRefusal(`${rejected} STOP what you are doing and wait for the user to tell you how to proceed.`)).toEqual({});
  });

  it('reads interruptions, denials and other agents\' refusals; an error is none', () => {
    for (const text of ['[Request interrupted by user for tool use]', 'Command aborted', 'exec command rejected by user', 'Permission to use Bash with command rm -rf build has been denied.']) {
      expect(readRefusal(text), text).toEqual({});
    }
    expect(readRefusal('fatal: Could not read from remote repository.')).toBeUndefined();
    expect(readRefusal('Error: ENOENT: no such file or directory')).toBeUndefined();
  });
});

describe('slash commands', () => {
  it("reads Claude Code's command lines and typed commands, not paths", () => {
    expect(readSlashCommand('<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>')).toEqual({ name: '/init', args: '' });
    expect(readSlashCommand('<command-name>/fix-issue</command-name>\n<command-message>fix-issue</command-message>\n<command-args>42</command-args>')).toEqual({ name: '/fix-issue', args: '42' });
    expect(readSlashCommand('/review 118')).toEqual({ name: '/review', args: '118' });
    expect(readSlashCommand('/var/folders/49/Screenshot.png')).toBeUndefined();
    expect(readSlashCommand('fix /init')).toBeUndefined();
  });

  it('work commands ask for work, harness commands do not', () => {
    const ask = (text: string, prompt = false): boolean => asksForWork(readSlashCommand(text)!, prompt);
    expect(ask('/init')).toBe(true);
    expect(builtInAsk(readSlashCommand('/init')!)).toContain('CLAUDE.md');
    expect(ask('/fix-issue 42')).toBe(true);
    expect(ask('/deploy', true)).toBe(true);
    expect(ask('/deploy')).toBe(false);
    for (const text of ['/clear', '/compact keep the errors', '/model opus', '/mode']) expect(ask(text, true), text).toBe(false);
  });
});
