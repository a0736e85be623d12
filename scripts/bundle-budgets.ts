/**
 * Bundle budgets over a built site (dist/ or an e2e build): every JavaScript chunk with its gzip
 * size, the JavaScript the first screen needs, the service worker's precache, and where the WebLLM
 * library ended up. Sizes are read from the files, so the result is the same on every machine.
 * e2e/budgets.spec.ts asserts the limits (and, in a browser, that the page loads nothing else at
 * start-up); `npm run budgets [dir]` prints the table.
 *
 * The first screen's JavaScript: index.html's module script and every module it preloads (the
 * build preloads the chunks the entry imports at start-up, vite.config.ts startupPreloads), what
 * those import statically, and the chunks the app imports as soon as it mounts (MOUNT_CHUNKS).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** JavaScript needed for the first screen, gzip bytes. */
export const FIRST_SCREEN_BUDGET_GZIP = 200 * 1024;
/** The service worker's precache (what one visit downloads for offline use), bytes on disk. */
export const PRECACHE_BUDGET_BYTES = 6 * 1024 * 1024;
/** Samples up to this size (bytes) are precached; larger ones are cached when first opened (vite.config.ts). */
export const PRECACHE_SAMPLE_LIMIT = 256 * 1024;
/**
 * Chunks the app imports dynamically as soon as it mounts, by file name prefix: the service
 * worker's registration (vite-plugin-pwa's register imports workbox-window on load).
 */
export const MOUNT_CHUNKS = ['assets/workbox-window'] as const;
/**
 * Chunks the first screen fetches only after it has painted, at their first use, while the text
 * they format shows as written: the markdown renderer (src/ui/common/MarkdownText.tsx). Outside
 * the first screen's budget; precached like every lazy chunk.
 */
export const AFTER_PAINT_CHUNKS = ['assets/markdown-render'] as const;
/** Strings found only in @mlc-ai/web-llm's bundle (a cache name and a TVM runtime method). */
export const WEBLLM_MARKERS = ['webllm/model', 'asyncLoadWebGPUPipelines'] as const;

export interface ChunkSize {
  /** Path inside the site, with '/' separators (assets/index-abc.js). */
  file: string;
  bytes: number;
  gzip: number;
  firstScreen: boolean;
  precached: boolean;
  webllm: boolean;
}

export interface BudgetReport {
  chunks: ChunkSize[];
  firstScreen: { files: string[]; gzip: number };
  precache: { files: string[]; bytes: number; gzip: number };
  /** Chunks holding the WebLLM library. */
  webllm: string[];
}

function listFiles(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path, root) : [relative(root, path).split(sep).join('/')];
  });
}

const gzipSize = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;

/** Site-relative paths of index.html's module scripts and module preloads. */
export function htmlEntries(html: string): string[] {
  const urls = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g), ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  return urls.map((url) => url.replace(/^(?:\/[^/]+)*?\/(?=assets\/)/, '').replace(/^\.\//, ''));
}

/** Chunks a chunk imports statically (`import ... from "./x.js"`, `import "./x.js"`), not `import("./x.js")`. */
export function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)].map((m) => m[1]!);
}

/** Chunks a chunk imports dynamically (`import("./x.js")`, also as a template literal). */
export function dynamicImports(code: string): string[] {
  return [...code.matchAll(/\bimport\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g)].map((m) => m[1]!);
}

/** The entry chunks and everything they import statically, transitively. */
function firstScreenFiles(dir: string, entries: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(join(dir, file))) continue;
    seen.add(file);
    for (const spec of staticImports(readFileSync(join(dir, file), 'utf8'))) queue.push(posix.normalize(posix.join(posix.dirname(file), spec)));
  }
  return [...seen].sort();
}

/** Site-relative URLs in the generated service worker's precache list. */
export function precacheUrls(sw: string): string[] {
  return [...new Set([...sw.matchAll(/\burl:\s*"([^"]+)"/g)].map((m) => m[1]!))].sort();
}

export function measure(dir: string): BudgetReport {
  const files = listFiles(dir);
  const mounted = files.filter((file) => file.endsWith('.js') && MOUNT_CHUNKS.some((prefix) => file.startsWith(prefix)));
  const first = firstScreenFiles(dir, [...htmlEntries(readFileSync(join(dir, 'index.html'), 'utf8')), ...mounted]);
  const swPath = join(dir, 'sw.js');
  const precached = existsSync(swPath) ? precacheUrls(readFileSync(swPath, 'utf8')) : [];
  const precachedSet = new Set(precached);
  const chunks: ChunkSize[] = files.filter((file) => file.endsWith('.js')).map((file) => {
    const bytes = readFileSync(join(dir, file));
    const text = bytes.toString('utf8');
    return {
      file, bytes: bytes.length, gzip: gzipSize(bytes),
      firstScreen: first.includes(file), precached: precachedSet.has(file),
      webllm: WEBLLM_MARKERS.every((marker) => text.includes(marker)),
    };
  }).sort((a, b) => b.gzip - a.gzip || a.file.localeCompare(b.file));
  let precacheBytes = 0;
  let precacheGzip = 0;
  for (const url of precached) {
    const bytes = readFileSync(join(dir, url));
    precacheBytes += bytes.length;
    precacheGzip += gzipSize(bytes);
  }
  return {
    chunks,
    firstScreen: { files: first, gzip: chunks.filter((c) => c.firstScreen).reduce((sum, c) => sum + c.gzip, 0) },
    precache: { files: precached, bytes: precacheBytes, gzip: precacheGzip },
    webllm: chunks.filter((c) => c.webllm).map((c) => c.file),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The table a regression shows up in: every chunk, then the totals against their budgets. */
export function formatReport(report: BudgetReport): string {
  const width = Math.max(...report.chunks.map((c) => c.file.length), 4);
  const lines = [`${'file'.padEnd(width)}  ${'bytes'.padStart(11)}  ${'gzip'.padStart(11)}  flags`];
  for (const c of report.chunks) {
    const flags = [c.firstScreen && 'first-screen', c.precached ? 'precached' : 'not precached', c.webllm && 'webllm'].filter(Boolean).join(', ');
    lines.push(`${c.file.padEnd(width)}  ${kb(c.bytes).padStart(11)}  ${kb(c.gzip).padStart(11)}  ${flags}`);
  }
  lines.push(
    '',
    `first screen: ${kb(report.firstScreen.gzip)} gzip of ${kb(FIRST_SCREEN_BUDGET_GZIP)} (${report.firstScreen.files.join(', ')})`,
    `precache: ${report.precache.files.length} files, ${kb(report.precache.bytes)} (${kb(report.precache.gzip)} gzip) of ${kb(PRECACHE_BUDGET_BYTES)}`,
    `WebLLM library in: ${report.webllm.join(', ') || 'no chunk'}`,
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? 'dist';
  const report = measure(dir);
  console.log(formatReport(report));
  const over = report.firstScreen.gzip > FIRST_SCREEN_BUDGET_GZIP || report.precache.bytes > PRECACHE_BUDGET_BYTES || report.webllm.length > 1;
  if (over) {
    console.error('Over budget.');
    process.exitCode = 1;
  }
}
