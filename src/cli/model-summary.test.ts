import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateSession } from '../core/demo/generate-session.ts';
import type { Summarizer } from '../core/compaction/summarizer.ts';
import { runCompact, type CompactReport } from './compact.ts';
import { runFold, type FoldReport } from './fold.ts';
import { checkModelFlags, defaultModelFlags, type ModelFlags } from './model-flags.ts';
import { summaryCommandMain } from './model-summary-main.ts';
import { startModelServer, type ModelServer } from './model-test-server.ts';

const KEY = 'sk-canary-compact-81d3';
let session: string;
let server: ModelServer | undefined;

beforeAll(() => {
  session = join(mkdtempSync(join(tmpdir(), 'foldlab-model-compact-')), 'session.jsonl');
  writeFileSync(session, generateSession({ iterations: 30, seed: 3 }));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function flags(extra: Partial<ModelFlags>): ModelFlags {
  const all = { ...defaultModelFlags(), summarizer: 'model' as const, baseUrl: `${server!.url}/v1`, model: 'gpt-4o-mini', ...extra };
  checkModelFlags(all, false);
  return all;
}

async function main<T extends object>(modelFlags: ModelFlags, run: (summarizer: Summarizer) => Promise<T>, format: (result: T) => string, json = true) {
  let out = '';
  let err = '';
  const code = await summaryCommandMain({ flags: modelFlags, counter: 'o200k', json, run, format }, (text) => (out += text), (text) => (err += text), { env: { FOLDLAB_API_KEY: KEY } });
  return { code, out, err };
}

const compact = (summarizer: Summarizer) => runCompact({ file: session, strategy: 'pi', options: { keepRecentTokens: '3000' }, counter: 'o200k', contextWindow: 30_000, summarizer });

describe('compact --summarizer model', () => {
  it('writes the compaction\'s summaries with the model, after the estimate, and reports what was sent', async () => {
    server = await startModelServer((ask) => `MODEL SUMMARY ${ask.n}`);
    const ran = await main(flags({}), compact, () => '');
    expect(ran.code).toBe(0);
    const report = JSON.parse(ran.out) as CompactReport & { model: { done: { sent: number } } };
    expect(Object.values(report.summaries).length).toBeGreaterThan(0);
    for (const text of Object.values(report.summaries)) expect(text).toMatch(/^MODEL SUMMARY \d+$/);
    expect(report.model.done.sent).toBe(server.asks.length);
    expect(ran.err).toMatch(/^Estimate: \d+ requests to send/);
    expect(`${ran.out}${ran.err}`).not.toContain(KEY);
  });

  it('--dry-run sends nothing; --max-cost refuses an estimate above the cap before the first request', async () => {
    server = await startModelServer((ask) => `MODEL SUMMARY ${ask.n}`);
    const dry = await main(flags({ dryRun: true }), compact, () => '', false);
    expect(dry).toMatchObject({ code: 0, out: expect.stringMatching(/^Estimate: [1-9]\d* requests to send/) });
    const capped = await main(flags({ model: 'gpt-4o', maxCost: 0.000001 }), compact, () => '');
    expect(capped.code).toBe(1);
    expect(capped.err).toMatch(/--max-cost \$0\.0000: the estimate is \$[\d.]+; nothing was sent\./);
    expect(server.asks).toHaveLength(0);
  });
});

describe('fold --simulate --summarizer model', () => {
  it('the simulated block is the model\'s', async () => {
    server = await startModelServer(() => JSON.stringify({ summary: 'MODEL BLOCK: the agent deduplicated transactions.', key_actions: ['edited reconcile.py'], outcomes: [], keywords: [], entities: [] }));
    const fold = (model: Summarizer) => runFold({ file: session, options: {}, counter: 'o200k', contextWindow: 30_000, simulate: '0-5', summarizer: 'model', model });
    const ran = await main(flags({}), fold, () => '');
    expect(ran.code).toBe(0);
    const report = JSON.parse(ran.out) as FoldReport;
    expect(report.simulation).toMatchObject({ source: 'model', summarizer: 'openai' });
    expect(report.simulation!.text).toContain('MODEL BLOCK: the agent deduplicated transactions.');
    expect(server.asks).toHaveLength(1);
  });
});
