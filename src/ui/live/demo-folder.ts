/**
 * The bundled demo folder (public/samples/live/demo-folder.json, a copy of the folder the demo
 * script was written for): a snapshot a user of the deployed site can start the scripted demo
 * on without a folder of their own. One JSON file, since a static site cannot list a directory.
 */
import type { PickedFolder } from './folder-pick.ts';
import { createFileListFolder, type FileLike } from '../../worker/live/folder-access.ts';

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

export async function loadDemoFolder(): Promise<PickedFolder> {
  const response = await fetch(`${import.meta.env.BASE_URL}${DEMO_FOLDER_PATH}`);
  if (!response.ok) throw new Error(`Could not load the demo folder: HTTP ${response.status}.`);
  return demoFolderFrom(await response.json());
}
