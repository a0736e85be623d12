/**
 * The folder a live session reads, as the page gets it: the File System Access picker where the
 * browser has it (the live folder, whose handle can be kept and opened again after a reload, with
 * read permission asked again), else the files of a directory `<input>` (a snapshot), or the
 * bundled demo folder (public/samples/live/demo-folder.json, a copy of the folder the demo script
 * was written for: one JSON file, since a static site cannot list a directory).
 */
import type { Folder } from '../core/agent/types.ts';
import { createFileListFolder, createHandleFolder, type DirectoryHandleLike, type FileLike } from '../core/agent/tools/folder-access.ts';

export interface PickedFolder {
  folder: Folder;
  handle?: FileSystemDirectoryHandle;
  /** The snapshot's files (they are sent to the session's worker). */
  files?: File[];
  /** Each file's path under the folder's name, where a file does not carry it (`webkitRelativePath`): the bundled demo folder. */
  paths?: string[];
}

interface DirectoryPickerWindow {
  showDirectoryPicker?: (options?: { mode?: 'read' | 'readwrite'; id?: string }) => Promise<FileSystemDirectoryHandle>;
}

/** Whether this browser can open a live folder (and keep its handle across reloads). */
export function canPickLiveFolder(): boolean {
  return typeof (window as DirectoryPickerWindow).showDirectoryPicker === 'function';
}

/** Opens the browser's folder picker (read access only); undefined when the user cancels. */
export async function pickLiveFolder(): Promise<PickedFolder | undefined> {
  const picker = (window as DirectoryPickerWindow).showDirectoryPicker;
  if (!picker) return undefined;
  try {
    const handle = await picker({ mode: 'read', id: 'foldlab-live' });
    return { folder: createHandleFolder(handle as unknown as DirectoryHandleLike), handle };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return undefined;
    throw error;
  }
}

/** The files of a directory `<input webkitdirectory>`, read as a snapshot. */
export function snapshotFolder(files: FileList): PickedFolder {
  if (files.length === 0) throw new Error('The folder is empty (or the browser gave no files): pick a folder with files in it.');
  return { folder: createFileListFolder(files), files: Array.from(files) };
}

interface PermissionHandle {
  queryPermission?: (descriptor: { mode: 'read' }) => Promise<PermissionState>;
  requestPermission?: (descriptor: { mode: 'read' }) => Promise<PermissionState>;
}

/** Reading a kept folder was refused (or not allowed yet): the message says what the user can do. */
export class FolderPermissionError extends Error {
  override name = 'FolderPermissionError';
}

/** A kept folder is no longer where it was (moved, renamed or deleted since it was picked). */
export class FolderGoneError extends Error {
  override name = 'FolderGoneError';
}

/**
 * Whether this tab may read a kept handle now, asked without a user gesture: 'prompt' when the
 * browser will ask again (as Chromium does after a reload), 'granted' where it has no permissions API.
 */
export async function folderPermission(handle: FileSystemDirectoryHandle): Promise<PermissionState> {
  return (await (handle as unknown as PermissionHandle).queryPermission?.({ mode: 'read' })) ?? 'granted';
}

/** A kept handle after a reload: read permission is asked again where the browser requires it (call from a click). */
export async function reopenHandle(handle: FileSystemDirectoryHandle): Promise<PickedFolder> {
  const permissions = handle as unknown as PermissionHandle;
  let state = await folderPermission(handle);
  if (state !== 'granted') state = (await permissions.requestPermission?.({ mode: 'read' })) ?? 'denied';
  if (state !== 'granted') {
    throw new FolderPermissionError(
      `Reading the folder ${handle.name} was not allowed, so the session cannot go on yet; its journal is kept. ` +
        'Open it again and allow reading when the browser asks, or pick the folder again.',
    );
  }
  const root = handle as unknown as DirectoryHandleLike;
  try {
    // A handle outlives its folder: list one entry to know it is still there.
    await root.values()[Symbol.asyncIterator]().next();
  } catch (error) {
    if ((error as { name?: unknown } | null)?.name !== 'NotFoundError') throw error;
    throw new FolderGoneError(
      `The folder ${handle.name} is no longer where it was (moved, renamed or deleted); the session's journal is kept. ` +
        'Put it back and open it again, or pick the folder again.',
    );
  }
  return { folder: createHandleFolder(root), handle };
}

/** The demo folder's snapshot, relative to the site's base URL. */
export const DEMO_FOLDER_PATH = 'samples/live/demo-folder.json';

/** Modification time the demo's files carry (they have no disk of their own): 2023-11-14. Unit: epoch ms. */
const DEMO_MTIME_MS = 1_700_000_000_000;

/** The snapshot's text as a picked folder; a document of another shape is refused with what was expected. */
export function demoFolderFrom(json: unknown): PickedFolder {
  const doc = json as { name?: unknown; files?: unknown } | null;
  if (typeof doc !== 'object' || doc === null || typeof doc.name !== 'string' || typeof doc.files !== 'object' || doc.files === null) {
    throw new Error(`${DEMO_FOLDER_PATH}: expected {"name": "<folder>", "files": {"<path>": "<text>", …}}.`);
  }
  const files: File[] = [];
  const paths: string[] = [];
  for (const [path, text] of Object.entries(doc.files as Record<string, unknown>)) {
    if (typeof text !== 'string') throw new Error(`${DEMO_FOLDER_PATH}: the file "${path}" is not text.`);
    files.push(new File([text], path.split('/').at(-1)!, { lastModified: DEMO_MTIME_MS }));
    paths.push(`${doc.name}/${path}`);
  }
  const likes: FileLike[] = files.map((file, i) => ({
    name: file.name, size: file.size, lastModified: file.lastModified, webkitRelativePath: paths[i]!, slice: (start, end) => file.slice(start, end),
  }));
  return { folder: createFileListFolder(likes), files, paths };
}

/** The bundled demo folder, fetched from this site. */
export async function loadDemoFolder(): Promise<PickedFolder> {
  const response = await fetch(`${import.meta.env.BASE_URL}${DEMO_FOLDER_PATH}`);
  if (!response.ok) throw new Error(`Could not load the demo folder: HTTP ${response.status}.`);
  return demoFolderFrom(await response.json());
}
