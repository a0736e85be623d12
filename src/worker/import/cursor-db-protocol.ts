/** What the page and its Cursor chat store reader say to each other: one file in, its conversations or an error out. */
import type { CursorStore } from '../../core/import/cursor-store.ts';

export interface CursorDbRequest {
  file: File;
}

export type CursorDbReply = { ok: true; store: CursorStore } | { ok: false; name: string; message: string };
