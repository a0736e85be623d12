/**
 * The folder a live session reads in the browser, read-only, as the agent's `Folder`:
 * - `createHandleFolder`: the live folder through the File System Access API (a
 *   `FileSystemDirectoryHandle` from `showDirectoryPicker`); every call reads the disk as it is
 *   now, modification times from `File.lastModified`.
 * - `createFileListFolder`: a copy taken at pick time from a directory `<input webkitdirectory>`
 *   (`snapshot: true`); paths from `webkitRelativePath`, whose first segment is the folder's name.
 * Neither writes; the API offers no symlinks to follow, so neither has `realPath`.
 */
import type { Folder, FolderEntry, FolderStat } from '../types.ts';
import { normalizeToolPath } from './paths.ts';

/** What the folder needs of a `File` (a real one fits). */
export interface FileLike {
  name: string;
  size: number;
  lastModified: number;
  webkitRelativePath?: string;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** What the folder needs of a `FileSystemFileHandle`. */
export interface FileHandleLike {
  kind: 'file';
  name: string;
  getFile(): Promise<FileLike>;
}

/** What the folder needs of a `FileSystemDirectoryHandle` (a real one fits). */
export interface DirectoryHandleLike {
  kind: 'directory';
  name: string;
  values(): AsyncIterable<FileHandleLike | DirectoryHandleLike>;
  getDirectoryHandle(name: string): Promise<DirectoryHandleLike>;
  getFileHandle(name: string): Promise<FileHandleLike>;
}

function segments(path: string): string[] {
  return path === '' ? [] : path.split('/');
}

/** `NotFoundError` / `TypeMismatchError` (a file where a directory was asked, or the reverse). */
function isMissing(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'NotFoundError' || name === 'TypeMismatchError';
}

async function bytesOf(file: FileLike, range: { offset?: number; length?: number } = {}): Promise<Uint8Array> {
  const start = Math.max(0, Math.min(range.offset ?? 0, file.size));
  const end = range.length === undefined ? file.size : Math.min(file.size, start + range.length);
  return new Uint8Array(await file.slice(start, end).arrayBuffer());
}

/** The live folder behind a directory handle (permission to read must already be granted). */
export function createHandleFolder(root: DirectoryHandleLike): Folder {
  const directory = async (path: string): Promise<DirectoryHandleLike> => {
    let dir = root;
    for (const name of segments(normalizeToolPath(path))) dir = await dir.getDirectoryHandle(name);
    return dir;
  };
  const file = async (path: string): Promise<FileLike> => {
    const parts = segments(normalizeToolPath(path));
    const name = parts.pop();
    if (name === undefined) throw new Error('The folder root is a directory, not a file.');
    return (await (await directory(parts.join('/'))).getFileHandle(name)).getFile();
  };
  return {
    name: root.name,
    snapshot: false,
    async list(path) {
      const out: FolderEntry[] = [];
      for await (const handle of (await directory(path)).values()) out.push({ name: handle.name, kind: handle.kind === 'directory' ? 'directory' : 'file' });
      return out;
    },
    async stat(path): Promise<FolderStat | undefined> {
      if (normalizeToolPath(path) === '') return { kind: 'directory', size: 0, mtimeMs: 0 };
      try {
        const found = await file(path);
        return { kind: 'file', size: found.size, mtimeMs: found.lastModified };
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      try {
        await directory(path);
        return { kind: 'directory', size: 0, mtimeMs: 0 };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async read(path, range) {
      return bytesOf(await file(path), range);
    },
  };
}

/**
 * A snapshot of the files a directory `<input>` gave (`input.files`). Their `webkitRelativePath`
 * starts with the picked folder's name, which is dropped; a file without one sits at the root.
 */
export function createFileListFolder(files: ArrayLike<FileLike> | Iterable<FileLike>): Folder {
  const byPath = new Map<string, FileLike>();
  const dirs = new Map<string, Map<string, FolderEntry['kind']>>([['', new Map()]]);
  let name: string | undefined;
  for (const file of Array.from(files as ArrayLike<FileLike>)) {
    const relative = file.webkitRelativePath || file.name;
    const parts = relative.split('/');
    if (file.webkitRelativePath && parts.length > 1) {
      const first = parts.shift()!;
      name ??= first;
    }
    let path: string;
    try {
      path = normalizeToolPath(parts.join('/'));
    } catch {
      continue; // not a path inside the picked folder
    }
    if (path === '') continue;
    byPath.set(path, file);
    const chain = segments(path);
    chain.forEach((segment, i) => {
      const parent = chain.slice(0, i).join('/');
      if (!dirs.has(parent)) dirs.set(parent, new Map());
      const last = i === chain.length - 1;
      dirs.get(parent)!.set(segment, last ? 'file' : 'directory');
      if (!last && !dirs.has(chain.slice(0, i + 1).join('/'))) dirs.set(chain.slice(0, i + 1).join('/'), new Map());
    });
  }
  const fileAt = (path: string): FileLike => {
    const found = byPath.get(normalizeToolPath(path));
    if (!found) throw new Error(`No such file in the picked folder: "${path}".`);
    return found;
  };
  return {
    name: name ?? 'folder',
    snapshot: true,
    async list(path) {
      const entries = dirs.get(normalizeToolPath(path));
      if (!entries) throw new Error(`No such directory in the picked folder: "${path}".`);
      return [...entries].map(([entryName, kind]) => ({ name: entryName, kind }));
    },
    async stat(path) {
      const normal = normalizeToolPath(path);
      const found = byPath.get(normal);
      if (found) return { kind: 'file', size: found.size, mtimeMs: found.lastModified };
      return dirs.has(normal) ? { kind: 'directory', size: 0, mtimeMs: 0 } : undefined;
    },
    async read(path, range) {
      return bytesOf(fileAt(path), range);
    },
  };
}
