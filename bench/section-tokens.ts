/**
 * Section 1, token counting: exact o200k throughput over the text of a ~13 MB session, in process
 * (bench/tokens.ts, with js-tiktoken as the peer) and through a worker thread, as the app counts.
 */
import { importText } from '../src/core/import/run.ts';
import { entryText } from '../src/core/journal/entry.ts';
import { getCounter } from '../src/core/tokens/index.ts';
import { collectGarbage, duration, fmt, mb, printPairs, printTable, timed, timedAsync } from './report.ts';
import { releaseSession, sessionText } from './session.ts';
import { benchTokens, WARM_PASSES } from './tokens.ts';
import { startCountWorker } from './worker-count.ts';

/** Worker throughput below this share of in-process throughput misses the target. Default 0.9. */
export const WORKER_TARGET = 0.9;
/** Interleaved in-process / worker rounds after the first. Default 5. Unit: rounds. */
export const INTERLEAVED_ROUNDS = 5;

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
  // first so the in-process passes do not pay for the garbage js-tiktoken left behind.
  collectGarbage();
  const inProcess = await getCounter('o200k');
  const worker = await startCountWorker();
  const local = { tokens: 0, coldMs: 0, ms: Number.POSITIVE_INFINITY };
  const remote = { tokens: 0, coldMs: 0, ms: Number.POSITIVE_INFINITY };
  try {
    for (let round = 0; round <= INTERLEAVED_ROUNDS; round++) {
      const a = timed(() => inProcess.count(text));
      const b = await timedAsync(() => worker.count(text));
      if (round === 0) {
        Object.assign(local, { tokens: a.value, coldMs: a.ms });
        Object.assign(remote, { tokens: b.value, coldMs: b.ms });
      } else {
        local.ms = Math.min(local.ms, a.ms);
        remote.ms = Math.min(remote.ms, b.ms);
      }
    }
  } finally {
    await worker.stop();
  }
  const mbS = (ms: number) => bytes / 1e6 / (ms / 1000);
  const ratio = mbS(remote.ms) / mbS(local.ms);
  console.log(`  in process vs worker, interleaved: 1 round (cold for the worker) + best of ${INTERLEAVED_ROUNDS}`);
  printTable(
    ['where', 'tokens', 'start', 'first', 'best', 'MB/s', 'tokens/s'],
    [
      ['in process', local.tokens, '-', duration(local.coldMs), duration(local.ms), fmt(mbS(local.ms)), fmt(local.tokens / (local.ms / 1000))],
      ['worker_threads round trip', remote.tokens, duration(worker.startMs), duration(remote.coldMs), duration(remote.ms), fmt(mbS(remote.ms)), fmt(remote.tokens / (remote.ms / 1000))],
    ],
  );
  printPairs([
    ['same count', remote.tokens === local.tokens && local.tokens === get('tokens') ? 'yes' : 'NO'],
    ['worker / in process', `${fmt(ratio * 100, 1)}% (target >= ${WORKER_TARGET * 100}%: ${ratio >= WORKER_TARGET ? 'met' : 'MISSED'})`],
  ]);
}
