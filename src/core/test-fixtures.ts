/**
 * For core tests (Node only): the prompt files and sample transcripts read from disk, imported by
 * the core's own importer, so a core test needs nothing outside src/core. The command line reads
 * the same files through its own loader (src/cli/load.ts), which also reads folders and Cursor's store.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { PromptLibrary } from './compaction/prompts.ts';
import { importText } from './import/run.ts';
import type { FormatId, ImportResult } from './import/types.ts';

const PROMPTS_DIR = resolve(import.meta.dirname, '../../prompts');

/** Every prompt file of prompts/, by name without `.md`. */
export function loadPrompts(dir = PROMPTS_DIR): PromptLibrary {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((file) => file.endsWith('.md'))
      .map((file) => [file.slice(0, -3), readFileSync(resolve(dir, file), 'utf8')]),
  );
}

/** A transcript file imported as the page imports it (format detected unless given). */
export async function importFile(path: string, format?: FormatId): Promise<ImportResult> {
  return importText(readFileSync(path), { fileName: basename(path), ...(format ? { format } : {}) });
}
