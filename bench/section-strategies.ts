/**
 * Section 4, strategy planning: every registered strategy's `plan` over 5k, 50k and 500k synthetic
 * entries, then "append one entry and replan" (a full replan); pi's incremental replan (PiCutTracker:
 * append one entry, cut again); then pi's cut against LangChain's trimMessages on the same messages
 * and budget (time, and orphaned tool results over a sweep of budgets).
 */
import type { Strategy } from '../src/core/compaction/strategy.ts';
import { makeInput } from '../src/core/compaction/testing.ts';
import type { CompactionInput } from '../src/core/compaction/types.ts';
import type { Entry } from '../src/core/journal/entry.ts';
import { TokenIndex } from '../src/core/tokens/prefix-sums.ts';
import { collectGarbage, duration, errorText, fmt, median, printPairs, printTable, timed, timedAsync, type Cell } from './report.ts';
import { roleMix, synthetic } from './synthetic.ts';
import { entryOrphans, messageOrphans, toMessages, trimLast } from './trim-peer.ts';

/** Transcript sizes planned. Unit: entries. */
export const PLAN_SIZES = [5_000, 50_000, 500_000];
/** Warm plan runs after the first (cold) one, at most. Default 5. Unit: runs. */
export const PLAN_RUNS = 5;
/** Warm plan runs stop once they have taken this long (at least 1 run). Default 5,000. Unit: ms. */
export const PLAN_BUDGET_MS = 5_000;
/** Append-and-replan runs, at most (each appends one more entry). Default 20. Unit: runs. */
export const REPLAN_RUNS = 20;
/** Replan runs stop once they have taken this long (at least 3 runs). Default 6,000. Unit: ms. */
export const REPLAN_BUDGET_MS = 6_000;
/** Appends timed with PiCutTracker, each followed by a cut (the "replan after append" figure). Default 1,000. Unit: appends. */
export const INCREMENTAL_RUNS = 1_000;
/** pi's replan after an append must stay below this at 500k entries (the target). Default 5. Unit: µs. */
export const INCREMENTAL_TARGET_US = 5;
/** A size is skipped when the previous sizes' growth predicts one plan run longer than this. Default 60,000. Unit: ms. */
export const SKIP_ABOVE_MS = 60_000;
/** Message counts for the trimMessages comparison. */
export const PEER_SIZES = [2_500, 5_000, 10_000, 20_000];
/** The budget both keep: pi's default keepRecentTokens. Default 20,000. Unit: tokens. */
export const PEER_BUDGET = 20_000;
/** Runs of trimMessages per size, at most. Default 3. Unit: runs. */
export const PEER_RUNS = 3;
/** trimMessages runs stop once they have taken this long (at least 1 run). Default 6,000. Unit: ms. */
export const PEER_BUDGET_MS = 6_000;
/** Budgets in the orphan sweep, evenly from 1% to 100% of the transcript's tokens. Default 96. Unit: budgets. */
export const SWEEP_BUDGETS = 96;
/** Messages in the orphan sweep (trimMessages is quadratic; the smallest comparison size). Default 2,500. Unit: messages. */
export const SWEEP_SIZE = 2_500;

/** Repeats `run` up to `max` times or until `budgetMs` has passed (at least `min` times); returns each run's ms. */
function repeat(run: () => void, max: number, budgetMs: number, min: number): number[] {
  const times: number[] = [];
  const start = performance.now();
  while (times.length < max && (times.length < min || performance.now() - start < budgetMs)) times.push(timed(run).ms);
  return times;
}

async function repeatAsync(run: () => Promise<unknown>, max: number, budgetMs: number, min: number): Promise<number[]> {
  const times: number[] = [];
  const start = performance.now();
  while (times.length < max && (times.length < min || performance.now() - start < budgetMs)) times.push((await timedAsync(run)).ms);
  return times;
}

/** Each strategy module on its own, for when the registry fails to load because one of them does. */
const MODULES: ReadonlyArray<{ id: string; load: () => Promise<Record<string, unknown>>; name: string }> = [
  { id: 'augment', load: () => import('../src/core/strategies/augment.ts'), name: 'augmentStrategy' },
  { id: 'pi', load: () => import('../src/core/strategies/pi.ts'), name: 'piStrategy' },
  { id: 'layered', load: () => import('../src/core/strategies/layered.ts'), name: 'layeredStrategy' },
  { id: 'budget', load: () => import('../src/core/strategies/budget.ts'), name: 'budgetStrategy' },
];

