import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateSession } from '../core/demo/generate-session.ts';
import { parseEvalArgs } from './eval-args.ts';
import type { EvalReport } from './eval.ts';
import { modelEvalMain } from './model-eval-main.ts';
import { startModelServer, type ModelAsk, type ModelReply, type ModelServer } from './model-test-server.ts';

const KEY = 'sk-canary-eval-5f2a9c';
let session: string;
let server: ModelServer | undefined;

beforeAll(() => {
  // A generated Claude Code session of 30 calls: pi at a 30k window compacts it once, removing facts of four probe categories.
  const dir = mkdtempSync(join(tmpdir(), 'foldlab-model-eval-'));
  session = join(dir, 'session.jsonl');
  writeFileSync(session, generateSession({ iterations: 30, seed: 3 }));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SUMMARY = (ask: ModelAsk) => `SERVER SUMMARY ${ask.n}: the agent fixed reconcile.py.`;
const ANSWER = 'The agent edited src/reconcile.py and ran the tests.';
const GRADE = '{"score": 4, "reason": "Most facts are there."}';

function answering(overrides: Partial<Record<ModelAsk['kind'], (ask: ModelAsk) => ModelReply>> = {}): (ask: ModelAsk) => ModelReply {
  return (ask) => overrides[ask.kind]?.(ask) ?? (ask.kind === 'summary' ? SUMMARY(ask) : ask.kind === 'answer' ? ANSWER : GRADE);
}

interface Ran {
  code: number;
  out: string;
  err: string;
  log: string[];
  /** The number of requests the server had received when each log line was written. */
  logAt: number[];
  waits: number[];
  report: EvalReport;
}

async function run(flags: string[], options: { api?: 'openai' | 'anthropic'; json?: boolean } = {}): Promise<Ran> {
  const api = options.api ?? 'openai';
  const args = parseEvalArgs([
    session, '--strategies', 'pi:keepRecentTokens=3000', '--window', '30000', '--unseen-prefix', '0',
    '--base-url', api === 'anthropic' ? server!.url : `${server!.url}/v1`, '--api', api,
    ...(options.json === false ? [] : ['--json']), ...flags,
  ]);
  let out = '';
  let err = '';
  const log: string[] = [];
  const logAt: number[] = [];
  const waits: number[] = [];
  const code = await modelEvalMain(args, args.modelFlags, (text) => (out += text), (text) => (err += text), {
    env: { FOLDLAB_API_KEY: KEY },
    log: (line) => {
      log.push(line);
      logAt.push(server!.asks.length);
      err += `${line}\n`;
    },
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  });
  const report = out.trim().startsWith('{') ? (JSON.parse(out) as EvalReport) : ({ files: [], skipped: [] } as EvalReport);
  return { code, out, err, log, logAt, waits, report };
}

const strategy = (ran: Ran) => ran.report.files[0]!.strategies[0]!;

describe('eval --summarizer model', () => {
  it('makes every summary with the model (OpenAI, streamed): the report holds the server\'s text, and the estimate is printed before the first request', async () => {
    server = await startModelServer(answering());
    const ran = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini']);
    expect(ran.code).toBe(0);
    const summaries = strategy(ran).summaries;
    expect(summaries.length).toBeGreaterThan(0);
    for (const text of summaries) expect(text).toMatch(/^SERVER SUMMARY \d+: the agent fixed reconcile\.py\.$/);
    expect(server.asks).toHaveLength(summaries.length);
    expect(ran.log[0]).toMatch(/^Estimate: \d+ requests to send, [\d,]+ input tokens, at most [\d,]+ output tokens \(o200k_base\), \$\d/);
    expect(ran.logAt[0]).toBe(0);
    expect(ran.report.model).toMatchObject({ summarizer: `openai|${server.url}/v1|gpt-4o-mini`, done: { sent: summaries.length, cached: 0, input: 1000 * summaries.length, output: 100 * summaries.length } });
    expect(ran.report.model!.estimate.requests).toBe(summaries.length);
    // The page's request: the bundled system prompt, the key as a bearer header, the transcript in per-request fenced tags.
    const ask = server.asks[0]!;
    expect(ask.system).toBe(readFileSync('prompts/summarizer-system.md', 'utf8').trim());
    expect(ask.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(ask.user).toMatch(/<conversation-\d{24}>\n[\s\S]*\n<\/conversation-\d{24}>/);
    expect(ask.user).not.toMatch(/<conversation>\n/);
  });

  it('reads a server that answers with one JSON completion instead of a stream', async () => {
    server = await startModelServer(answering(), { stream: false });
    const ran = await run(['--summarizer', 'model', '--model', 'llama3.1']);
    expect(ran.code).toBe(0);
    expect(strategy(ran).summaries[0]).toMatch(/^SERVER SUMMARY 1/);
    expect(ran.log[0]).toMatch(/unknown price/);
  });

  it('speaks the Anthropic Messages stream with --api anthropic (key in x-api-key)', async () => {
    server = await startModelServer(answering());
    const ran = await run(['--summarizer', 'model', '--model', 'claude-haiku-4-5'], { api: 'anthropic' });
    expect(ran.code).toBe(0);
    expect(strategy(ran).summaries[0]).toMatch(/^SERVER SUMMARY 1/);
    expect(server.asks[0]).toMatchObject({ path: '/v1/messages', api: 'anthropic' });
    expect(server.asks[0]!.headers['x-api-key']).toBe(KEY);
  });

  it('waits for a 429\'s retry-after, says so on stderr, and then gets the summary', async () => {
    let refused = false;
    server = await startModelServer(answering({
      summary: (ask) => {
        if (refused) return SUMMARY(ask);
        refused = true;
        return { status: 429, headers: { 'retry-after': '7' }, json: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } } };
      },
    }));
    const ran = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini']);
    expect(ran.code).toBe(0);
    expect(ran.waits).toEqual([7000]);
    expect(ran.log.some((line) => /^Waiting 7 s \(as the server asked\) before attempt 2 of 4 of a request \(a summary\) to .*rate limited \(HTTP 429\)/.test(line))).toBe(true);
    const summaries = strategy(ran).summaries;
    for (const text of summaries) expect(text).toMatch(/^SERVER SUMMARY \d+/);
    expect(server.asks).toHaveLength(summaries.length + 1);
  });
});

describe('eval --judge', () => {
  it('asks each question of the context right after each compaction and reports the parsed grades by dimension', async () => {
    server = await startModelServer(answering());
    const ran = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini', '--judge']);
    expect(ran.code).toBe(0);
    const judged = strategy(ran).judged!;
    expect(judged).toMatchObject({ at: 'compaction', model: 'gpt-4o-mini', unreadable: 0, overall: 4 });
    expect(judged.questions.length).toBeGreaterThan(1);
    for (const q of judged.questions) expect(q).toMatchObject({ answer: ANSWER, grade: 4, rationale: 'Most facts are there.', atCall: expect.any(Number) });
    expect(new Set(judged.questions.map((q) => q.kind))).toEqual(new Set(['recall', 'artifact', 'continuation']));
    expect([judged.recall, judged.artifact, judged.continuation, judged.decision]).toEqual([4, 4, 4, null]);
    // Answers read the compacted context only, fenced as data; grades read the reference and the answer, fenced too.
    const answers = server.asks.filter((ask) => ask.kind === 'answer');
    expect(answers).toHaveLength(judged.questions.length);
    for (const ask of answers) expect(ask.user).toMatch(/<context-\d{24}>\n[\s\S]*SERVER SUMMARY[\s\S]*\n<\/context-\d{24}>/);
    for (const ask of server.asks.filter((a) => a.kind === 'grade')) expect(ask.user).toMatch(/<reference-\d{24}>[\s\S]*<answer-\d{24}>\nThe agent edited src\/reconcile\.py/);
  });

  it('--judge-at final asks the context of the final call, and --md prints the table shaped like Factory\'s', async () => {
    server = await startModelServer(answering());
    const ran = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini', '--judge', '--judge-at', 'final', '--md'], { json: false });
    expect(ran.code).toBe(0);
    expect(ran.out).toMatch(/Judged \(at the final call, by openai\|http:\/\/127\.0\.0\.1:\d+\/v1\|gpt-4o-mini\)/);
    expect(ran.out).toContain('| configuration | overall | recall | artifact trail | continuation | decision | graded | unreadable grades |');
    expect(ran.out).toMatch(/\| pi \(keepRecentTokens=3000\) \| 4\.00 \| 4\.00 \| 4\.00 \| 4\.00 \| – \| \d+ \| 0 \|/);
  });

  it('reports a malformed grade per question, asked once more, never as 0', async () => {
    server = await startModelServer(answering({ grade: (ask) => (ask.user.includes('Which files did the agent') ? 'I would say four out of five.' : GRADE) }));
    const ran = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini', '--judge']);
    const judged = strategy(ran).judged!;
    const artifact = judged.questions.filter((q) => q.kind === 'artifact');
    expect(artifact.length).toBeGreaterThan(0);
    for (const q of artifact) expect(q).toMatchObject({ grade: null, error: expect.stringMatching(/^the grade could not be read, even when asked again: /) });
    expect(judged.unreadable).toBe(artifact.length);
    expect(judged.artifact).toBeNull();
    expect(judged.overall).toBe(4);
    // Each was asked twice, the second time with the note of what was wrong.
    const artifactGrades = server.asks.filter((ask) => ask.kind === 'grade' && ask.user.includes('Which files did the agent'));
    expect(artifactGrades).toHaveLength(artifact.length * 2);
    expect(artifactGrades.some((ask) => ask.user.includes('Your previous reply could not be used'))).toBe(true);
    expect(ran.err).toMatch(/not graded: .*session\.jsonl pi \(keepRecentTokens=3000\) artifact at call \d+: the grade could not be read/);
  });

  it('says on stderr that --csv holds no judged grades', async () => {
    server = await startModelServer(answering());
    const ran = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini', '--judge', '--csv'], { json: false });
    expect(ran.code).toBe(0);
    expect(ran.out).toMatch(/^file,strategy,calls/);
    expect(ran.err).toContain('The judged grades are not in --csv (its columns are the replay figures): see them with --json or --md.');
  });

  it('judges the offline summaries with --judge alone (only the judge\'s requests are sent)', async () => {
    server = await startModelServer(answering());
    const ran = await run(['--judge', '--judge-model', 'gpt-4o-mini']);
    expect(ran.code).toBe(0);
    expect(server.asks.every((ask) => ask.kind !== 'summary')).toBe(true);
    expect(strategy(ran).judged!.overall).toBe(4);
    expect(ran.report.model).toMatchObject({ summarizer: 'offline', judgeAt: 'compaction' });
  });
});

describe('eval model flags', () => {
  it('refuses a key on the command line, and names what a model run is missing', () => {
    const base = [session, '--strategies', 'pi'];
    expect(() => parseEvalArgs([...base, '--api-key', 'sk-x'])).toThrow(/never a command-line argument .*FOLDLAB_API_KEY/);
    expect(() => parseEvalArgs([...base, '--api-key=sk-x'])).toThrow(/FOLDLAB_API_KEY/);
    expect(() => parseEvalArgs([...base, '--summarizer', 'model', '--model', 'm'])).toThrow(/needs --base-url/);
    expect(() => parseEvalArgs([...base, '--summarizer', 'model', '--base-url', 'http://localhost:11434/v1'])).toThrow(/need --model/);
    expect(() => parseEvalArgs([...base, '--judge-at', 'final'])).toThrow(/go with --judge/);
    expect(() => parseEvalArgs([...base, '--max-cost', '1'])).toThrow(/go with --summarizer model or --judge/);
    expect(() => parseEvalArgs([...base, '--summarizer', 'model', '--model', 'm', '--base-url', 'http://x/v1', '--jobs', '2'])).toThrow(/use --concurrency/);
    expect(() => parseEvalArgs([...base, '--concurrency', '0'])).toThrow(/from 1 to 64/);
    expect(() => parseEvalArgs([...base, '--max-cost', 'lots'])).toThrow(/amount in USD/);
  });

  it('with a model, --model names it and --price-model prices the replayed calls; without one, --model is the price model as before', () => {
    const base = [session, '--strategies', 'pi'];
    const withModel = parseEvalArgs([...base, '--summarizer', 'model', '--base-url', 'http://localhost:11434/v1', '--model', 'llama3.1', '--price-model', 'gpt-4o']);
    expect(withModel).toMatchObject({ model: 'gpt-4o', modelFlags: { model: 'llama3.1', summarizer: 'model', concurrency: 2 } });
    expect(parseEvalArgs([...base, '--model', 'gpt-4o'])).toMatchObject({ model: 'gpt-4o', modelFlags: { summarizer: 'offline' } });
  });
});

describe('eval with a model: several files', () => {
  it('replays the files side by side and reports them in order, each with the server\'s summaries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'foldlab-model-files-'));
    for (const name of ['a.jsonl', 'b.jsonl', 'c.jsonl']) writeFileSync(join(dir, name), readFileSync(session));
    server = await startModelServer(answering());
    const args = parseEvalArgs([dir, '--strategies', 'pi:keepRecentTokens=3000', '--window', '30000', '--unseen-prefix', '0', '--base-url', `${server.url}/v1`, '--summarizer', 'model', '--model', 'gpt-4o-mini', '--concurrency', '3', '--json']);
    let out = '';
    const code = await modelEvalMain(args, args.modelFlags, (text) => (out += text), () => undefined, { env: {} });
    expect(code).toBe(0);
    const report = JSON.parse(out) as EvalReport;
    expect(report.files.map((file) => file.file.split('/').at(-1))).toEqual(['a.jsonl', 'b.jsonl', 'c.jsonl']);
    const summaries = report.files.flatMap((file) => file.strategies[0]!.summaries);
    expect(summaries.length).toBe(server.asks.length);
    for (const text of summaries) expect(text).toMatch(/^SERVER SUMMARY \d+/);
    expect(server.asks.every((ask) => ask.headers.authorization === undefined)).toBe(true); // no key set: a local server needs none
  });
});

