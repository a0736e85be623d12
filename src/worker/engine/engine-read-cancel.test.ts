// A Cancel sent while a large file is read reaches the worker during reading: the reading loop
// gives the event loop a turn at least every few tens of milliseconds, even when the file's
// chunks are all ready (a read then resolves without ever leaving the microtask queue).
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from './engine.ts';
import type { JobProgress } from './protocol.ts';

let db: FoldlabDatabase | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

/**
 * A Claude Code session file of about `mb` megabytes (the real sample, repeated), read as the
 * browser reads a file: in 64 KB chunks. Every chunk is ready at once, the case where reading
 * never leaves the microtask queue by itself.
 */
function largeFile(mb: number): Blob {
  const sample = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
  const bytes = new Uint8Array(Math.ceil((mb * 1024 * 1024) / sample.length) * sample.length);
  for (let at = 0; at < bytes.length; at += sample.length) bytes.set(sample, at);
  const CHUNK = 64 * 1024;
  let at = 0;
  const stream = () => new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + CHUNK));
      at += CHUNK;
    },
  });
  return { size: bytes.length, stream } as unknown as Blob;
}

describe('Engine.importBlob reading', () => {
  it('sees a Cancel sent as a task while it reads, before the whole file is read', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const seen: JobProgress[] = [];
    const blob = largeFile(64);
    const pending = engine.importBlob(blob, { jobId: 'read-cancel', fileName: 'big.jsonl', origin: 'file' }, (p) => seen.push(p));
    // As the page's Cancel arrives in the worker: a message event, a task of its own.
    setTimeout(() => engine.cancel('read-cancel'), 0);
    await expect(pending).rejects.toThrow(/Cancelled/);
    const read = seen.filter((p) => p.phase === 'reading');
    expect(seen.some((p) => p.phase !== 'reading')).toBe(false);
    expect(read.at(-1)?.done ?? 0).toBeLessThan(blob.size);
    expect(await db.conversations.count()).toBe(0);
  }, 60_000);
});