async function loadStrategies(): Promise<Array<{ id: string; strategy?: Strategy; error?: string }>> {
  try {
    const { STRATEGIES } = await import('../src/core/strategies/index.ts');
    return Object.entries(STRATEGIES).map(([id, strategy]) => ({ id, strategy }));
  } catch (registryError) {
    console.log(`  The strategy registry did not load (${errorText(registryError)}); loading each strategy on its own.`);
    return Promise.all(MODULES.map(async ({ id, load, name }) => {
      try {
        const strategy = (await load())[name] as Strategy | undefined;
        return strategy ? { id, strategy } : { id, error: `${name} is not exported` };
      } catch (error) {
        return { id, error: `import failed: ${errorText(error)}` };
      }
    }));
  }
}

interface Row {
  cold: number;
  warm: number;
  warmRuns: number;
  replan: number;
  replanRuns: number;
  summary: string;
}

function planRow(strategy: Strategy, entries: readonly Entry[], counts: readonly number[], length: number): Row {
  const options = strategy.parse({});
  const input: CompactionInput = makeInput(entries.slice(0, length), { counts: counts.slice(0, length) });
  const first = timed(() => strategy.plan(input, options));
  const warm = repeat(() => strategy.plan(input, options), PLAN_RUNS, PLAN_BUDGET_MS, 1);
  const plan = first.value;
  const summary = plan.nothingToDo
    ? 'nothing to do'
    : `${plan.summaries.length} summary task(s), ${fmt(plan.tokensBefore)} -> ~${fmt(plan.tokensAfterEstimate)} tokens`;

  // Append one entry, then replan: the TokenIndex grows in place (O(1)); the caller's new entries
  // array is built outside the timed part, as an app appending to its own list would.
  const replans: number[] = [];
  const start = performance.now();
  let size = length;
  while (size < entries.length && replans.length < REPLAN_RUNS && (replans.length < 3 || performance.now() - start < REPLAN_BUDGET_MS)) {
    const next: CompactionInput = { ...input, entries: entries.slice(0, size + 1) };
    const count = counts[size]!;
    replans.push(timed(() => {
      input.tokens.append(count);
      strategy.plan(next, options);
    }).ms);
    size++;
  }
  return { cold: first.ms, warm: median(warm), warmRuns: warm.length, replan: median(replans), replanRuns: replans.length, summary };
}

