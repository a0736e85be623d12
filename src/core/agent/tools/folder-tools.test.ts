import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../../test-fixtures.ts';
import { describeTool } from '../tool-prompts.ts';
import { createFolderTools } from './index.ts';
import { createMemoryFolder } from './memory-folder.ts';
import { toolRunner } from './testing.ts';

const PROMPTS = loadPrompts();

const lines = (n: number, text = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => text(i + 1)).join('\n');

function fixture() {
  return createMemoryFolder({
    'README.md': { text: '# Demo\nSee src.\n', mtimeMs: Date.UTC(2026, 0, 2) },
    'src/main.ts': { text: 'import { util } from "./util";\nutil();\n' },
    'src/util.ts': { text: 'export function util() {\n  return 42; // TODO tidy\n}\n' },
    'src/lib/deep.ts': { text: 'export const deep = "TODO";\n' },
    'docs/guide.md': { text: 'TODO: write\n' },
    'big.txt': { text: lines(1200) },
    'logo.png': { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) },
    'latin1.txt': { bytes: new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) },
    'utf8.txt': { text: 'café ☕\n' },
    '.git/config': { text: '[core]\nTODO\n' },
    'empty.txt': { text: '' },
  });
}

describe('ls', () => {
  it('lists directories first, then files with sizes, and counts them', async () => {
    const run = toolRunner(createFolderTools(fixture()));
    const out = await run('ls', { path: 'src' });
    expect(out).toEqual({ ok: true, path: 'src', text: 'src/: 3 entries (1 directory, 2 files)\nlib/\nmain.ts  (39 bytes)\nutil.ts  (53 bytes)' });
  });

  it('shows the first 10 entries and says how to see the rest (§A3 "first N")', async () => {
    const files = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`d/f${String(i).padStart(2, '0')}.txt`, { text: 'x' }]));
    const run = toolRunner(createFolderTools(createMemoryFolder(files)));
    const first = await run('ls', { path: 'd' });
    expect(first.text.split('\n')).toHaveLength(1 + 10 + 1);
    expect(first.text).toContain('d/: 25 entries (0 directories, 25 files)');
    expect(first.text).toContain('[Cut: showing entries 1-10 of 25; call ls with offset 10 for the next 10.]');
    const last = await run('ls', { path: 'd', offset: 20 });
    expect(last.text).toContain('f20.txt');
    expect(last.text).toContain('f24.txt');
    expect(last.text).not.toContain('[Cut');
  });

  it('refuses a file', async () => {
    const out = await toolRunner(createFolderTools(fixture()))('ls', { path: 'README.md' });
    expect(out).toMatchObject({ ok: false, error: '"README.md" is a file, not a directory; use read or stat.' });
  });
});

describe('glob', () => {
  it('matches paths in order and skips .git', async () => {
    const run = toolRunner(createFolderTools(fixture()));
    const out = await run('glob', { pattern: '**/*.ts' });
    expect(out.text).toBe('3 files match "**/*.ts"\nsrc/lib/deep.ts\nsrc/main.ts\nsrc/util.ts');
    expect((await run('glob', { pattern: '*.md' })).text).toBe('1 file matches "*.md"\nREADME.md');
    expect((await run('glob', { pattern: '**/config' })).text).toMatch(/^0 files match/);
  });

  it('searches below a directory and refuses a pattern that climbs out', async () => {
    const run = toolRunner(createFolderTools(fixture()));
    expect((await run('glob', { pattern: '*.ts', path: 'src' })).text).toBe('2 files match "*.ts" under src\nsrc/main.ts\nsrc/util.ts');
    expect(await run('glob', { pattern: '../*.md', path: 'src' })).toMatchObject({ ok: false, error: 'Refused "../*.md": the pattern leads outside src.' });
    expect(await run('glob', { pattern: '../../*' })).toMatchObject({ ok: false, error: expect.stringContaining('leads outside the folder') });
  });
});

