/**
 * Reads a Cursor chat store (`state.vscdb`) in a worker of its own, started for that file and ended
 * with it: the conversations it holds, or its error (with its name) as thrown by the reader.
 */
import type { CursorStore } from '../../core/import/cursor-store.ts';
import type { CursorDbReply, CursorDbRequest } from './cursor-db-protocol.ts';

export function readCursorStoreFile(file: File): Promise<CursorStore> {
  const worker = new Worker(new URL('./cursor-db.worker.ts', import.meta.url), { type: 'module', name: 'foldlab-cursor-db' });
  return new Promise<CursorStore>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<CursorDbReply>) => {
      const reply = event.data;
      if (reply.ok) resolve(reply.store);
      else reject(Object.assign(new Error(reply.message), { name: reply.name }));
    };
    worker.onerror = (event) => reject(new Error(`The Cursor chat store reader stopped: ${event.message || 'it could not start'}.`));
    worker.postMessage({ file } satisfies CursorDbRequest);
  }).finally(() => worker.terminate());
}
