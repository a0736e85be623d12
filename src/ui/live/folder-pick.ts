/**
 * Picking the folder a live session reads: the File System Access picker where the browser has it
 * (the live folder, whose handle can be kept), else the files of a directory `<input>` (a snapshot).
 */
import type { Folder } from '../../core/agent/types.ts';
import { createFileListFolder, createHandleFolder, type DirectoryHandleLike } from '../../worker/live/folder-access.ts';

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
