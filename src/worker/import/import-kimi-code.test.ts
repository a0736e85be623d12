// A Kimi Code session folder as the page imports it: each agent's wire.jsonl on its own, told by the
// folder which agent it is, so the session is titled by state.json and the subagent hangs under it.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { importKimiCodeFolder } from '../../cli/load-kimi-code.ts';
import { planKimiCodeFolder } from '../../core/import/kimi-code-folder.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from '../engine/engine.ts';

const SESSION = 'session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b';
const DIR = `public/samples/kimi-code/${SESSION}`;
const PATHS = ['state.json', 'agents/main/wire.jsonl', 'agents/agent-0/wire.jsonl'].map((path) => `${SESSION}/${path}`);

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

describe('importing a Kimi Code session folder', () => {
  it('saves the main agent as the session titled by state.json and the subagent linked to it', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const plan = planKimiCodeFolder(PATHS, `${SESSION}/`, readFileSync(`${DIR}/state.json`, 'utf8'), SESSION);
    const outcomes = [];
    for (const { info, path } of plan.agents) {
      const blob = new Blob([readFileSync(`public/samples/kimi-code/${path}`)]);
      outcomes.push(await engine.importBlob(blob, { jobId: info.agentId, fileName: `${info.agentId}.jsonl`, origin: 'file', format: 'kimi-code', kimiCodeAgent: info }, () => undefined));
    }
    const [main, sub] = outcomes;
    expect(main!.conversation).toMatchObject({ title: 'The parseDuration test fails on "1h30m". Find out why and fix it.', entryCount: 36 });
    expect(main!.conversation.meta).toMatchObject({ sessionId: SESSION, cwd: '/home/dev/timekit', subagentCalls: { 'agent-0': 'Agent_4' } });
    expect(main!.conversation.meta.subagent).toBeUndefined();
    expect(sub!.conversation).toMatchObject({ title: 'explore subagent', entryCount: 7 });
    expect(sub!.conversation.meta.subagent).toEqual({ agentId: 'agent-0', agentType: 'explore', parentSessionId: SESSION });
  });

  it('links the subagent to the Agent call that started it, as the command line does, when its sibling wires go with it', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const plan = planKimiCodeFolder(PATHS, `${SESSION}/`, readFileSync(`${DIR}/state.json`, 'utf8'), SESSION);
    const wire = (path: string) => new Blob([readFileSync(`public/samples/kimi-code/${path}`)]);
    const [main, sub] = plan.agents;
    const request = { jobId: 'sub', fileName: 'agent-0.jsonl', origin: 'file' as const, format: 'kimi-code' as const, kimiCodeAgent: sub!.info, kimiCodeParents: [wire(main!.path)] };
    const page = await engine.importBlob(wire(sub!.path), request, () => undefined);
    const cli = (await importKimiCodeFolder(DIR))!.threads![0]!;
    expect(page.conversation.meta.subagent).toEqual({ agentId: 'agent-0', agentType: 'explore', description: 'Find parseDuration callers', parentToolUseId: 'Agent_4', parentSessionId: SESSION });
    expect(page.conversation.meta.subagent).toEqual(cli.meta.subagent);
    expect(page.conversation.title).toBe(cli.meta.title);
  });

  it('keeps the link to the session when the sibling wires name no call for the subagent', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const plan = planKimiCodeFolder(PATHS, `${SESSION}/`, readFileSync(`${DIR}/state.json`, 'utf8'), SESSION);
    const sub = plan.agents[1]!;
    const stranger = new Blob(['not a wire line\n']);
    const request = { jobId: 'sub', fileName: 'agent-0.jsonl', origin: 'file' as const, format: 'kimi-code' as const, kimiCodeAgent: sub.info, kimiCodeParents: [stranger] };
    const page = await engine.importBlob(new Blob([readFileSync(`public/samples/kimi-code/${sub.path}`)]), request, () => undefined);
    expect(page.conversation.meta.subagent).toEqual({ agentId: 'agent-0', agentType: 'explore', parentSessionId: SESSION });
  });
});