async function planning(): Promise<void> {
  const strategies = await loadStrategies();
  const rows: Cell[][] = [];
  const incremental: Cell[][] = [];
  let incrementalAtMax = Number.NaN;
  const history = new Map<string, number[]>();
  for (const length of PLAN_SIZES) {
    collectGarbage();
    const made = timed(() => synthetic(length, Math.max(REPLAN_RUNS, INCREMENTAL_RUNS)));
    const { entries, counts } = made.value;
    let total = 0;
    for (let i = 0; i < length; i++) total += counts[i]!;
    console.log(`  ${fmt(length)} entries: ${roleMix(entries.slice(0, length))}; ${fmt(total)} tokens (chars/4, precomputed); made in ${duration(made.ms)}`);
    for (const { id, strategy, error } of strategies) {
      const label = [id, `${fmt(length / 1000)}k`];
      if (!strategy) {
        rows.push([...label, 'ERROR', error ?? 'not loaded', '', '']);
        continue;
      }
      const past = history.get(id) ?? [];
      if (past.length >= 2) {
        const [a, b] = past.slice(-2) as [number, number];
        const predicted = b * Math.max(10, b / Math.max(a, 0.001));
        if (predicted > SKIP_ABOVE_MS) {
          rows.push([...label, 'skipped', `one plan predicted at ~${duration(predicted)} from the smaller sizes`, '', '']);
          continue;
        }
      }
      try {
        const row = planRow(strategy, entries, counts, length);
        history.set(id, [...past, row.warm]);
        rows.push([...label, duration(row.cold), `${duration(row.warm)} (${row.warmRuns})`, `${fmt(Math.round(row.replan * 1000))} µs (${row.replanRuns})`, row.summary]);
      } catch (err) {
        history.set(id, [...past, Number.POSITIVE_INFINITY]);
        rows.push([...label, 'ERROR', errorText(err).slice(0, 160), '', '']);
      }
    }
    try {
      const row = await incrementalRow(entries, counts, length);
      if (length === PLAN_SIZES[PLAN_SIZES.length - 1]) incrementalAtMax = row.appendUs;
      incremental.push(row.cells);
    } catch (err) {
      incremental.push([`${fmt(length / 1000)}k`, 'ERROR', errorText(err).slice(0, 160), '', '', '']);
    }
  }
  console.log();
  printTable(['strategy', 'entries', 'first plan', 'plan: median (runs)', 'append 1 + full replan: median (runs)', 'plan says'], rows);
  console.log(`  Options: each strategy's defaults (parse({})); context window 200,000. Appended entries alternate user / assistant text.`);
  console.log();
  console.log('  pi incremental: append 1 + cut (PiCutTracker, the replan after an append):');
  printTable(['entries', 'build tracker', 'cut: median (runs)', `append 1 + cut: median (${fmt(INCREMENTAL_RUNS)})`, 'slowest', 'cut says'], incremental);
  const maxLabel = `${fmt(PLAN_SIZES[PLAN_SIZES.length - 1]! / 1000)}k`;
  printPairs([
    [`replan after append at ${maxLabel}`, Number.isNaN(incrementalAtMax) ? 'not measured' : `${fmt(incrementalAtMax)} µs (target < ${INCREMENTAL_TARGET_US} µs: ${incrementalAtMax < INCREMENTAL_TARGET_US ? 'met' : 'MISSED'})`],
  ]);
}

/**
 * PiCutTracker over the first `length` entries, then INCREMENTAL_RUNS appends each followed by a
 * cut at pi's default keepRecentTokens; the final cut is checked against findCutPoint.
 */
async function incrementalRow(entries: readonly Entry[], counts: readonly number[], length: number): Promise<{ cells: Cell[]; appendUs: number }> {
  const { PiCutTracker } = await import('../src/core/strategies/pi/incremental.ts');
  const { findCutPoint } = await import('../src/core/strategies/pi/cut-point.ts');
  const { piStrategy } = await import('../src/core/strategies/pi.ts');
  const keep = piStrategy.parse({}).keepRecentTokens;
  const tokens = new TokenIndex(counts.slice(0, length));
  const built = timed(() => new PiCutTracker(entries.slice(0, length), tokens, 0));
  const tracker = built.value;
  const cuts = repeat(() => tracker.cut(keep), 1_000, 1_000, 20);
  const appends: number[] = [];
  for (let i = length; i < Math.min(entries.length, length + INCREMENTAL_RUNS); i++) {
    const entry = entries[i]!;
    const count = counts[i]!;
    appends.push(timed(() => {
      tracker.append(entry, count);
      tracker.cut(keep);
    }).ms);
  }
  const got = tracker.cut(keep);
  const expected = findCutPoint(tracker.entries, tokens, 0, tracker.length, keep);
  const same = JSON.stringify(got) === JSON.stringify(expected);
  const says = got
    ? `cut at #${fmt(got.firstKeptIndex)}, ${fmt(got.keptTokens)} tokens kept; ${same ? 'same cut as findCutPoint' : 'DIFFERS from findCutPoint'}`
    : `no cut; ${same ? 'same as findCutPoint' : 'DIFFERS from findCutPoint'}`;
  const appendUs = median(appends) * 1000;
  return {
    cells: [`${fmt(length / 1000)}k`, duration(built.ms), `${fmt(median(cuts) * 1000)} µs (${cuts.length})`, `${fmt(appendUs)} µs`, duration(Math.max(...appends)), says],
    appendUs,
  };
}