describe('eval with a model: spend', () => {
  it('--max-cost refuses an estimate above the cap before the first request', async () => {
    server = await startModelServer(answering());
    const ran = await run(['--summarizer', 'model', '--model', 'gpt-4o', '--max-cost', '0.000001']);
    expect(ran.code).toBe(1);
    expect(server.asks).toHaveLength(0);
    expect(ran.err).toMatch(/--max-cost \$0\.0000: the estimate is \$[\d.]+; nothing was sent\./);
    expect(ran.out).toBe('');
  });

  it('--max-cost refuses a model whose price is unknown: the cap cannot be checked', async () => {
    server = await startModelServer(answering());
    const ran = await run(['--summarizer', 'model', '--model', 'qwen3:8b', '--max-cost', '5']);
    expect(ran.code).toBe(1);
    expect(server.asks).toHaveLength(0);
    expect(ran.err).toMatch(/the price of qwen3:8b is unknown, so the cap cannot be checked; nothing was sent/);
  });

  it('--dry-run prints the estimate only and sends nothing', async () => {
    server = await startModelServer(answering());
    const ran = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini', '--judge', '--dry-run'], { json: false });
    expect(ran.code).toBe(0);
    expect(server.asks).toHaveLength(0);
    expect(ran.out).toMatch(/^Estimate: \d+ requests to send/);
    expect(ran.out).toMatch(/\n {2}summaries gpt-4o-mini: \d+ requests/);
    expect(ran.out).toMatch(/\n {2}judge {5}gpt-4o-mini: \d+ requests/);
  });

  it('stops at insufficient_quota: nothing more is sent, the partial report and the cache keep what was done', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'foldlab-model-cache-'));
    server = await startModelServer(answering({
      summary: (ask) => (ask.n === 1 ? SUMMARY(ask) : { status: 429, json: { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } } }),
    }));
    const ran = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini', '--judge', '--cache', cache]);
    expect(ran.code).toBe(1);
    expect(server.asks).toHaveLength(2); // the refused request was not retried, and nothing was sent after it
    expect(ran.report.model!.stopped).toMatch(/quota or spend limit was reached \(HTTP 429, insufficient_quota\)/);
    expect(ran.report.model!.done.sent).toBe(1);
    expect(strategy(ran).error).toMatch(/insufficient_quota|spend limit/);
    expect(ran.log.at(-1)).toMatch(/^Stopped: .* What was done is in the report and in /);
    expect(readdirSync(cache).filter((name) => name.endsWith('.json'))).toHaveLength(1);
    // Every judge question after the stop says why it has no grade: none is a 0.
    for (const q of strategy(ran).judged?.questions ?? []) expect(q).toMatchObject({ grade: null, error: expect.stringMatching(/RunStoppedError/) });
  });
});

