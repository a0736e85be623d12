/** Joining and splitting folder paths ('/'-separated, root-relative, '' is the root). */

/** `child` under `dir` ('' is the root). */
export function joinPath(dir: string, child: string): string {
  return dir === '' ? child : `${dir}/${child}`;
}

/** The last segment of a path. */
export function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/** The directory part of a path ('' for a root entry). */
export function dirName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
