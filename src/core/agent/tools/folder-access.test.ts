import { describe, expect, it } from 'vitest';
import { createFolderTools } from './index.ts';
import { toolRunner } from './testing.ts';
import { createFileListFolder, createHandleFolder, type DirectoryHandleLike, type FileHandleLike, type FileLike } from './folder-access.ts';

/** The browser's own handle and File types fit the folder's structural types. */
export function typesFit(handle: FileSystemDirectoryHandle, files: FileList): Array<DirectoryHandleLike | ArrayLike<FileLike>> {
  return [handle, files];
}

type Tree = { [name: string]: Tree | File };

/** A small FileSystemDirectoryHandle over a tree of real File objects; `tree` can change under it. */
class FakeDirectory implements DirectoryHandleLike {
  readonly kind = 'directory' as const;
  constructor(readonly name: string, private readonly tree: Tree) {}

  async *values(): AsyncIterable<FileHandleLike | DirectoryHandleLike> {
    for (const [name, node] of Object.entries(this.tree)) yield node instanceof File ? this.file(name, node) : new FakeDirectory(name, node);
  }

  private file(name: string, node: File): FileHandleLike {
    return { kind: 'file', name, getFile: async () => (this.tree[name] instanceof File ? (this.tree[name] as File) : node) };
  }

  async getDirectoryHandle(name: string): Promise<DirectoryHandleLike> {
    const node = this.tree[name];
    if (node === undefined) throw new DOMException(`${name} not found`, 'NotFoundError');
    if (node instanceof File) throw new DOMException(`${name} is a file`, 'TypeMismatchError');
    return new FakeDirectory(name, node);
  }

  async getFileHandle(name: string): Promise<FileHandleLike> {
    const node = this.tree[name];
    if (node === undefined) throw new DOMException(`${name} not found`, 'NotFoundError');
    if (!(node instanceof File)) throw new DOMException(`${name} is a directory`, 'TypeMismatchError');
    return this.file(name, node);
  }
}

const file = (name: string, body: string | Uint8Array<ArrayBuffer>, lastModified = 1_700_000_000_000) => new File([body], name, { lastModified });

/** A File as a directory `<input>` gives it, with its `webkitRelativePath`. */
function picked(path: string, body: string | Uint8Array<ArrayBuffer>, lastModified?: number): File {
  const f = file(path.split('/').pop()!, body, lastModified);
  Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
}

describe('createHandleFolder (File System Access)', () => {
  const tree: Tree = {
    'README.md': file('README.md', '# Hello\n'),
    src: { 'main.ts': file('main.ts', 'console.log("hi");\n'), lib: { 'a.ts': file('a.ts', 'export {};\n') } },
    'logo.png': file('logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0])),
  };
  const folder = createHandleFolder(new FakeDirectory('project', tree));

  it('lists, stats and reads ranges of the live folder', async () => {
    expect(folder).toMatchObject({ name: 'project', snapshot: false });
    expect(folder.realPath).toBeUndefined();
    expect(await folder.list('')).toEqual([
      { name: 'README.md', kind: 'file' },
      { name: 'src', kind: 'directory' },
      { name: 'logo.png', kind: 'file' },
    ]);
    expect(await folder.stat('src/main.ts')).toEqual({ kind: 'file', size: 19, mtimeMs: 1_700_000_000_000 });
    expect(await folder.stat('src/lib')).toEqual({ kind: 'directory', size: 0, mtimeMs: 0 });
    expect(await folder.stat('')).toEqual({ kind: 'directory', size: 0, mtimeMs: 0 });
    expect(await folder.stat('src/nope.ts')).toBeUndefined();
    expect(await folder.stat('README.md/x')).toBeUndefined();
    expect(new TextDecoder().decode(await folder.read('src/main.ts', { offset: 8, length: 3 }))).toBe('log');
  });

  it('serves the tools, and sees an edit with its new lastModified (L9)', async () => {
    const run = toolRunner(createFolderTools(folder));
    expect((await run('glob', { pattern: '**/*.ts' })).text).toBe('2 files match "**/*.ts"\nsrc/lib/a.ts\nsrc/main.ts');
    expect((await run('read', { path: 'logo.png' })).text).toMatch(/^logo.png: binary file \(PNG image\), 5 bytes/);
    expect((await run('read', { path: 'README.md' })).text).toContain('     1\t# Hello');
    tree['README.md'] = file('README.md', '# Hello again\n', 1_700_000_500_000);
    const again = await run('read', { path: 'README.md' });
    expect(again.text).toContain('Note: README.md was modified externally.');
    expect(again.text).toContain('     1\t# Hello again');
    expect((await run('read', { path: '../other/x' })).error).toMatch(/leads outside the folder/);
  });
});

describe('createFileListFolder (a directory <input> snapshot)', () => {
  const files = [
    picked('project/README.md', '# Snapshot\n', 1_600_000_000_000),
    picked('project/src/main.ts', 'main();\n'),
    picked('project/src/deep/x.ts', 'x\n'),
    picked('project/.gitignore', 'dist/\n'),
    picked('project/dist/bundle.js', 'bundle\n'),
  ];
  const folder = createFileListFolder(files);

  it('drops the folder name from webkitRelativePath and is a snapshot', async () => {
    expect(folder).toMatchObject({ name: 'project', snapshot: true });
    expect((await folder.list('')).map((e) => `${e.name}:${e.kind}`).sort()).toEqual(['.gitignore:file', 'README.md:file', 'dist:directory', 'src:directory']);
    expect(await folder.list('src')).toEqual([
      { name: 'main.ts', kind: 'file' },
      { name: 'deep', kind: 'directory' },
    ]);
    expect(await folder.stat('README.md')).toEqual({ kind: 'file', size: 11, mtimeMs: 1_600_000_000_000 });
    expect(await folder.stat('src/deep')).toEqual({ kind: 'directory', size: 0, mtimeMs: 0 });
    expect(await folder.stat('project/README.md')).toBeUndefined();
    expect(new TextDecoder().decode(await folder.read('src/main.ts', { length: 4 }))).toBe('main');
    await expect(folder.read('nope.ts')).rejects.toThrow('No such file in the picked folder: "nope.ts".');
  });

  it('serves the tools, .gitignore included', async () => {
    const run = toolRunner(createFolderTools(folder, { gitignore: true }));
    expect((await run('grep', { pattern: 'main|bundle' })).text).toMatch(/^1 match in 1 file .*\nsrc\/main.ts:1: main\(\);\n\[1 entry hidden by \.gitignore\.\]$/);
    expect((await run('ls', { path: 'src' })).text).toBe('src/: 2 entries (1 directory, 1 file)\ndeep/\nmain.ts  (8 bytes)');
  });

  it('puts files without a relative path at the root, and an empty pick is an empty folder', async () => {
    const loose = createFileListFolder([file('notes.txt', 'n')]);
    expect(loose.name).toBe('folder');
    expect(await loose.list('')).toEqual([{ name: 'notes.txt', kind: 'file' }]);
    expect(await createFileListFolder([]).list('')).toEqual([]);
  });
});
