/**
 * `npm run bench`: prints throughput and latency figures for token counting, import, the browser
 * main thread, strategy planning and memory folding. It only reports (no assertions on time); each section is
 * guarded, so one failing prints its error and the others still run.
 *
 * Environment:
 * - BENCH_ONLY=tokens,import,browser,strategies,summarizer,folding,replay,first-visit,hostile,pool,live,compare,hostile-page,save,sweep runs a subset (comma-separated section ids);
 * - BENCH_AGENTS=kimi-code,droid measures only those agent samples in section 2's agent table
 *   (BENCH_AGENT_BYTES sets their size);
 * - CHROMIUM_PATH: the browser for section 3 (default /usr/bin/chromium);
 * - BENCH_KEEP_SITE=1 keeps the build in bench/out/site (by default it is removed after section 3,
 *   because `eslint .` would lint its minified JavaScript); likewise bench/out/fold-site for section 6,
 *   which serves it on port 4319, and bench/out/timeline-site (the 100k-iteration timeline page of
 *   bench/timeline-page, port 4321).
 */
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { browserSection } from './section-browser.ts';
import { compareSection } from './section-compare.ts';
import { firstVisitSection } from './section-first-visit.ts';
import { foldingSection } from './section-folding.ts';
import { hostilePageSection } from './section-hostile-page.ts';
import { hostileSection } from './section-hostile.ts';
import { importSection } from './section-import.ts';
import { liveSection } from './section-live.ts';
import { poolSection } from './section-pool.ts';
import { replaySection } from './section-replay.ts';
import { saveSection } from './section-save.ts';
import { strategiesSection } from './section-strategies.ts';
import { summarizerSection } from './section-summarizer.ts';
import { sweepSection } from './section-sweep.ts';
import { tokensSection } from './section-tokens.ts';
import { collectGarbage, duration, errorText } from './report.ts';

interface Section {
  id: string;
  title: string;
  run: () => Promise<void>;
}

const SECTIONS: readonly Section[] = [
  { id: 'tokens', title: '1. Token counting (o200k, in process and in a worker)', run: tokensSection },
  { id: 'import', title: '2. Import throughput (~100 MB Claude Code JSONL, streamed)', run: importSection },
  { id: 'browser', title: '3. Browser: import + count of ~13 MB, main-thread long tasks', run: browserSection },
  { id: 'strategies', title: '4. Strategy planning, and pi against LangChain trimMessages', run: strategiesSection },
  { id: 'summarizer', title: '5. Summarizer overhead without a model (100k-token head), WebLLM speed', run: summarizerSection },
  { id: 'folding', title: '6. Memory folding: plan at 1k/10k/100k iterations, incremental re-fold, timeline drawing', run: foldingSection },
  { id: 'replay', title: '7. Replay and compare: 1k / 10k calls per strategy, eval over 50 real sessions', run: replaySection },
  { id: 'first-visit', title: '8. First visit: main-thread long tasks while the demo seeds and after a large import renders', run: firstVisitSection },
  { id: 'hostile', title: '9. Hostile input: long runs counted exactly, a 200 MB JSONL and a 100 MB single line streamed, cancel latency, inspect of a 30 MB line', run: hostileSection },
  { id: 'pool', title: '10. Counting with a pool of workers: ~13 MB session, in place against 1 thread, the app pool and N threads', run: poolSection },
  { id: 'live', title: '11. Live session: main-thread long tasks per turn (the scripted demo, then 30 generated turns)', run: liveSection },
  { id: 'compare', title: '12. Compare in the browser: main-thread long tasks while 4 configurations run and their results show', run: compareSection },
  { id: 'hostile-page', title: '13. Hostile input in the page: clicks answered while a 200 MB JSONL and a 100 MB single line import (Chromium)', run: () => hostilePageSection() },
  { id: 'save', title: '14. Saving an import to IndexedDB in Chromium: rows/s, MB/s and progress gaps, batches by rows against rows + size', run: saveSection },
  { id: 'sweep', title: '15. Sweep: 50 points of pi over 50 real sessions with --jobs 2 (goal < 2 min), and how it scales with threads', run: sweepSection },
];

function selected(): Section[] {
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (only === undefined || only.length === 0) return [...SECTIONS];
  const unknown = only.filter((id) => !SECTIONS.some((s) => s.id === id));
  if (unknown.length > 0) {
    throw new Error(`BENCH_ONLY names unknown section(s) ${unknown.join(', ')}; use ${SECTIONS.map((s) => s.id).join(', ')}.`);
  }
  return SECTIONS.filter((s) => only.includes(s.id));
}

function header(): void {
  const cpu = cpus();
  console.log('Foldlab benchmarks');
  console.log(`  date     ${new Date().toISOString()}`);
  console.log(`  machine  ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${platform()} ${release()} ${arch()}`);
  console.log(`  node     ${process.version}`);
  console.log(`  load     ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min; figures are noisy when this exceeds the CPU count)`);
}

async function main(): Promise<number> {
  const sections = selected();
  header();
  const started = performance.now();
  let failed = 0;
  for (const section of sections) {
    console.log();
    console.log(`== ${section.title} ==`);
    collectGarbage();
    const start = performance.now();
    try {
      await section.run();
      console.log(`  (section took ${duration(performance.now() - start)})`);
    } catch (error) {
      failed++;
      console.log(`  SECTION FAILED after ${duration(performance.now() - start)}: ${errorText(error)}`);
      if (error instanceof Error && error.stack) console.log(error.stack.split('\n').slice(1, 6).map((l) => `    ${l.trim()}`).join('\n'));
    }
  }
  console.log();
  console.log(`Done in ${duration(performance.now() - started)}: ${sections.length - failed} of ${sections.length} sections ran.`);
  return failed === sections.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(errorText(error));
    process.exit(1);
  },
);