describe('eval with a model: the key', () => {
  it('never shows the key, not even when the server echoes it in a refusal', async () => {
    server = await startModelServer(() => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', code: 'invalid_api_key' } } }));
    const ran = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini', '--judge']);
    expect(strategy(ran).error).toMatch(/401/);
    expect(server.asks.length).toBeGreaterThan(0);
    expect(`${ran.out}\n${ran.err}`).not.toContain(KEY);
  });
});

describe('eval with a model: progress', () => {
  it('prints done / total, tokens and cost so far on stderr, and nothing of it under --json', async () => {
    server = await startModelServer(answering());
    const text = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini'], { json: false });
    expect(text.err).toMatch(/^1\/2 requests · 1,000 in, 100 out · \$0\.0002 so far/m);
    expect(text.err).toMatch(/^2\/2 requests · 2,000 in, 200 out · \$0\.0004 so far$/m);
    const json = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini']);
    expect(json.err).not.toMatch(/requests · /);
  });
});

describe('eval with a model: --cache', () => {
  it('a second run sends zero requests and gives the same report', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'foldlab-model-cache-'));
    server = await startModelServer(answering());
    const first = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini', '--judge', '--cache', cache]);
    const sent = server.asks.length;
    expect(sent).toBeGreaterThan(2);
    expect(first.report.model!.done.sent).toBe(sent);
    const second = await run(['--summarizer', 'model', '--model', 'gpt-4o-mini', '--judge', '--cache', cache]);
    expect(server.asks).toHaveLength(sent);
    expect(second.log[0]).toMatch(/^Estimate: 0 requests to send \(\d+ more answered by the cache\)/);
    expect(second.report.model!.done).toMatchObject({ sent: 0, cached: sent });
    expect(strategy(second).summaries).toEqual(strategy(first).summaries);
    expect(strategy(second).judged).toEqual(strategy(first).judged);
    // No key anywhere: not in the output, the log or a cache file.
    const files = readdirSync(cache).map((name) => readFileSync(join(cache, name), 'utf8')).join('\n');
    for (const text of [first.out, first.err, second.out, second.err, files]) expect(text).not.toContain(KEY);
  });

  it('a model of another name misses the cache', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'foldlab-model-cache-'));
    server = await startModelServer(answering());
    await run(['--summarizer', 'model', '--model', 'gpt-4o-mini', '--cache', cache]);
    const sent = server.asks.length;
    await run(['--summarizer', 'model', '--model', 'gpt-4.1-mini', '--cache', cache]);
    expect(server.asks).toHaveLength(sent * 2);
  });
});
