/**
 * The files of a drop, folders included: a dropped folder is read through the browser's
 * file-system entries, each file with its path inside the folder, as a folder pick gives them.
 */
import type { PickedFile } from '../../store/import-files.ts';

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

async function walk(entry: FileSystemEntry, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, path: entry.fullPath.replace(/^\//, '') });
  } else if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries gives a directory's entries in batches until an empty one.
    for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
      for (const child of batch) await walk(child, out);
    }
  }
}

/** The dropped files; a dropped folder's files carry their path (`folder/sub/file.jsonl`). */
export async function droppedFiles(data: DataTransfer): Promise<PickedFile[]> {
  const entries = Array.from(data.items, (item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.every((entry) => entry === null || entry.isFile)) return Array.from(data.files, (file) => ({ file, path: '' }));
  const out: PickedFile[] = [];
  for (const entry of entries) if (entry) await walk(entry, out);
  return out;
}