async function peer(): Promise<void> {
  const { findCutPoint } = await import('../src/core/strategies/pi/cut-point.ts');
  const { piStrategy } = await import('../src/core/strategies/pi.ts');
  const rows: Cell[][] = [];
  let ratioAt20k = Number.NaN;
  for (const n of PEER_SIZES) {
    collectGarbage();
    const { entries, counts } = synthetic(n);
    const messages = toMessages(entries);
    const input = makeInput(entries, { counts });
    const options = piStrategy.parse({ keepRecentTokens: PEER_BUDGET });
    let kept = 0;
    const trim = await repeatAsync(async () => {
      kept = (await trimLast(messages, counts, PEER_BUDGET)).length;
    }, PEER_RUNS, PEER_BUDGET_MS, 1);
    let cut = 0;
    // Warm-up, then enough runs for a stable median of a sub-millisecond call.
    for (let i = 0; i < 5; i++) findCutPoint(entries, input.tokens, 0, n, PEER_BUDGET);
    const cuts = repeat(() => {
      cut = findCutPoint(entries, input.tokens, 0, n, PEER_BUDGET)?.firstKeptIndex ?? n;
    }, 200, 1_000, 20);
    piStrategy.plan(input, options);
    const plans = repeat(() => piStrategy.plan(input, options), 50, 2_000, 5);
    const t = median(trim);
    const c = median(cuts);
    const p = median(plans);
    if (n === 20_000) ratioAt20k = t / c;
    rows.push([fmt(n), duration(t), `${trim.length}`, kept, duration(c), n - cut, `${fmt(t / c)}x`, duration(p), `${fmt(t / p)}x`]);
  }
  printTable(['messages', 'trimMessages', 'runs', 'kept', 'pi findCutPoint', 'kept', 'ratio', 'pi plan', 'ratio'], rows);
  printPairs([
    ['budget', `${fmt(PEER_BUDGET)} tokens (trimMessages maxTokens = pi keepRecentTokens); counts precomputed, counter returns them by message id`],
    ['pi cut vs trimMessages at 20k', Number.isNaN(ratioAt20k) ? 'not measured' : `${fmt(ratioAt20k)}x faster (target >= 1000x: ${ratioAt20k >= 1000 ? 'met' : 'MISSED'})`],
  ]);
  console.log();

  collectGarbage();
  const { entries, counts } = synthetic(SWEEP_SIZE);
  const messages = toMessages(entries);
  const input = makeInput(entries, { counts });
  const total = input.tokens.total;
  const orphans = { trim: 0, trimStartOn: 0, pi: 0 };
  const affected = { trim: 0, trimStartOn: 0, pi: 0 };
  const sweepStart = performance.now();
  for (let i = 0; i < SWEEP_BUDGETS; i++) {
    const budget = Math.round(total * (0.01 + (0.99 * i) / (SWEEP_BUDGETS - 1)));
    const a = messageOrphans(await trimLast(messages, counts, budget));
    const b = messageOrphans(await trimLast(messages, counts, budget, 'human'));
    const cut = findCutPoint(entries, input.tokens, 0, entries.length, budget)?.firstKeptIndex ?? entries.length;
    const c = entryOrphans(entries, cut);
    orphans.trim += a;
    orphans.trimStartOn += b;
    orphans.pi += c;
    if (a > 0) affected.trim++;
    if (b > 0) affected.trimStartOn++;
    if (c > 0) affected.pi++;
  }
  console.log(`  Orphaned tool results over ${SWEEP_BUDGETS} budgets (1% to 100% of ${fmt(total)} tokens, ${fmt(SWEEP_SIZE)} messages, ${roleMix(entries)}; ${duration(performance.now() - sweepStart)}):`);
  printTable(['trimmer', 'orphans (total)', 'budgets with orphans'], [
    ["trimMessages strategy 'last'", orphans.trim, `${affected.trim} / ${SWEEP_BUDGETS}`],
    ["trimMessages 'last', startOn 'human'", orphans.trimStartOn, `${affected.trimStartOn} / ${SWEEP_BUDGETS}`],
    ['pi findCutPoint (kept = cut..end)', orphans.pi, `${affected.pi} / ${SWEEP_BUDGETS}`],
  ]);
  printPairs([['pi orphans', orphans.pi === 0 ? '0 (target 0: met)' : `${orphans.pi} (target 0: MISSED)`]]);
}

export async function strategiesSection(): Promise<void> {
  try {
    await planning();
  } catch (error) {
    console.log(`  planning FAILED: ${errorText(error)}`);
  }
  console.log();
  await peer();
}
