import { mkdtemp, mkdir, rm, symlink, utimes, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import nodePath from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withMentions } from '../core/agent/mentions.ts';
import { createFolderTools } from '../core/agent/tools/index.ts';
import { toolRunner } from '../core/agent/tools/testing.ts';
import { createNodeFolder } from './node-folder.ts';
import { loadPrompts } from './load.ts';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(nodePath.join(tmpdir(), 'foldlab-node-folder-'));
  root = nodePath.join(base, 'project');
  const put = async (path: string, data: string | Uint8Array) => {
    await mkdir(nodePath.dirname(nodePath.join(root, path)), { recursive: true });
    await writeFile(nodePath.join(root, path), data);
  };
  await put('README.md', '# Project\nRead @src/main.ts first.\n');
  await put('src/main.ts', 'import { helper } from "./lib/helper";\nhelper();\n');
  await put('src/lib/helper.ts', 'export function helper() {\n  return "needle";\n}\n');
  await put('big.txt', Array.from({ length: 1500 }, (_, i) => `row ${i + 1}`).join('\n'));
  await put('image.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]));
  await put('.gitignore', 'build/\n*.secret\n');
  await put('src/.gitignore', 'gen/\n');
  await put('src/gen/out.ts', 'needle\n');
  await put('build/app.js', 'needle\n');
  await put('key.secret', 'needle\n');
  await put('.git/HEAD', 'needle\n');
  await writeFile(nodePath.join(base, 'outside.txt'), 'TOP SECRET needle\n');
  await mkdir(nodePath.join(base, 'outside-dir'));
  await writeFile(nodePath.join(base, 'outside-dir', 'x.txt'), 'outside needle\n');
  await symlink(nodePath.join(base, 'outside.txt'), nodePath.join(root, 'leak.txt'));
  await symlink(nodePath.join(base, 'outside-dir'), nodePath.join(root, 'leakdir'));
  await symlink('src/lib', nodePath.join(root, 'lib-alias'));
  await symlink('../../outside.txt', nodePath.join(root, 'src', 'relative-leak.txt'));
  await symlink('missing-target', nodePath.join(root, 'dangling'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('createNodeFolder', () => {
  it('lists, stats and reads ranges of a real directory', async () => {
    const folder = await createNodeFolder(root);
    expect(folder.name).toBe('project');
    expect(folder.snapshot).toBe(false);
    const names = (await folder.list('src')).map((e) => `${e.name}:${e.kind}`).sort();
    expect(names).toEqual(['.gitignore:file', 'gen:directory', 'lib:directory', 'main.ts:file', 'relative-leak.txt:symlink']);
    expect(await folder.stat('src/main.ts')).toMatchObject({ kind: 'file', size: 49 });
    expect(await folder.stat('leak.txt')).toMatchObject({ kind: 'symlink' });
    expect(await folder.stat('nope')).toBeUndefined();
    expect(new TextDecoder().decode(await folder.read('src/main.ts', { offset: 7, length: 8 }))).toBe('{ helper');
  });

  it('says where a symlink leads only when it stays inside', async () => {
    const folder = await createNodeFolder(root);
    expect(await folder.realPath!('lib-alias/helper.ts')).toBe('src/lib/helper.ts');
    expect(await folder.realPath!('leak.txt')).toBeUndefined();
    expect(await folder.realPath!('leakdir/x.txt')).toBeUndefined();
    expect(await folder.realPath!('dangling')).toBeUndefined();
    expect(await folder.realPath!('')).toBe('');
  });

  it('refuses to read through a symlink out of the root even when asked directly', async () => {
    const folder = await createNodeFolder(root);
    await expect(folder.read('leak.txt')).rejects.toThrow('Refused "leak.txt": it leads outside the folder.');
    await expect(folder.list('leakdir')).rejects.toThrow(/leads outside the folder/);
    await expect(folder.read('../outside.txt')).rejects.toThrow(/leads outside the folder/);
    await expect(folder.read('src/./main.ts')).rejects.toThrow(/not a normalized path/);
    expect(await folder.stat('leakdir/x.txt')).toBeUndefined();
  });

  it('refuses a path that is not a directory', async () => {
    await expect(createNodeFolder(nodePath.join(root, 'README.md'))).rejects.toThrow(/is not a directory/);
    await expect(createNodeFolder(nodePath.join(base, 'nope'))).rejects.toThrow(/Cannot open the folder/);
  });
});

describe('the folder tools over a real directory', () => {
  it('refuses symlinks out of the root, "..", and absolute paths', async () => {
    const run = toolRunner(createFolderTools(await createNodeFolder(root)));
    expect((await run('read', { path: 'leak.txt' })).error).toBe('Refused "leak.txt": it is a symlink that leads outside the folder (or cannot be resolved).');
    expect((await run('read', { path: 'src/relative-leak.txt' })).error).toMatch(/symlink that leads outside/);
    expect((await run('read', { path: 'leakdir/x.txt' })).error).toBe('Refused "leakdir/x.txt": "leakdir" is a symlink that leads outside the folder (or cannot be resolved).');
    expect((await run('ls', { path: 'leakdir' })).ok).toBe(false);
    expect((await run('read', { path: '../outside.txt' })).error).toMatch(/"\.\." leads outside the folder/);
    expect((await run('read', { path: 'src/../../outside.txt' })).error).toMatch(/"\.\." leads outside the folder/);
    expect((await run('read', { path: nodePath.join(base, 'outside.txt') })).error).toMatch(/absolute paths are not allowed/);
    expect((await run('read', { path: 'dangling' })).error).toMatch(/symlink that leads outside the folder \(or cannot be resolved\)/);
    const grep = await run('grep', { pattern: 'SECRET|outside needle' });
    expect(grep.text.split('\n')[0]).toMatch(/^0 matches in 0 files/);
  });

  it('follows a symlink that stays inside', async () => {
    const run = toolRunner(createFolderTools(await createNodeFolder(root)));
    expect((await run('read', { path: 'lib-alias/helper.ts' })).text).toContain('     2\t  return "needle";');
  });

  it('describes a binary file instead of dumping it', async () => {
    const run = toolRunner(createFolderTools(await createNodeFolder(root)));
    expect((await run('read', { path: 'image.png' })).text).toMatch(/^image.png: binary file \(PNG image\), 14 bytes; modified .*; a NUL byte at offset 8/);
    expect((await run('stat', { path: 'image.png' })).text).toMatch(/^image.png: file, 14 bytes, binary \(PNG image\), modified /);
  });

  it('honours nested .gitignore files and always skips .git', async () => {
    const run = toolRunner(createFolderTools(await createNodeFolder(root), { gitignore: true }));
    const grep = await run('grep', { pattern: 'needle' });
    expect(grep.text).toMatch(/^1 match in 1 file for "needle"/);
    expect(grep.text).toContain('src/lib/helper.ts:2:   return "needle";');
    expect(grep.text).toContain('[3 entries hidden by .gitignore.]');
    expect((await run('read', { path: 'key.secret' })).error).toContain('ignored by .gitignore line 2 ("*.secret")');
    expect((await run('read', { path: 'src/gen/out.ts' })).error).toContain('ignored by src/.gitignore line 1 ("gen/")');
    const all = toolRunner(createFolderTools(await createNodeFolder(root)));
    expect((await all('grep', { pattern: 'needle' })).text).toMatch(/^4 matches in 4 files/);
  });

  it('reads with offset and limit, cuts at 500 lines, and caps grep', async () => {
    const run = toolRunner(createFolderTools(await createNodeFolder(root), { limits: { grepMaxFiles: 2 } }));
    const read = await run('read', { path: 'big.txt' });
    expect(read.text.split('\n')).toHaveLength(502);
    expect(read.text).toContain('[Cut at the 500-line cap: lines 501-1,500 (1,000 lines) not shown; call read with offset 501 to continue.]');
    expect((await run('read', { path: 'big.txt', offset: 1000, limit: 2 })).text.split('\n').slice(1, 3)).toEqual(['  1000\trow 1000', '  1001\trow 1001']);
    expect((await run('grep', { pattern: 'row' })).text).toContain('[Cut: stopped after searching 2 files (the cap); narrow the path or glob.]');
  });

  it('notes an outside edit on the next read (L9)', async () => {
    const run = toolRunner(createFolderTools(await createNodeFolder(root)));
    const file = nodePath.join(root, 'README.md');
    await utimes(file, new Date(1_700_000_000_000), new Date(1_700_000_000_000));
    expect((await run('read', { path: 'README.md' })).text).not.toContain('modified externally');
    await writeFile(file, `${await readFile(file, 'utf8')}More.\n`);
    await utimes(file, new Date(1_700_000_100_000), new Date(1_700_000_100_000));
    expect((await run('read', { path: 'README.md' })).text).toContain('Note: README.md was modified externally.');
  });

  it('expands @file mentions from the folder', async () => {
    const text = await withMentions('Explain @src/main.ts', await createNodeFolder(root), { prompts: loadPrompts(), mode: 'paste' });
    expect(text).toContain('     2\thelper();');
  });
});