describe('grep', () => {
  it('counts matches and files and shows file:line: text', async () => {
    const out = await toolRunner(createFolderTools(fixture()))('grep', { pattern: 'TODO' });
    expect(out.text).toBe(
      '3 matches in 3 files for "TODO" (10 files searched)\n' +
        'docs/guide.md:1: TODO: write\nsrc/lib/deep.ts:1: export const deep = "TODO";\nsrc/util.ts:2:   return 42; // TODO tidy\n' +
        '[2 binary files skipped.]',
    );
  });

  it('shows at most 5 matching lines (§A3) and pages with offset', async () => {
    const run = toolRunner(createFolderTools(fixture()));
    const out = await run('grep', { pattern: 'line 1\\d\\b', path: 'big.txt' });
    expect(out.text.split('\n').slice(0, 7)).toEqual([
      '10 matches in 1 file for "line 1\\d\\b" in big.txt (1 file searched)',
      'big.txt:10: line 10', 'big.txt:11: line 11', 'big.txt:12: line 12', 'big.txt:13: line 13', 'big.txt:14: line 14',
      '[Cut: showing matches 1-5 of 10; call grep with offset 5 for the next 5.]',
    ]);
    const next = await run('grep', { pattern: 'line 1\\d\\b', path: 'big.txt', offset: 5 });
    expect(next.text).toContain('big.txt:19: line 19');
    expect(next.text).not.toContain('[Cut');
  });

  it('filters by glob, ignores case, and searches literally', async () => {
    const run = toolRunner(createFolderTools(fixture()));
    expect((await run('grep', { pattern: 'todo', ignoreCase: true, glob: '*.md' })).text).toMatch(/^1 match in 1 file .*\ndocs\/guide.md:1: TODO: write$/);
    expect((await run('grep', { pattern: '42; //', literal: true })).text).toContain('src/util.ts:2:');
    expect((await run('grep', { pattern: 'util(', literal: true, glob: 'src/*.ts' })).text).toMatch(/^2 matches in 2 files .*\nsrc\/main.ts:2: util\(\);\nsrc\/util.ts:1: export function util\(\) \{$/);
  });

  it('explains an invalid regular expression', async () => {
    const out = await toolRunner(createFolderTools(fixture()))('grep', { pattern: 'util(' });
    expect(out.ok).toBe(false);
    expect(out.error).toMatch(/^grep: "util\(" is not a valid regular expression .*set literal to true/);
  });
});

describe('read', () => {
  it('returns numbered lines with the file facts', async () => {
    const out = await toolRunner(createFolderTools(fixture()))('read', { path: 'README.md' });
    expect(out).toEqual({ ok: true, path: 'README.md', text: 'README.md (lines 1-2 of 2; 16 bytes; modified 2026-01-02T00:00:00.000Z)\n     1\t# Demo\n     2\tSee src.' });
  });

  it('cuts at the seed\'s 500 lines and says how to continue', async () => {
    const run = toolRunner(createFolderTools(fixture()));
    const out = await run('read', { path: 'big.txt' });
    const shown = out.text.split('\n');
    expect(shown[0]).toBe('big.txt (lines 1-500 of 1,200; 10,892 bytes)');
    expect(shown).toHaveLength(1 + 500 + 1);
    expect(shown[500]).toBe('   500\tline 500');
    expect(shown[501]).toBe('[Cut at the 500-line cap: lines 501-1,200 (700 lines) not shown; call read with offset 501 to continue.]');
  });

  it('reads a range with offset and limit (lines, 1-based)', async () => {
    const run = toolRunner(createFolderTools(fixture()));
    const out = await run('read', { path: 'big.txt', offset: 1199, limit: 5 });
    expect(out.text).toBe('big.txt (lines 1,199-1,200 of 1,200; 10,892 bytes)\n  1199\tline 1199\n  1200\tline 1200');
    const middle = await run('read', { path: 'big.txt', offset: 10, limit: 2 });
    expect(middle.text).toContain('    10\tline 10\n    11\tline 11\n[Cut at the limit asked for: lines 12-1,200 (1,189 lines) not shown; call read with offset 12 to continue.]');
    expect(await run('read', { path: 'big.txt', offset: 1201 })).toMatchObject({ ok: false, error: 'offset 1201 is past the end of "big.txt", which has 1,200 lines.' });
    expect(await run('read', { path: 'big.txt', limit: 0 })).toMatchObject({ ok: false, error: 'read: "limit" must be a whole number of at least 1, got number 0.' });
  });

  it('does not dump binary files: NUL bytes or invalid UTF-8', async () => {
    const run = toolRunner(createFolderTools(fixture()));
    expect((await run('read', { path: 'logo.png' })).text).toBe('logo.png: binary file (PNG image), 12 bytes; a NUL byte at offset 8 in its first bytes, so its contents are not shown.');
    expect((await run('read', { path: 'latin1.txt' })).text).toBe('latin1.txt: binary file (binary data (.txt)), 5 bytes; bytes that are not valid UTF-8 in its first bytes, so its contents are not shown.');
    expect((await run('read', { path: 'utf8.txt' })).text).toContain('     1\tcafé ☕');
  });

  it('cuts very long lines and stops at the character cap', async () => {
    const folder = createMemoryFolder({ 'min.js': { text: `${'x'.repeat(5000)}\n${lines(50, () => 'y'.repeat(1900))}` } });
    const out = await toolRunner(createFolderTools(folder, { limits: { outputMaxChars: 20_000 } }))('read', { path: 'min.js' });
    const shown = out.text.split('\n');
    expect(shown[1]).toBe(`     1\t${'x'.repeat(2000)}… [3,000 more characters on this line]`);
    expect(out.text.length).toBeLessThan(20_000 + 300);
    expect(shown.at(-1)).toMatch(/^\[Cut at the 20,000-character cap: lines 11-51 \(41 lines\) not shown; call read with offset 11 to continue\.\]$/);
  });

  it('says so for an empty file and a directory', async () => {
    const run = toolRunner(createFolderTools(fixture()));
    expect((await run('read', { path: 'empty.txt' })).text).toBe('empty.txt: empty file (0 bytes).');
    expect(await run('read', { path: 'src' })).toMatchObject({ ok: false, error: '"src" is a directory; use ls to list it.' });
  });
});

describe('stat', () => {
  it('describes files and directories without their contents', async () => {
    const run = toolRunner(createFolderTools(fixture()));
    expect((await run('stat', { path: 'README.md' })).text).toBe('README.md: file, 16 bytes, text, modified 2026-01-02T00:00:00.000Z');
    expect((await run('stat', { path: 'logo.png' })).text).toBe('logo.png: file, 12 bytes, binary (PNG image), modification time unknown');
    expect((await run('stat', { path: '.' })).text).toBe('.: directory, 9 entries, modification time unknown');
  });
});

describe('confinement', () => {
  const folder = createMemoryFolder({
    'src/a.ts': { text: 'a' },
    'alias': { link: 'src' },
    'escape': { link: '../outside' },
    'etc': { link: '/etc' },
  });
  const run = toolRunner(createFolderTools(folder));

  it.each([
    ['read', { path: '../secret' }, /"\.\." leads outside the folder/],
    ['read', { path: 'src/../../secret' }, /"\.\." leads outside the folder/],
    ['read', { path: '/etc/passwd' }, /absolute paths are not allowed/],
    ['ls', { path: 'C:\\Users' }, /absolute paths are not allowed/],
    ['read', { path: 'escape/x' }, /"escape" is a symlink that leads outside the folder/],
    ['ls', { path: 'etc' }, /it is a symlink that leads outside the folder/],
    ['grep', { pattern: 'x', path: 'escape' }, /symlink that leads outside/],
    ['glob', { pattern: '*', path: '..' }, /leads outside the folder/],
    ['stat', { path: '~/.ssh' }, /absolute paths are not allowed/],
  ])('%s %j is refused with a reason', async (name, input, reason) => {
    const out = await run(name, input);
    expect(out.ok).toBe(false);
    expect(out.error).toMatch(reason);
    expect(out.text).toBe(`Error: ${out.error}`);
  });

  it('follows a symlink that stays inside', async () => {
    expect((await run('read', { path: 'alias/a.ts' })).text).toContain('     1\ta');
    expect((await run('stat', { path: 'alias' })).text).toBe('alias (symlink to src): directory, 1 entries, modification time unknown');
  });

  it('does not follow symlinks while walking', async () => {
    const out = await run('glob', { pattern: '**/*.ts' });
    expect(out.text).toBe('1 file matches "**/*.ts"\nsrc/a.ts\n[3 symlinks not followed.]');
  });

  it('answers bad input with what was expected', async () => {
    expect(await run('read', 'a.ts')).toMatchObject({ ok: false, error: 'read: expected a JSON object of arguments, got the text "a.ts".' });
    expect(await run('read', {})).toMatchObject({ ok: false, error: 'read: the argument "path" (a string) is required.' });
    expect(await run('grep', { pattern: 3 })).toMatchObject({ ok: false, error: 'grep: "pattern" must be a string, got number 3.' });
  });

  it('stops when the turn is stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = await toolRunner(createFolderTools(folder), controller.signal)('grep', { pattern: 'a' });
    expect(out).toMatchObject({ ok: false, error: 'Stopped by the user before the tool finished.' });
  });
});

describe('specs', () => {
  it('names the five tools with an object JSON Schema each, described from their prompt files', () => {
    const tools = createFolderTools(fixture());
    expect(tools.map((t) => t.spec.name)).toEqual(['ls', 'glob', 'grep', 'read', 'stat']);
    for (const tool of tools) {
      const spec = describeTool(tool.spec, PROMPTS);
      expect(spec.description.length).toBeGreaterThan(40);
      expect(spec.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      for (const argument of Object.values(spec.parameters.properties as Record<string, { description: string }>)) expect(argument.description.length).toBeGreaterThan(10);
    }
  });

  it('fills the caps the options set into the descriptions', () => {
    const [ls, , grep, read] = createFolderTools(fixture(), { limits: { listMaxItems: 7, grepMaxLines: 3, readMaxLines: 1_200 } }).map((tool) => describeTool(tool.spec, PROMPTS));
    expect(ls!.description).toContain('up to 7 entries per call');
    expect(grep!.description).toContain('up to 3 matching lines per call');
    expect(read!.description).toContain('at most 1,200 lines per call');
    expect(read!.parameters).toMatchObject({ properties: { limit: { maximum: 1_200, description: 'Number of lines to return. Default and maximum 1,200.' } } });
  });
});
