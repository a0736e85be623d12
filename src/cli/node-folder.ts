/**
 * The folder a Node agent session reads (`cli session --dir`): a directory on disk through
 * `fs`, read-only. Every operation resolves symlinks with `fs.realpath` and refuses a path whose
 * real location is outside the root, so a link inside the folder never leads the agent out of it;
 * sockets, FIFOs and devices are neither listed nor read (reading a FIFO would block).
 */
import { promises as fs } from 'node:fs';
import nodePath from 'node:path';
import type { Folder, FolderEntry, FolderStat } from '../core/agent/types.ts';
import { FolderPathError, normalizeToolPath } from '../core/agent/tools/paths.ts';

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}

/** A read-only Folder over the directory `dir` (resolved to its real path once, here). */
export async function createNodeFolder(dir: string): Promise<Folder> {
  let root: string;
  try {
    root = await fs.realpath(dir);
  } catch (error) {
    throw new Error(`Cannot open the folder "${dir}": ${(error as Error).message}`, { cause: error });
  }
  if (!(await fs.stat(root)).isDirectory()) throw new Error(`"${dir}" is not a directory: pick the folder the agent may read.`);

  const inside = (real: string) => real === root || real.startsWith(root.endsWith(nodePath.sep) ? root : root + nodePath.sep);
  const relative = (real: string) => nodePath.relative(root, real).split(nodePath.sep).join('/');

  /** The absolute path of a root-relative path, which must already be normalized. */
  const absolute = (path: string): string => {
    if (normalizeToolPath(path) !== path) throw new FolderPathError(path, `"${path}" is not a normalized path relative to the folder's root.`);
    return path === '' ? root : nodePath.join(root, ...path.split('/'));
  };

  /** The real path of `path` itself, refused when it is outside the root. */
  const real = async (path: string): Promise<string> => {
    const resolved = await fs.realpath(absolute(path));
    if (!inside(resolved)) throw new FolderPathError(path, `Refused "${path}": it leads outside the folder.`);
    return resolved;
  };

  return {
    name: nodePath.basename(root),
    snapshot: false,

    async list(path) {
      const entries = await fs.readdir(await real(path), { withFileTypes: true });
      const out: FolderEntry[] = [];
      for (const entry of entries) {
        if (entry.isDirectory()) out.push({ name: entry.name, kind: 'directory' });
        else if (entry.isFile()) out.push({ name: entry.name, kind: 'file' });
        else if (entry.isSymbolicLink()) out.push({ name: entry.name, kind: 'symlink' });
      }
      return out;
    },

    async stat(path): Promise<FolderStat | undefined> {
      try {
        // The entry itself is not followed (lstat); the directories above it must be inside.
        const full = absolute(path);
        const parent = path === '' ? root : await fs.realpath(nodePath.dirname(full));
        if (!inside(parent)) return undefined;
        const stat = await fs.lstat(path === '' ? root : nodePath.join(parent, nodePath.basename(full)));
        const kind = stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : stat.isSymbolicLink() ? 'symlink' : undefined;
        if (!kind) return undefined;
        return { kind, size: kind === 'directory' ? 0 : stat.size, mtimeMs: Math.floor(stat.mtimeMs) };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async read(path, range = {}) {
      const handle = await fs.open(await real(path), 'r');
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) throw new FolderPathError(path, `"${path}" is not a regular file.`);
        const offset = Math.max(0, range.offset ?? 0);
        const length = Math.max(0, Math.min(range.length ?? Infinity, stat.size - offset));
        const buffer = new Uint8Array(length);
        let filled = 0;
        while (filled < length) {
          const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return filled === length ? buffer : buffer.subarray(0, filled);
      } finally {
        await handle.close();
      }
    },

    async realPath(path) {
      try {
        const resolved = await fs.realpath(absolute(path));
        return inside(resolved) ? relative(resolved) : undefined;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
  };
}
