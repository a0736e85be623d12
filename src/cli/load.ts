/** Reads a transcript file through the same streaming import the app uses, and the prompt files from disk. */
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { PromptLibrary } from '../core/compaction/prompts.ts';
import { ImportSession } from '../core/import/run.ts';
import type { FormatId, ImportResult } from '../core/import/types.ts';

export async function importFile(path: string, format?: FormatId): Promise<ImportResult> {
  const size = statSync(path).size;
  const session = new ImportSession({ fileName: basename(path), size, ...(format ? { format } : {}) });
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) session.push(chunk as Uint8Array);
  return session.finish();
}

const PROMPTS_DIR = resolve(import.meta.dirname, '../../prompts');

export function loadPrompts(dir = PROMPTS_DIR): PromptLibrary {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((file) => file.endsWith('.md'))
      .map((file) => [file.slice(0, -3), readFileSync(resolve(dir, file), 'utf8')]),
  );
}
