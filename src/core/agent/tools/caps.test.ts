import { describe, expect, it } from 'vitest';
import type { Folder } from '../types.ts';
import { createFolderTools } from './index.ts';
import { createMemoryFolder, type MemoryNode } from './memory-folder.ts';
import { toolRunner } from './testing.ts';

/** The folder, counting what the tools asked of it. */
function counted(folder: Folder) {
  const calls = { list: 0, read: 0, bytes: 0 };
  const wrapped: Folder = {
    ...folder,
    list: (path) => (calls.list++, folder.list(path)),
    read: async (path, range) => {
      calls.read++;
      const bytes = await folder.read(path, range);
      calls.bytes += bytes.length;
      return bytes;
    },
  };
  return { folder: wrapped, calls };
}

describe('a tree of 100,000 files', () => {
  const files: Record<string, MemoryNode> = {};
  for (let d = 0; d < 100; d++) for (let f = 0; f < 1000; f++) files[`d${String(d).padStart(3, '0')}/f${String(f).padStart(4, '0')}.txt`] = { text: `file ${d}/${f}\n` };
  const tree = createMemoryFolder(files);

  it('glob stops at the walk cap and says so', async () => {
    const { folder, calls } = counted(tree);
    const out = await toolRunner(createFolderTools(folder))('glob', { pattern: '**/*.txt' });
    expect(out.ok).toBe(true);
    expect(out.text.split('\n')[0]).toBe('19,980 files match "**/*.txt" (in the part of the folder walked)');
    expect(out.text).toContain('[Cut: stopped walking the folder after 20,000 entries (the cap); narrow the path or pattern; 20,000 entries were seen.]');
    expect(calls.list).toBeLessThanOrEqual(21);
  });

  it('grep stops at the file cap and reads no more files than it', async () => {
    const { folder, calls } = counted(tree);
    const out = await toolRunner(createFolderTools(folder))('grep', { pattern: 'nothing here' });
    expect(out.text.split('\n')[0]).toBe('0 matches in 0 files for "nothing here" (5,000 files searched)');
    expect(out.text).toContain('[Cut: stopped after searching 5,000 files (the cap); narrow the path or glob.]');
    expect(calls.read).toBe(5000);
  });

  it('a narrower pattern walks only its literal directory', async () => {
    const { folder, calls } = counted(tree);
    const out = await toolRunner(createFolderTools(folder))('glob', { pattern: 'd042/f09*.txt' });
    expect(out.text.split('\n')[0]).toBe('100 files match "d042/f09*.txt"');
    expect(calls.list).toBe(1);
  });
});

