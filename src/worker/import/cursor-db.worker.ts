/**
 * The page's Cursor chat store reader: reads a picked `state.vscdb` with sql.js off the main thread
 * (a large store takes seconds) and answers with its conversations. Started only when such a file
 * is imported; sql.js's .wasm comes from the site itself (precached, so it works offline).
 */
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { readCursorDatabase } from '../../sqlite/cursor-db.ts';
import type { CursorDbReply, CursorDbRequest } from './cursor-db-protocol.ts';

self.onmessage = async (event: MessageEvent<CursorDbRequest>) => {
  const { file } = event.data;
  let reply: CursorDbReply;
  try {
    const store = await readCursorDatabase(new Uint8Array(await file.arrayBuffer()), file.name, { locateFile: () => wasmUrl });
    reply = { ok: true, store };
  } catch (error) {
    reply = { ok: false, name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
