/**
 * Shared helpers for importers: an entry builder that numbers entries and chains parents, issue
 * recording, and small decoders every format needs (timestamps, base64 image sizes, JSON strings).
 */
import type { Entry, ImageBlock } from '../journal/entry.ts';
import type { FormatId, ImportIssue, ImportResult, SessionMeta } from './types.ts';

export type EntryDraft = Omit<Entry, 'index' | 'parentId' | 'id'> & { id?: string; parentId?: string | null };

export class EntryBuilder {
  readonly entries: Entry[] = [];
  readonly issues: ImportIssue[] = [];
  readonly meta: SessionMeta = {};
  lines = 0;
  ignoredLines = 0;
  /** Entry id -> the line of the entry that took it. */
  private readonly usedIds = new Map<string, number>();

  constructor(readonly format: FormatId) {}

  /**
   * Appends an entry. Without an explicit `parentId` the entry is chained to the previous one
   * (linear formats). Ids are made unique: a repeated source id gets a `#n` suffix, reported as a
   * duplicate issue naming both lines (both entries are kept, in file order).
   */
  push(draft: EntryDraft): Entry {
    const previous = this.entries[this.entries.length - 1];
    let id = draft.id ?? `l${draft.line}`;
    const first = this.usedIds.get(id);
    if (first !== undefined) {
      let n = 2;
      while (this.usedIds.has(`${id}#${n}`)) n++;
      if (draft.id !== undefined) this.issue(draft.line, `entry id ${JSON.stringify(id)} was already used on line ${first}; both entries are kept, this one as ${JSON.stringify(`${id}#${n}`)}`, 'duplicate');
      id = `${id}#${n}`;
    }
    this.usedIds.set(id, draft.line);
    const entry: Entry = {
      ...draft,
      id,
      index: this.entries.length,
      parentId: draft.parentId === undefined ? (previous?.id ?? null) : draft.parentId,
    };
    this.entries.push(entry);
    return entry;
  }

  issue(line: number, message: string, kind: ImportIssue['kind'] = 'malformed'): void {
    this.issues.push({ line, message, kind });
  }

  result(): ImportResult {
    return {
      format: this.format,
      entries: this.entries,
      issues: this.issues,
      meta: this.meta,
      lines: this.lines,
      ignoredLines: this.ignoredLines,
    };
  }
}

/** ISO string or epoch (ms, or seconds when < 1e11) to epoch ms; undefined when absent or invalid. */
export function toEpochMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? Math.round(value * 1000) : value;
  if (typeof value === 'string' && value.length > 0) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** Decoded byte length of a base64 string (without decoding it). */
export function base64Bytes(data: string): number {
  const clean = data.length;
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((clean * 3) / 4) - padding);
}

/** An image block from a data URL, a plain URL, or raw base64 with a media type. */
export function imageFromUrl(url: string): ImageBlock {
  const match = /^data:([^;,]+)?(;base64)?,/.exec(url);
  if (match) {
    const data = url.slice(match[0].length);
    return { type: 'image', mediaType: match[1] ?? 'image', bytes: match[2] ? base64Bytes(data) : data.length, source: 'base64' };
  }
  return { type: 'image', mediaType: 'image', bytes: 0, source: 'url' };
}

/** Parses a JSON string defensively: the parsed value, or the raw text when it is not valid JSON. */
export function parseJsonLoose(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Describes a JSON value briefly for error messages: `an array`, `a string "abc…"`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing (the field is missing)';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string ${JSON.stringify(value.length > 30 ? `${value.slice(0, 30)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
