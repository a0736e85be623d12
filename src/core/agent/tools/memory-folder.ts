/**
 * An in-memory Folder for tests and demos: files from a map `path -> {text | bytes, mtimeMs}`,
 * directories implied by the paths (or listed empty), and symlinks by target so confinement can
 * be exercised without a disk. `set` and `remove` stand for edits made outside the agent (the
 * tools only see the read-only Folder interface).
 */
import type { Folder, FolderEntry, FolderStat } from '../types.ts';
import { normalizeToolPath } from './paths.ts';

export type MemoryNode =
  | { text: string; mtimeMs?: number }
  | { bytes: Uint8Array; mtimeMs?: number }
  /** A symlink; `target` is relative to the root, or anything outside it (`../x`, `/etc/passwd`). */
  | { link: string }
  /** An empty directory. */
  | { dir: true; mtimeMs?: number };

export interface MemoryFolder extends Folder {
  /** Creates or replaces a node (an outside edit). */
  set(path: string, node: MemoryNode): void;
  remove(path: string): void;
}

type Stored = { kind: 'file'; bytes: Uint8Array; mtimeMs: number } | { kind: 'symlink'; target: string } | { kind: 'directory'; mtimeMs: number };

function segments(path: string): string[] {
  return path === '' ? [] : path.split('/');
}

/** A Folder over `files`; paths are normalized ('/'-separated, relative to the root). */
export function createMemoryFolder(files: Record<string, MemoryNode>, name = 'folder'): MemoryFolder {
  const nodes = new Map<string, Stored>([['', { kind: 'directory', mtimeMs: 0 }]]);
  const children = new Map<string, Set<string>>([['', new Set()]]);
  const encoder = new TextEncoder();

  const addParents = (path: string) => {
    const parts = segments(path);
    for (let i = 0; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      const child = parts.slice(0, i + 1).join('/');
      if (!children.has(parent)) children.set(parent, new Set());
      children.get(parent)!.add(parts[i]!);
      if (i < parts.length - 1 && !nodes.has(child)) {
        nodes.set(child, { kind: 'directory', mtimeMs: 0 });
        children.set(child, children.get(child) ?? new Set());
      }
    }
  };

  const set = (raw: string, node: MemoryNode) => {
    const path = normalizeToolPath(raw);
    addParents(path);
    if ('link' in node) nodes.set(path, { kind: 'symlink', target: node.link });
    else if ('dir' in node) {
      nodes.set(path, { kind: 'directory', mtimeMs: node.mtimeMs ?? 0 });
      children.set(path, children.get(path) ?? new Set());
    } else {
      nodes.set(path, { kind: 'file', bytes: 'text' in node ? encoder.encode(node.text) : node.bytes, mtimeMs: node.mtimeMs ?? 0 });
    }
  };
  for (const [path, node] of Object.entries(files)) set(path, node);

  /** Follows symlinks segment by segment; undefined when one leads outside or nowhere (or loops). */
  const resolve = (path: string, hops = 0): string | undefined => {
    if (hops > 40) return undefined;
    const parts = segments(path);
    let current = '';
    for (let i = 0; i < parts.length; i++) {
      const next = current === '' ? parts[i]! : `${current}/${parts[i]}`;
      const node = nodes.get(next);
      if (node?.kind === 'symlink') {
        let target: string;
        try {
          if (node.target.startsWith('/')) return undefined;
          target = normalizeToolPath(current === '' ? node.target : `${current}/${node.target}`);
        } catch {
          return undefined;
        }
        const rest = parts.slice(i + 1).join('/');
        return resolve(rest ? (target === '' ? rest : `${target}/${rest}`) : target, hops + 1);
      }
      if (!node) return undefined;
      current = next;
    }
    return current;
  };

  const fileAt = (path: string) => {
    const node = nodes.get(path);
    if (!node || node.kind !== 'file') throw new Error(node ? `"${path}" is not a file.` : `No such file: "${path}".`);
    return node;
  };

  return {
    name,
    snapshot: false,
    set,
    remove(raw) {
      const path = normalizeToolPath(raw);
      nodes.delete(path);
      const slash = path.lastIndexOf('/');
      children.get(slash < 0 ? '' : path.slice(0, slash))?.delete(path.slice(slash + 1));
    },
    async list(path) {
      const node = nodes.get(path);
      if (!node || node.kind !== 'directory') throw new Error(node ? `"${path}" is not a directory.` : `No such directory: "${path}".`);
      const out: FolderEntry[] = [];
      for (const child of children.get(path) ?? []) {
        const entry = nodes.get(path === '' ? child : `${path}/${child}`);
        if (entry) out.push({ name: child, kind: entry.kind });
      }
      return out;
    },
    async stat(path): Promise<FolderStat | undefined> {
      const node = nodes.get(path);
      if (!node) return undefined;
      if (node.kind === 'file') return { kind: 'file', size: node.bytes.length, mtimeMs: node.mtimeMs };
      if (node.kind === 'directory') return { kind: 'directory', size: 0, mtimeMs: node.mtimeMs };
      return { kind: 'symlink', size: node.target.length, mtimeMs: 0 };
    },
    async read(path, range = {}) {
      const { bytes } = fileAt(path);
      const start = Math.min(range.offset ?? 0, bytes.length);
      const end = range.length === undefined ? bytes.length : Math.min(bytes.length, start + range.length);
      return bytes.slice(start, end);
    },
    async realPath(path) {
      return resolve(path);
    },
  };
}
