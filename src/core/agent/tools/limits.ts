/**
 * The caps of the read-only folder tools. The per-result numbers are seed 002 §A3's (Read 500
 * lines, Grep 5 matching lines, LS / Glob the first 10 items), shared with the layered strategy's
 * history compression so the two never disagree; the others bound what one call may cost on a
 * huge file or tree (every tool stops at them and says so).
 */
import { DEFAULT_LIMITS } from '../../strategies/layered/tool-compression.ts';

export interface FolderToolLimits {
  /** read: lines returned per call (the seed's Read cap). Default 500. Unit: lines. */
  readMaxLines: number;
  /** grep: matching lines shown per call, with file and line number (the seed's Grep cap). Default 5. Unit: lines. */
  grepMaxLines: number;
  /** ls / glob: entries shown per call (the seed's "first N", 5-10). Default 10. Unit: items. */
  listMaxItems: number;
  /** Any line longer than this is cut (minified files). Default 2000. Unit: characters. */
  lineMaxChars: number;
  /** grep: characters shown of one matching line (minified files). Default 500. Unit: characters. */
  grepLineMaxChars: number;
  /** read: text returned per call; reading stops at the last whole line under it. Default 40000. Unit: characters. */
  outputMaxChars: number;
  /** read: bytes scanned from the start of a file to reach `offset` and count lines. Default 16 MiB. Unit: bytes. */
  readScanMaxBytes: number;
  /** glob / grep / @file: directory entries visited in one walk of the tree. Default 20000. Unit: entries. */
  walkMaxEntries: number;
  /** grep: files searched per call. Default 5000. Unit: files. */
  grepMaxFiles: number;
  /** grep: bytes searched in one file (its first part when larger). Default 1 MiB. Unit: bytes. */
  grepFileMaxBytes: number;
  /** grep: bytes searched in all files of one call. Default 32 MiB. Unit: bytes. */
  grepMaxBytes: number;
  /** grep: matches counted before the search stops. Default 1000. Unit: matches. */
  grepMaxMatches: number;
}

export const DEFAULT_FOLDER_TOOL_LIMITS: Readonly<FolderToolLimits> = {
  readMaxLines: DEFAULT_LIMITS.readMaxLines,
  grepMaxLines: DEFAULT_LIMITS.grepMaxLines,
  listMaxItems: DEFAULT_LIMITS.listMaxItems,
  lineMaxChars: 2000,
  grepLineMaxChars: 500,
  outputMaxChars: 40_000,
  readScanMaxBytes: 16 * 1024 * 1024,
  walkMaxEntries: 20_000,
  grepMaxFiles: 5000,
  grepFileMaxBytes: 1024 * 1024,
  grepMaxBytes: 32 * 1024 * 1024,
  grepMaxMatches: 1000,
};

/** Bytes of a file's start examined to tell text from binary (NUL bytes, invalid UTF-8). */
export const BINARY_SNIFF_BYTES = 8192;
/** A `.gitignore` larger than this is read only up to it. Unit: bytes. */
export const GITIGNORE_MAX_BYTES = 256 * 1024;
/** Longest grep pattern or glob accepted. Unit: characters. */
export const PATTERN_MAX_CHARS = 1000;

/** The limits with the caller's overrides; a non-positive or non-finite override is ignored. */
export function resolveLimits(overrides: Partial<FolderToolLimits> | undefined): FolderToolLimits {
  const limits = { ...DEFAULT_FOLDER_TOOL_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {}) as [keyof FolderToolLimits, number | undefined][]) {
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) limits[key] = Math.floor(value);
  }
  return limits;
}

/** `1,234` (en-US grouping, the same everywhere). */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `3 files`, `1 file`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${count(n)} ${n === 1 ? word : many}`;
}

/** A line cut to `max` characters, saying how much was cut. */
export function clipLine(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max)}… [${count(line.length - max)} more characters on this line]` : line;
}
