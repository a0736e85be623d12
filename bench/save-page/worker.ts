/**
 * The save benchmark's worker: generates a Claude Code session, imports it, and saves it with the
 * app's own `commitImport` into IndexedDB, as the engine worker does, recording when each batch's
 * progress report came. `prepare` makes the import (optionally with a heavy entry every so often);
 * each `save` writes it to a fresh database.
 */
import { generateSession } from '../../src/core/demo/generate-session.ts';
import { importText } from '../../src/core/import/run.ts';
import type { ImportResult } from '../../src/core/import/types.ts';
import { commitImport } from '../../src/db/conversations.ts';
import type { SaveBatchLimits } from '../../src/db/save-batches.ts';
import { FoldlabDatabase } from '../../src/db/schema.ts';

export type SaveRequest = { type: 'prepare'; bytes: number; heavy?: { every: number; chars: number } } | { type: 'save'; batches?: SaveBatchLimits };

export type SaveReply =
  | { type: 'prepared'; fileBytes: number; entries: number }
  | { type: 'saved'; ms: number; rows: number; gaps: number[] }
  | { type: 'failed'; message: string };

let prepared: { result: ImportResult; fileBytes: number } | undefined;

async function save(batches: SaveBatchLimits | undefined): Promise<SaveReply> {
  if (!prepared) return { type: 'failed', message: 'prepare first' };
  const db = new FoldlabDatabase(`save-bench-${crypto.randomUUID()}`);
  await db.open();
  const marks: number[] = [];
  const start = performance.now();
  await commitImport(db, prepared.result, { fileName: 'bench.jsonl', size: prepared.fileBytes, origin: 'file', onSaved: () => marks.push(performance.now()), ...(batches ? { batches } : {}) });
  const ms = performance.now() - start;
  const rows = await db.entries.count();
  await db.delete();
  return { type: 'saved', ms, rows, gaps: marks.map((mark, i) => mark - (i === 0 ? start : marks[i - 1]!)) };
}

onmessage = async (event: MessageEvent<SaveRequest>) => {
  const request = event.data;
  try {
    if (request.type === 'prepare') {
      const text = generateSession({ targetBytes: request.bytes, seed: 1 });
      const result = importText(text, { fileName: 'bench.jsonl', format: 'claude-code' });
      let fileBytes = new TextEncoder().encode(text).length;
      if (request.heavy) {
        // A pasted file or a long tool output: a slice of the session's own text (so it compresses
        // as real text does) added to every `every`-th entry.
        const { every, chars } = request.heavy;
        for (let i = every - 1; i < result.entries.length; i += every) {
          const from = (i * 7919) % Math.max(1, text.length - chars);
          result.entries[i]!.blocks.push({ type: 'text', text: text.slice(from, from + chars) });
          fileBytes += chars;
        }
      }
      prepared = { result, fileBytes };
      postMessage({ type: 'prepared', fileBytes: prepared.fileBytes, entries: prepared.result.entries.length } satisfies SaveReply);
    } else {
      postMessage(await save(request.batches));
    }
  } catch (error) {
    postMessage({ type: 'failed', message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) } satisfies SaveReply);
  }
};