describe('grep on big inputs', () => {
  it('searches only the first 1 MiB of a huge file and says so', async () => {
    const line = 'needle in a haystack line\n';
    const folder = createMemoryFolder({ 'huge.log': { text: line.repeat(Math.ceil((3 * 1024 * 1024) / line.length)) } });
    const { folder: seen, calls } = counted(folder);
    const out = await toolRunner(createFolderTools(seen, { limits: { grepMaxMatches: 100_000 } }))('grep', { pattern: 'needle' });
    expect(out.text.split('\n')[0]).toBe('40,329 matches in 1 file for "needle" (1 file searched)');
    expect(out.text).toContain('[1 file larger than 1,048,576 bytes: only the first 1,048,576 bytes of each were searched.]');
    expect(calls.bytes).toBe(1024 * 1024 + 1);
  });

  it('stops counting at 1,000 matches', async () => {
    const folder = createMemoryFolder({ 'many.txt': { text: 'hit\n'.repeat(5000) } });
    const out = await toolRunner(createFolderTools(folder))('grep', { pattern: 'hit' });
    expect(out.text.split('\n')[0]).toBe('1,000 matches in 1 file for "hit" (1 file searched)');
    expect(out.text).toContain('[Cut: stopped counting at 1,000 matches (the cap); narrow the pattern or path.]');
  });

  it('stops after the total byte cap', async () => {
    const files = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}.txt`, { text: 'x'.repeat(4000) }]));
    const { folder, calls } = counted(createMemoryFolder(files));
    const out = await toolRunner(createFolderTools(folder, { limits: { grepMaxBytes: 10_000 } }))('grep', { pattern: 'y' });
    expect(out.text).toContain('[Cut: stopped after searching 10,000 bytes (the cap); narrow the path or glob.]');
    expect(calls.bytes).toBeLessThanOrEqual(10_000 + 3);
  });
});

describe('read on a huge file', () => {
  const big = createMemoryFolder({ 'big.txt': { text: Array.from({ length: 200_000 }, (_, i) => `row ${i + 1}`).join('\n') } });

  it('scans no further than the scan cap', async () => {
    const { folder, calls } = counted(big);
    const run = toolRunner(createFolderTools(folder, { limits: { readScanMaxBytes: 300_000 } }));
    const out = await run('read', { path: 'big.txt', limit: 2 });
    expect(out.text.split('\n')[0]).toBe('big.txt (lines 1-2 of more than 31,110; 2,088,894 bytes)');
    expect(out.text).toContain('[Cut at the limit asked for: the rest of the file (past the 300,000 bytes scanned) not shown; call read with offset 3 to continue.]');
    expect(calls.bytes).toBeLessThanOrEqual(300_000 + 8192);
    const past = await run('read', { path: 'big.txt', offset: 100_000 });
    expect(past.error).toBe('offset 100000 is beyond the first 300,000 bytes that read scans (about line 31,110) of "big.txt" (2,088,894 bytes).');
  });

  it('reads the middle of the file within the default caps', async () => {
    const out = await toolRunner(createFolderTools(big))('read', { path: 'big.txt', offset: 150_000, limit: 3 });
    expect(out.text).toBe('big.txt (lines 150,000-150,002 of 200,000; 2,088,894 bytes)\n150000\trow 150000\n150001\trow 150001\n150002\trow 150002\n[Cut at the limit asked for: lines 150,003-200,000 (49,998 lines) not shown; call read with offset 150003 to continue.]');
  });
});

describe('.gitignore honoured', () => {
  const folder = createMemoryFolder({
    '.gitignore': { text: '# build output\ndist/\n*.log\n!keep.log\n' },
    'src/.gitignore': { text: 'generated/\n' },
    'src/a.ts': { text: 'token\n' },
    'src/generated/g.ts': { text: 'token\n' },
    'dist/out.js': { text: 'token\n' },
    'debug.log': { text: 'token\n' },
    'keep.log': { text: 'token\n' },
    'node_modules/x/index.js': { text: 'token\n' },
  });

  it('hides ignored entries from ls, glob and grep and refuses to read them', async () => {
    const run = toolRunner(createFolderTools(folder, { gitignore: true }));
    expect((await run('ls', {})).text).toBe('./: 4 entries (2 directories, 2 files), 2 hidden by .gitignore\nnode_modules/\nsrc/\n.gitignore  (37 bytes)\nkeep.log  (6 bytes)');
    expect((await run('glob', { pattern: '**/*' })).text).toBe('5 files match "**/*"\n.gitignore\nkeep.log\nnode_modules/x/index.js\nsrc/.gitignore\nsrc/a.ts\n[3 entries hidden by .gitignore.]');
    expect((await run('grep', { pattern: 'token' })).text.split('\n')[0]).toBe('3 matches in 3 files for "token" (5 files searched)');
    expect((await run('read', { path: 'dist/out.js' })).error).toBe('Refused "dist/out.js": it is ignored by .gitignore line 2 ("dist/"), and .gitignore is honoured in this session.');
    expect((await run('read', { path: 'src/generated/g.ts' })).error).toContain('ignored by src/.gitignore line 1 ("generated/")');
    expect((await run('glob', { pattern: 'dist/*.js' })).text).toBe('0 files match "dist/*.js"\n[dist is hidden by .gitignore line 2 ("dist/").]');
  });

  it('shows everything when it is not honoured', async () => {
    const run = toolRunner(createFolderTools(folder));
    expect((await run('glob', { pattern: '**/*' })).text.split('\n')[0]).toBe('8 files match "**/*"');
    expect((await run('read', { path: 'dist/out.js' })).ok).toBe(true);
  });
});

describe('glob depth', () => {
  it('does not walk below the depth a pattern without ** can match', async () => {
    const files: Record<string, MemoryNode> = { 'README.md': { text: '' } };
    for (let d = 0; d < 50; d++) files[`dir${d}/sub/deep.md`] = { text: '' };
    const { folder, calls } = counted(createMemoryFolder(files));
    const out = await toolRunner(createFolderTools(folder))('glob', { pattern: '*.md' });
    expect(out.text).toBe('1 file matches "*.md"\nREADME.md');
    expect(calls.list).toBe(1);
    expect((await toolRunner(createFolderTools(folder))('glob', { pattern: '*/sub/*.md' })).text.split('\n')[0]).toBe('50 files match "*/sub/*.md"');
  });
});

describe('read across chunk boundaries', () => {
  it('gives, at any offset, the lines a plain split gives', async () => {
    const all = Array.from({ length: 40_000 }, (_, i) => `${i + 1} é☕ ${'x'.repeat(i % 61)}`);
    const folder = createMemoryFolder({ 'multi.txt': { text: all.join('\n') } });
    const run = toolRunner(createFolderTools(folder));
    for (const offset of [1, 2, 4_999, 9_000, 9_001, 20_000, 33_333, 39_998, 40_000]) {
      const out = await run('read', { path: 'multi.txt', offset, limit: 3 });
      const expected = all.slice(offset - 1, offset + 2).map((line, i) => `${String(offset + i).padStart(6)}\t${line}`);
      expect(out.text.split('\n').slice(1, 1 + expected.length)).toEqual(expected);
      expect(out.text.split('\n')[0]).toContain(`of 40,000;`);
    }
  });
});
