/**
 * L2 of the layered context (seed 002 §C5): the project's rules file, `CODE_LAW.md` at the folder
 * root, found whatever its case. It is read at every context assembly, so an edit shows at the
 * next call, and is never written into the history.
 */
import type { Folder } from './types.ts';

/** Bytes of CODE_LAW.md read at most; the rest is left out with a note. Default 64 KiB. */
export const CODE_LAW_MAX_BYTES = 64 * 1024;

export interface CodeLaw {
  /** The file's name as the folder spells it (CODE_LAW.md, code_law.md, ...). */
  name: string;
  text: string;
  truncated: boolean;
}

/** The root's CODE_LAW.md (case-insensitive), or undefined when there is none or it cannot be read. */
export async function readCodeLaw(folder: Folder, maxBytes = CODE_LAW_MAX_BYTES): Promise<CodeLaw | undefined> {
  let name: string | undefined;
  try {
    const entries = await folder.list('');
    name = entries.find((entry) => entry.kind !== 'directory' && entry.name.toLowerCase() === 'code_law.md')?.name;
    if (name === undefined) return undefined;
    const stat = await folder.stat(name);
    if (!stat || stat.kind === 'directory') return undefined;
    if (stat.kind === 'symlink') {
      // A link is followed only when it stays inside the folder.
      const real = await folder.realPath?.(name);
      if (real === undefined) return undefined;
    }
    const bytes = await folder.read(name, { length: maxBytes + 1 });
    const truncated = bytes.length > maxBytes;
    const text = new TextDecoder('utf-8').decode(truncated ? bytes.subarray(0, maxBytes) : bytes);
    return { name, text, truncated };
  } catch {
    return undefined;
  }
}
