/**
 * For tests only: the live demo folder (e2e/fixtures/live-folder) read from disk as the files a
 * user picks in the page, each under `live-folder/`, with one fixed modification time.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { LiveFolderSource } from './live-host.ts';

export const LIVE_FOLDER_ROOT = 'e2e/fixtures/live-folder';

export function liveFolderSnapshot(): LiveFolderSource {
  const files: Array<{ path: string; file: File }> = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push({ path: `live-folder/${relative(LIVE_FOLDER_ROOT, full)}`, file: new File([readFileSync(full)], name, { lastModified: 1_700_000_000_000 }) });
    }
  };
  walk(LIVE_FOLDER_ROOT);
  return { kind: 'files', files };
}
