/**
 * Reads an agent's SQLite store (Cursor's `state.vscdb`, opencode's `opencode.db`) in a worker of
 * its own, started for that file and ended with it: the conversations it holds, or its error (with
 * its name) as thrown by the reader.
 */
import type { AgentStore } from '../../sqlite/agent-store.ts';
import type { StoreDbReply, StoreDbRequest } from './store-db-protocol.ts';

export function readStoreFile(file: File): Promise<AgentStore> {
  const worker = new Worker(new URL('./store-db.worker.ts', import.meta.url), { type: 'module', name: 'foldlab-store-db' });
  return new Promise<AgentStore>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<StoreDbReply>) => {
      const reply = event.data;
      if (reply.ok) resolve(reply.store);
      else reject(Object.assign(new Error(reply.message), { name: reply.name }));
    };
    worker.onerror = (event) => reject(new Error(`The store reader stopped: ${event.message || 'it could not start'}.`));
    worker.postMessage({ file } satisfies StoreDbRequest);
  }).finally(() => worker.terminate());
}
