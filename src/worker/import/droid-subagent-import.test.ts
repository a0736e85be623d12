import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runInspect } from '../../cli/inspect.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { droidTaskCallFor } from '../../store/droid-caller.ts';
import { Engine } from '../engine/engine.ts';

const DIR = 'public/samples/droid';
const PARENT = 'e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70.jsonl';
const SUBAGENT = '5b9d2f4e-8c13-4a7b-b6e0-2d4f6a8c1e93.jsonl';

describe('a Droid subagent imported with its caller\'s session file', () => {
  it('comes into the library with the type and description the command line gives it', async () => {
    const files = new Map([PARENT, SUBAGENT].map((name) => [name, new File([readFileSync(`${DIR}/${name}`)], name)]));
    const droidTaskCall = await droidTaskCallFor(files.get(SUBAGENT)!, files);
    const db = new FoldlabDatabase(`t-${Math.random()}`);
    const page = await new Engine(db).importBlob(files.get(SUBAGENT)!, { jobId: 'i', fileName: SUBAGENT, origin: 'file', ...(droidTaskCall ? { droidTaskCall } : {}) }, () => undefined);
    const row = await db.conversations.get(page.conversation.id);
    await db.delete();
    const cli = await runInspect(`${DIR}/${SUBAGENT}`, 'chars4');
    expect(row!.meta.subagent).toEqual({ parentSessionId: 'e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70', parentToolUseId: 'toolu_01TaskReview3nV8cW2yL5q', agentType: 'code-reviewer', description: 'Review the CSV export' });
    expect(row!.meta.subagent).toEqual(cli.subagent);
    expect(page.report.subagent).toEqual(cli.subagent);
  });
});
