/**
 * What the paths and commands of a session say about where it ran: languages and tools (the
 * stack), the operating system, the directory every file the agent touched lies under, the tools
 * the agent used — and how two such notes lists merge (one tool list, one shared directory).
 * The directory is named for what it is ("files under"): it is inferred from the files, so it may
 * be a subfolder of the project (every file edited so far was in `src/`), never a guessed root.
 */
import { codeSpan } from './errors.ts';
import { unionInto } from './extract.ts';

const EXTENSIONS: Record<string, string> = {
  ts: 'TypeScript', tsx: 'TypeScript', mts: 'TypeScript', cts: 'TypeScript', js: 'JavaScript', jsx: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript',
  py: 'Python', rs: 'Rust', go: 'Go', java: 'Java', kt: 'Kotlin', rb: 'Ruby', php: 'PHP', cs: 'C#', cpp: 'C++', cc: 'C++', hpp: 'C++', c: 'C', h: 'C',
  swift: 'Swift', html: 'HTML', css: 'CSS', scss: 'CSS', vue: 'Vue', svelte: 'Svelte', sql: 'SQL', sh: 'Shell', zig: 'Zig', dart: 'Dart', lua: 'Lua',
};
const COMMAND_TOOLS: Record<string, string> = {
  npm: 'npm', npx: 'npm', pnpm: 'pnpm', yarn: 'yarn', bun: 'Bun', node: 'Node.js', deno: 'Deno', tsc: 'tsc', vitest: 'Vitest', jest: 'Jest',
  python: 'Python', python3: 'Python', pytest: 'pytest', pip: 'pip', uv: 'uv', poetry: 'Poetry', ruff: 'Ruff', cargo: 'Cargo', go: 'Go toolchain',
  mvn: 'Maven', gradle: 'Gradle', make: 'make', docker: 'Docker', git: 'git', kubectl: 'kubectl',
};

/** Languages from file extensions, then tools from the commands' first words, by frequency then name. */
export function inferStack(paths: readonly string[], commands: readonly string[]): string[] {
  const count = (names: string[]): string[] => {
    const tally = new Map<string, number>();
    for (const name of names) tally.set(name, (tally.get(name) ?? 0) + 1);
    return [...tally.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name);
  };
  const languages = count(paths.flatMap((path) => {
    const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
    const language = ext ? EXTENSIONS[ext] : undefined;
    return language ? [language] : [];
  }));
  const tools = count(commands.flatMap((command) => {
    const words = command.split(/\s*(?:&&|\|\||;|\|)\s*/).map((part) => part.trim().split(/\s+/)[0] ?? '');
    return words.flatMap((word) => {
      const tool = COMMAND_TOOLS[word.replace(/^.*\//, '')];
      return tool ? [tool] : [];
    });
  }));
  return [...languages, ...tools.filter((tool) => !languages.includes(tool))];
}

const SYSTEM_DIRS = /^\/(?:tmp|var|private|dev|proc|sys|etc|usr)\//;

/** The longest directory shared by every absolute project path (none when the paths share only `/`). */
export function commonRoot(paths: readonly string[]): string | undefined {
  // Scratch and system files (`/tmp/fix.py`, written by a shell command) are outside any project.
  const absolute = paths.filter((path) => (path.startsWith('/') && !SYSTEM_DIRS.test(path)) || /^[A-Za-z]:[\\/]/.test(path));
  if (absolute.length === 0) return undefined;
  const split = absolute.map((path) => path.split(/[\\/]/));
  const first = split[0]!;
  let length = 0;
  // A file's root is its directory; a path without an extension may be a directory itself.
  const limit = Math.min(...split.map((parts) => (/\.[^.]+$/.test(parts[parts.length - 1] ?? '') ? parts.length - 1 : parts.length)));
  while (length < limit && split.every((parts) => parts[length] === first[length])) length++;
  const root = first.slice(0, length).join('/');
  return root.length > 1 && length > 1 ? root : undefined;
}

/** Operating system and the directory shared by every file, as the paths show them, plus the tools the agent used. */
export function inferEnvironment(paths: readonly string[], tools: readonly string[]): string[] {
  const out: string[] = [];
  if (paths.some((path) => path.startsWith('/Users/'))) out.push('macOS (paths under /Users)');
  else if (paths.some((path) => path.startsWith('/home/'))) out.push('Linux (paths under /home)');
  else if (paths.some((path) => /^[A-Za-z]:\\/.test(path))) out.push('Windows');
  const root = commonRoot(paths);
  if (root) out.push(`${FILES_UNDER}${codeSpan(root)}`);
  if (tools.length > 0) out.push(`tools used: ${tools.join(', ')}`);
  return out;
}

const TOOLS_USED = 'tools used: ';
const FILES_UNDER = 'files under ';
/** The shared directory, as written now ("files under") and in summaries made before ("project root"). */
const SHARED_DIRECTORY = /^(?:files under|project root) (`+)\s?(.+?)\s?\1$/;

/** Environment notes merged: one tool list (union), one shared directory, others unioned. */
export function mergeEnvironment(older: readonly string[], newer: readonly string[]): string[] {
  const tools: string[] = [];
  const roots: string[] = [];
  const rest: string[] = [];
  for (const item of [...older, ...newer]) {
    if (item.startsWith(TOOLS_USED)) unionInto(tools, item.slice(TOOLS_USED.length).split(/,\s*/).filter(Boolean));
    else if (SHARED_DIRECTORY.test(item)) roots.push(SHARED_DIRECTORY.exec(item)?.[2] ?? '');
    else unionInto(rest, [item]);
  }
  // Roots are directories: a trailing separator keeps commonRoot from taking the last one for a file.
  const root = roots.length > 1 ? commonRoot(roots.map((path) => `${path}/x.x`)) : roots[0];
  return [...rest, ...(root ? [`${FILES_UNDER}${codeSpan(root)}`] : []), ...(tools.length > 0 ? [`${TOOLS_USED}${tools.sort().join(', ')}`] : [])];
}
