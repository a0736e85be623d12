/** The files under a folder on disk, by path relative to it ('/'-separated), as the page's folder pick lists them. */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Paths of the files under `dir` whose name `keep` accepts (every file by default), walking subfolders. */
export function pathsUnder(dir: string, keep: (name: string) => boolean = () => true): string[] {
  const paths: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && keep(entry.name)) paths.push(relative(dir, full).split('\\').join('/'));
    }
  };
  walk(dir);
  return paths;
}
