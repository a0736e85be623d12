// Saving subagents: a 1.0 session's inline threads become conversations of their own (replaced, not
// copied, on re-import), and a subagent file keeps the type and description its .meta.json gave.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from '../engine/engine.ts';

const DIR = 'src/core/import/__fixtures__/claude-code';
const INLINE = readFileSync(`${DIR}/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl`);
const AGENT = readFileSync(`${DIR}/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a36efb2a1231c41e2.jsonl`);

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

describe('importing subagents', () => {
  it('saves each inline subagent as its own conversation under the session, once', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const request = { jobId: 'j1', fileName: 'fe5e1c67.jsonl', origin: 'file' as const };
    const outcome = await engine.importBlob(new Blob([INLINE]), request, () => undefined);
    expect(outcome.conversation.entryCount).toBe(23);
    const rows = await db.conversations.toArray();
    const threads = rows.filter((row) => row.meta.subagent !== undefined).sort((a, b) => a.fileName.localeCompare(b.fileName));
    expect(threads.map((row) => [row.fileName, row.title, row.entryCount, row.meta.subagent?.parentSessionId])).toEqual([
      ['fe5e1c67.jsonl#sidechain-1', 'Build TODO components', 18, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'],
      ['fe5e1c67.jsonl#sidechain-2', 'Setup Next.js project', 68, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'],
      ['fe5e1c67.jsonl#sidechain-3', 'Create data models', 80, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'],
      ['fe5e1c67.jsonl#sidechain-4', 'Implement state management', 50, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'],
      ['fe5e1c67.jsonl#sidechain-5', 'Create main page integration', 106, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'],
    ]);
    expect(await db.entries.count()).toBe(23 + 18 + 68 + 80 + 50 + 106);
    // Re-importing the session replaces its threads instead of adding copies.
    await engine.importBlob(new Blob([INLINE]), { ...request, jobId: 'j2', replaceId: outcome.conversation.id }, () => undefined);
    expect(await db.conversations.count()).toBe(6);
    expect(await db.entries.count()).toBe(23 + 18 + 68 + 80 + 50 + 106);
  }, 60_000);

  it('keeps the metadata of a subagent file', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const outcome = await engine.importBlob(new Blob([AGENT]), {
      jobId: 'j', fileName: 'agent-a36efb2a1231c41e2.jsonl', origin: 'file', subagentMeta: { agentType: 'general-purpose', description: 'Round 2: alice comparison' },
    }, () => undefined);
    expect(outcome.conversation.title).toBe('Round 2: alice comparison');
    expect(outcome.conversation.meta.subagent).toEqual({
      parentSessionId: 'ef958aa1-0e93-49f0-bb71-150f63befcd1', agentId: 'a36efb2a1231c41e2', agentType: 'general-purpose', description: 'Round 2: alice comparison',
    });
  });
});
