/**
 * Section 1, token counting: exact o200k throughput over the text of a ~13 MB session, in process
 * (bench/tokens.ts, with js-tiktoken as the peer) and through a worker thread, as the app counts.
 */
import { importText } from '../src/core/import/run.ts';
import { entryText } from '../src/core/journal/entry.ts';
import { getCounter } from '../src/core/tokens/index.ts';
import { loadavg } from 'node:os';
import { collectGarbage, duration, fmt, mb, median, printPairs, printTable, timed, timedAsync } from './report.ts';
import { releaseSession, sessionText } from './session.ts';
import { benchTokens, WARM_PASSES } from './tokens.ts';
import { startCountWorker } from './worker-count.ts';

/** Worker throughput below this share of in-process throughput misses the target. Default 0.9. */
export const WORKER_TARGET = 0.9;
/** Interleaved in-process / worker rounds after the first, per run. Default 3. Unit: rounds. */
export const INTERLEAVED_ROUNDS = 3;
/** Runs of the comparison, each with a new worker; the ratio printed is their median. Default 5. */
export const WORKER_RUNS = 5;

/** The text of every entry of the shared session; the JSONL and the journal are not kept. */
function sessionEntriesText(): string {
  const jsonl = sessionText();
  const imported = importText(jsonl, { fileName: 'session-13mb.jsonl' });
  const text = imported.entries.map(entryText).join('\n');
  printPairs([
    ['transcript', `${mb(Buffer.byteLength(jsonl))}, ${fmt(imported.entries.length)} entries (${imported.format})`],
    ['text counted', `${mb(Buffer.byteLength(text))} (entryText of every entry, joined by newlines)`],
    ['passes', `1 cold + best of ${WARM_PASSES} warm`],
  ]);
  return text;
}

export async function tokensSection(): Promise<void> {
  const text = sessionEntriesText();
  // Only the text stays: the JSONL and the journal would otherwise slow every collection.
  releaseSession();
  collectGarbage();
  const bytes = Buffer.byteLength(text);
  console.log();

  const r = await benchTokens(text);
  const get = (key: string) => r[key] ?? Number.NaN;
  printTable(
    ['counter', 'tokens', 'load', 'cold MB/s', 'warm', 'MB/s', 'tokens/s'],
    [
      ['o200k (gpt-tokenizer), ours', get('tokens'), duration(get('o200k_load_ms')), fmt(get('o200k_cold_mb_s')), duration(get('o200k_ms')), fmt(get('o200k_mb_s')), fmt(get('o200k_tokens_s'))],
      ['o200k_base (js-tiktoken)', get('tiktoken_tokens'), duration(get('tiktoken_load_ms')), fmt(get('tiktoken_cold_mb_s')), duration(get('tiktoken_ms')), fmt(get('tiktoken_mb_s')), fmt(get('tiktoken_tokens') / (get('tiktoken_ms') / 1000))],
    ],
  );
  printPairs([
    ['same count', get('agree') === 1 ? 'yes' : `NO (${fmt(get('tokens'))} vs ${fmt(get('tiktoken_tokens'))})`],
    ['ours / js-tiktoken', `${fmt(get('ratio'))}x`],
  ]);
  console.log();

  // In process against worker, pass for pass: on a shared machine the load changes by the
  // second, so the two are interleaved and each side keeps its best pass. The heap is collected
  // first so the in-process passes do not pay for the garbage js-tiktoken left behind. Each run
  // starts a new worker; the count inside the worker and an echo of the text (the copy in and the
  // reply, no count) are timed too, to tell the worker's start, its copy and its count apart.
  collectGarbage();
  const inProcess = await getCounter('o200k');
  const mbS = (ms: number) => bytes / 1e6 / (ms / 1000);
  const rows: Array<Array<string | number>> = [];
  const ratios: number[] = [];
  let agree = true;
  const overall = { local: Infinity, remote: Infinity };
  for (let run = 1; run <= WORKER_RUNS; run++) {
    const worker = await startCountWorker();
    const best = { local: Infinity, remote: Infinity, inside: Infinity, echo: Infinity };
    let first = 0;
    try {
      for (let round = 0; round <= INTERLEAVED_ROUNDS; round++) {
        const a = timed(() => inProcess.count(text));
        const b = await timedAsync(() => worker.count(text));
        const c = await timedAsync(() => worker.echo(text));
        agree &&= a.value === b.value.tokens && a.value === get('tokens') && c.value === text.length;
        if (round === 0) {
          first = b.ms;
          continue;
        }
        best.local = Math.min(best.local, a.ms);
        best.remote = Math.min(best.remote, b.ms);
        best.inside = Math.min(best.inside, b.value.workerMs);
        best.echo = Math.min(best.echo, c.ms);
      }
    } finally {
      await worker.stop();
    }
    const ratio = best.local / best.remote;
    ratios.push(ratio);
    overall.local = Math.min(overall.local, best.local);
    overall.remote = Math.min(overall.remote, best.remote);
    rows.push([run, duration(worker.startMs), duration(first), duration(best.local), duration(best.remote), duration(best.inside), duration(best.echo), `${fmt(ratio * 100, 1)}%`, `${fmt((best.local / best.inside) * 100, 1)}%`, loadavg()[0]!.toFixed(1)]);
  }
  console.log(`  in process vs worker, interleaved: ${WORKER_RUNS} runs, each a new worker, 1 round (cold for the worker) + best of ${INTERLEAVED_ROUNDS}`);
  printTable(['run', 'worker start', 'first round trip', 'in process', 'worker round trip', 'count inside worker', 'echo (copy, no count)', 'worker / in process', 'inside / in process', 'load 1 min'], rows);
  const ratio = median(ratios);
  printPairs([
    ['same count', agree ? 'yes' : 'NO'],
    ['throughput', `${mb(bytes)} of text: in process ${fmt(mbS(overall.local))} MB/s, worker round trip ${fmt(mbS(overall.remote))} MB/s (best of all runs)`],
    ['worker / in process', `median of ${WORKER_RUNS} runs ${fmt(ratio * 100, 1)}% (runs ${ratios.map((r) => `${fmt(r * 100, 1)}%`).join(', ')}; target >= ${WORKER_TARGET * 100}%: ${ratio >= WORKER_TARGET ? 'met' : 'MISSED'})`],
    ['reading', 'start (thread, tsx, rank table) is paid once per worker and is not in the ratio; echo is the copy in and the reply; the count inside the worker against in process shows whether the worker counts slower'],
  ]);
}
