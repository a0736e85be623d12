/**
 * The cache of finished model requests behind `--cache <dir>`: one JSON file per request, named by
 * a SHA-256 of what decides the reply (the model, the prompt file's version, the system prompt's
 * version, the rendered prompt with the context in it, the output cap). A rerun after an
 * interruption, or with one more strategy, reads what is there and sends only the rest. A file is
 * written whole (temporary name, then renamed), so a kill never leaves half a reply; what it holds
 * is the reply's text, model and usage, never a key or a header.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promptVersion } from '../core/compaction/run.ts';
import type { PromptLibrary } from '../core/compaction/prompts.ts';
import type { SummaryRequest, SummaryResponse } from '../core/compaction/summarizer.ts';

/** Bumped when a file's shape changes: older files are then read as missing. */
const CACHE_FORMAT = 1;

interface CacheFile {
  format: number;
  model: string;
  promptId: string;
  text: string;
  replyModel: string;
  usage?: { input: number; output: number };
}

/** Finished requests by key; `dir` absent: a cache that holds nothing and keeps nothing. */
export class RequestCache {
  /** Files that could not be read as a cached reply (left alone, and asked again). */
  unreadable = 0;

  constructor(private readonly dir: string | undefined, private readonly prompts: PromptLibrary) {
    if (dir !== undefined) mkdirSync(dir, { recursive: true });
  }

  /** The key of `request` to `model` (a model identity, see modelIdentity) sent with the system prompt `systemPromptId`. */
  key(model: string, request: Pick<SummaryRequest, 'promptId' | 'prompt' | 'maxTokens'>, systemPromptId?: string): string {
    const version = (id: string | undefined) => (id !== undefined && this.prompts[id] !== undefined ? promptVersion(this.prompts[id]) : '');
    const parts = [String(CACHE_FORMAT), model, request.promptId, version(request.promptId), systemPromptId ?? '', version(systemPromptId), String(request.maxTokens ?? ''), request.prompt];
    return createHash('sha256').update(parts.join('\u0000')).digest('hex');
  }

  get(key: string): SummaryResponse | undefined {
    if (this.dir === undefined) return undefined;
    let raw: string;
    try {
      raw = readFileSync(this.file(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const file = JSON.parse(raw) as Partial<CacheFile>;
      if (file.format !== CACHE_FORMAT || typeof file.text !== 'string' || typeof file.replyModel !== 'string') throw new Error('not a cached reply');
      return { text: file.text, model: file.replyModel, ...(isUsage(file.usage) ? { usage: file.usage } : {}) };
    } catch {
      this.unreadable++;
      return undefined;
    }
  }

  put(key: string, model: string, request: Pick<SummaryRequest, 'promptId'>, response: SummaryResponse): void {
    if (this.dir === undefined) return;
    const file: CacheFile = { format: CACHE_FORMAT, model, promptId: request.promptId, text: response.text, replyModel: response.model, ...(response.usage ? { usage: response.usage } : {}) };
    const path = this.file(key);
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(file, null, 1)}\n`);
    renameSync(temporary, path);
  }

  private file(key: string): string {
    return join(this.dir!, `${key}.json`);
  }
}

function isUsage(value: unknown): value is { input: number; output: number } {
  const usage = value as { input?: unknown; output?: unknown } | undefined;
  return typeof usage?.input === 'number' && typeof usage.output === 'number';
}
