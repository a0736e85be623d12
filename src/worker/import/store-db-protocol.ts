/** What the page and its agent store reader say to each other: one SQLite file in, its conversations (Cursor's or opencode's) or an error out. */
import type { AgentStore } from '../../sqlite/agent-store.ts';

export interface StoreDbRequest {
  file: File;
}

export type StoreDbReply = { ok: true; store: AgentStore } | { ok: false; name: string; message: string };
