import { describe, expect, it } from 'vitest';
import { GitignoreMatcher, lastMatch, parseGitignore } from './gitignore.ts';
import { createMemoryFolder } from './memory-folder.ts';

/** Whether `path` is ignored by one `.gitignore` text at the root. */
function ignored(text: string, path: string, isDir = false): boolean {
  const rule = lastMatch(parseGitignore(text), path, isDir);
  return rule !== undefined && !rule.negate;
}

describe('parseGitignore', () => {
  it('skips blank lines and comments, keeps escaped # and !, and records line numbers', () => {
    const rules = parseGitignore('# a comment\n\n*.log\n\\#notes\n\\!bang\n   \n/build/\n');
    expect(rules.map((r) => [r.text, r.line])).toEqual([['*.log', 3], ['\\#notes', 4], ['\\!bang', 5], ['/build/', 7]]);
    expect(ignored('\\#notes', '#notes')).toBe(true);
    expect(ignored('\\!bang', '!bang')).toBe(true);
  });

  it('matches a name without a slash at any depth', () => {
    expect(ignored('*.log', 'x.log')).toBe(true);
    expect(ignored('*.log', 'a/b/x.log')).toBe(true);
    expect(ignored('*.log', 'a/b/x.logs')).toBe(false);
    expect(ignored('node_modules', 'pkg/node_modules', true)).toBe(true);
  });

  it('anchors a pattern with a leading or middle slash to its directory', () => {
    expect(ignored('/todo.txt', 'todo.txt')).toBe(true);
    expect(ignored('/todo.txt', 'a/todo.txt')).toBe(false);
    expect(ignored('doc/*.txt', 'doc/notes.txt')).toBe(true);
    expect(ignored('doc/*.txt', 'doc/sub/notes.txt')).toBe(false);
    expect(ignored('doc/*.txt', 'x/doc/notes.txt')).toBe(false);
  });

  it('applies a trailing slash to directories only', () => {
    expect(ignored('build/', 'build', true)).toBe(true);
    expect(ignored('build/', 'build', false)).toBe(false);
    expect(ignored('build/', 'src/build', true)).toBe(true);
  });

  it('reads ** as any number of directories', () => {
    expect(ignored('**/logs', 'logs', true)).toBe(true);
    expect(ignored('**/logs', 'a/b/logs', true)).toBe(true);
    expect(ignored('a/**/b', 'a/b')).toBe(true);
    expect(ignored('a/**/b', 'a/x/y/b')).toBe(true);
    expect(ignored('abc/**', 'abc/x/y')).toBe(true);
    expect(ignored('abc/**', 'abcd/x')).toBe(false);
  });

  it('lets a later negation re-include, and a later rule win again', () => {
    expect(ignored('*.log\n!keep.log', 'keep.log')).toBe(false);
    expect(ignored('*.log\n!keep.log', 'drop.log')).toBe(true);
    expect(ignored('*.log\n!keep.log\nkeep.log', 'keep.log')).toBe(true);
  });

  it('supports ? and character classes', () => {
    expect(ignored('file?.txt', 'file1.txt')).toBe(true);
    expect(ignored('file?.txt', 'file10.txt')).toBe(false);
    expect(ignored('*.[oa]', 'x.o')).toBe(true);
    expect(ignored('*.[!oa]', 'x.o')).toBe(false);
    expect(ignored('*.[!oa]', 'x.c')).toBe(true);
  });
});

describe('GitignoreMatcher over nested .gitignore files', () => {
  const folder = createMemoryFolder({
    '.gitignore': { text: '*.log\nbuild/\n/secret.txt\n' },
    'src/.gitignore': { text: '!important.log\ngenerated/\n' },
    'src/important.log': { text: '' },
    'src/debug.log': { text: '' },
    'src/generated/x.ts': { text: '' },
    'src/secret.txt': { text: '' },
    'secret.txt': { text: '' },
    'build/out.js': { text: '' },
    'docs/generated/y.md': { text: '' },
  });
  const matcher = new GitignoreMatcher(folder);

  it('lets a nested file override its parent below its directory', async () => {
    expect(await matcher.ignoredPath('src/important.log', false)).toBeUndefined();
    expect((await matcher.ignoredPath('src/debug.log', false))?.source).toBe('.gitignore');
  });

  it('applies a nested file only below its own directory', async () => {
    expect((await matcher.ignoredPath('src/generated/x.ts', false))?.source).toBe('src/.gitignore');
    expect(await matcher.ignoredPath('docs/generated/y.md', false)).toBeUndefined();
  });

  it('anchors the root file\'s /secret.txt to the root', async () => {
    expect((await matcher.ignoredPath('secret.txt', false))?.line).toBe(3);
    expect(await matcher.ignoredPath('src/secret.txt', false)).toBeUndefined();
  });

  it('ignores everything inside an ignored directory', async () => {
    const rule = await matcher.ignoredPath('build/out.js', false);
    expect(rule).toMatchObject({ source: '.gitignore', line: 2, text: 'build/' });
  });
});
