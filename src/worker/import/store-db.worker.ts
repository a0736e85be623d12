/**
 * The page's agent store reader: reads a picked SQLite store (Cursor's `state.vscdb`, opencode's
 * `opencode.db`) with sql.js off the main thread (a large store takes seconds) and answers with its
 * conversations. Started only when such a file is imported; sql.js's .wasm comes from the site
 * itself (precached, so it works offline).
 */
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { readAgentStore } from '../../sqlite/agent-store.ts';
import type { StoreDbReply, StoreDbRequest } from './store-db-protocol.ts';

self.onmessage = async (event: MessageEvent<StoreDbRequest>) => {
  const { file } = event.data;
  let reply: StoreDbReply;
  try {
    const store = await readAgentStore(new Uint8Array(await file.arrayBuffer()), file.name, { locateFile: () => wasmUrl });
    reply = { ok: true, store };
  } catch (error) {
    reply = { ok: false, name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
