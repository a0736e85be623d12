/**
 * Picking the folder a live session reads: the File System Access picker where the browser has it
 * (the live folder, whose handle can be kept), else the files of a directory `<input>` (a snapshot).
 */
import type { Folder } from '../../core/agent/types.ts';
import { createFileListFolder, createHandleFolder, type DirectoryHandleLike } from './folder-access.ts';

export interface PickedFolder {
  folder: Folder;
  handle?: FileSystemDirectoryHandle;
  /** The snapshot's files (they are sent to the session's worker). */
  files?: File[];
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

/** A kept handle after a reload: read permission is asked again where the browser requires it (call from a click). */
export async function reopenHandle(handle: FileSystemDirectoryHandle): Promise<PickedFolder> {
  const permissions = handle as unknown as PermissionHandle;
  let state = (await permissions.queryPermission?.({ mode: 'read' })) ?? 'granted';
  if (state !== 'granted') state = (await permissions.requestPermission?.({ mode: 'read' })) ?? 'denied';
  if (state !== 'granted') throw new Error(`Reading ${handle.name} was not allowed: allow it when the browser asks, or pick the folder again.`);
  return { folder: createHandleFolder(handle as unknown as DirectoryHandleLike), handle };
}
