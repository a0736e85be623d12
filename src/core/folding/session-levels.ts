/**
 * What the folding replay (session.ts) knows about each iteration so far, and its level
 * bookkeeping: every iteration's entries, counts, facts and level; the queue of iterations whose
 * distance may cross their level's threshold; the running token sums of working and short-term
 * memory; and F2's nearness (touching a file again or recalling a block brings its folded
 * iterations one level nearer). FoldSession extends it with the triggers, the block layout and the
 * retrieved zone. Pure and deterministic; the entries are only read.
 */
import type { Entry, ToolCallBlock } from '../journal/entry.ts';
import { compressEntry } from '../strategies/layered/tool-compression.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { fnv1a64 } from '../hash.ts';
import { levelFor } from './importance.ts';
import { iterationInfo, keyMomentOf, momentState, type IterationInfo } from './moments.ts';
import { Nearness, TOUCH_NEAREST } from './nearness.ts';
import type { FoldOptions } from './options.ts';
import type { FoldEvent, FoldTrigger, Iteration, KeyMoment, Level, SummaryCache } from './types.ts';

export abstract class SessionLevels {
  readonly entries: Entry[] = [];
  readonly counts: number[] = [];
  readonly hashes: string[] = [];
  readonly its: Iteration[] = [];
  readonly infos: IterationInfo[] = [];
  readonly moments: Array<KeyMoment | undefined> = [];
  readonly levels: number[] = [];
  readonly lastAccess: number[] = [];
  readonly accessCount: number[] = [];
  readonly phaseEnds = new Set<number>();
  readonly events: FoldEvent[] = [];
  /** Tool calls by id, first one wins (tool-output elision looks results' calls up here). */
  private readonly calls = new Map<string, ToolCallBlock>();
  /** Tool calls as iteration facts see them: the latest call of an id so far. */
  private readonly infoCalls = new Map<string, ToolCallBlock>();
  /** Iterations whose level rose during the current fold. */
  protected readonly risen = new Set<number>();
  private readonly momentsSeen = momentState();
  private readonly l1Memo: number[] = [];
  /** Last iteration that touched each file (F2: touching it again brings its history near). */
  private readonly fileLast = new Map<string, number>();
  /** keyOwn[i]: own (non-system) tokens of the key iterations before i. */
  private readonly keyOwn: number[] = [0];
  /** Iterations whose level rose since the layout was built. */
  protected changedSince: number[] = [];
  /** Iteration of the last fold (-1: none yet). */
  protected foldedAt = -1;
  /** Own tokens of the L0 iterations (working memory) and elided tokens of the L1 ones (short-term). */
  protected working = 0;
  protected short = 0;
  /** boundary[L]: no non-key iteration before it is at level L or lower (levels fall with age, so this only moves forward). */
  private readonly boundary = [0, 0, 0, 0, 0];
  /** Iteration -> iterations whose distance may cross their level's threshold by then. */
  private readonly due = new Map<number, number[]>();
  /** The iteration each one is queued for (a queue entry for another one is stale). */
  private readonly dueAt: number[] = [];
  /** F2: folded iterations by file, and the ones brought near. */
  private readonly nearness = new Nearness();
  private dueDone = -1;

  constructor(
    readonly o: FoldOptions,
    readonly cache: SummaryCache,
    readonly counter: TokenCounter,
  ) {}

  get iterations(): number {
    return this.its.length;
  }

  isKey(i: number): boolean {
    return this.moments[i] !== undefined;
  }

  private own(i: number): number {
    return this.infos[i]!.tokens - this.infos[i]!.systemTokens;
  }

  l1Tokens(i: number): number {
    const memo = this.l1Memo[i]!;
    if (memo >= 0) return memo;
    const it = this.its[i]!;
    let total = 0;
    for (let p = it.from; p <= it.to; p++) {
      const entry = this.entries[p]!;
      const compressed = entry.kind === 'message' ? compressEntry(entry, this.calls) : undefined;
      total += compressed ? Math.min(countEntry(compressed.entry, this.counter).total, this.counts[p] ?? 0) : (this.counts[p] ?? 0);
    }
    this.l1Memo[i] = total;
    return total;
  }

  /**
   * The iteration distance is counted from (F2): its own, its last recall, or the last time a file
   * it touched was touched again, whichever is latest.
   */
  private anchor(i: number): number {
    let last = Math.max(i, this.lastAccess[i]!);
    for (const file of this.infos[i]!.files) last = Math.max(last, this.fileLast.get(file) ?? -1);
    return last;
  }

  private threshold(level: number): number {
    const o = this.o;
    return level === 0 ? o.l0Distance : level === 1 ? o.l1Distance : level === 2 ? o.l2Distance : o.l3Distance;
  }

  /** Queues iteration i for the iteration its distance would first exceed its level's threshold. */
  private schedule(i: number): void {
    const level = this.levels[i]!;
    if (level >= 4 || this.isKey(i)) return;
    const at = this.anchor(i) + this.threshold(level) + 1;
    this.dueAt[i] = at;
    const bucket = this.due.get(at);
    if (bucket) bucket.push(i);
    else this.due.set(at, [i]);
  }

  /** Sets a non-key iteration's level, keeping the zone sums and the repair list right. */
  private setLevel(i: number, level: number): void {
    const previous = this.levels[i]!;
    if (previous === 0) this.working -= this.own(i);
    else if (previous === 1) this.short -= this.l1Tokens(i) - this.infos[i]!.systemTokens;
    if (level === 1) this.short += this.l1Tokens(i) - this.infos[i]!.systemTokens;
    this.levels[i] = level;
    this.changedSince.push(i);
    if (level > previous) this.risen.add(i);
    // Lowered: the first iteration at `level` or lower may now be this one.
    else for (let l = level; l < this.boundary.length; l++) if (this.boundary[l]! > i) this.boundary[l] = i;
    this.nearness.moved(i, previous, level, this.infos[i]!.files);
  }

  /**
   * F2: brings each of `candidates` (non-key, before `now`, folded beyond `nearest`) one level
   * nearer, marks it near and queues its next level check from its new anchor; logs a `near` event.
   */
  protected bringNear(candidates: Iterable<number>, nearest: number, now: number, trigger: FoldTrigger): void {
    const moved: number[] = [];
    for (const i of candidates) {
      const level = this.levels[i]!;
      if (i >= now || this.isKey(i) || level <= nearest) continue;
      this.setLevel(i, level - 1);
      this.nearness.near.add(i);
      this.schedule(i);
      moved.push(i);
    }
    if (moved.length > 0) this.events.push({ iteration: now, trigger, action: 'near', numbers: { iterations: moved.length, nearest }, iterations: moved });
  }

  /** Raises iteration i to `level` and every older non-key iteration below it (older is at least as folded), except the ones brought near. */
  private raise(i: number, level: number): void {
    for (let j = i; j >= 0; j--) {
      if (this.isKey(j) || (j !== i && this.nearness.near.has(j))) continue;
      if (this.levels[j]! >= level) break;
      this.setLevel(j, level);
    }
  }

  /** First non-key iteration at `level` or lower (or the count of iterations). */
  private boundaryOf(level: number): number {
    let b = this.boundary[level]!;
    while (b < this.its.length && (this.isKey(b) || this.levels[b]! > level)) b++;
    this.boundary[level] = b;
    return b;
  }

  /**
   * Records the next iteration (its entries and one token count per entry) at L0, queues its level
   * check, and brings the folded history of the files it touches one level nearer (F2). Returns its
   * index.
   */
  protected append(entries: readonly Entry[], counts: ArrayLike<number>): number {
    const from = this.entries.length;
    for (let k = 0; k < entries.length; k++) {
      const entry = entries[k]!;
      this.entries.push(entry);
      this.counts.push(counts[k] ?? 0);
      this.hashes.push(fnv1a64(JSON.stringify(entry)));
      for (const block of entry.blocks) if (block.type === 'tool_call' && !this.calls.has(block.callId)) this.calls.set(block.callId, block);
    }
    const now = this.its.length;
    const it: Iteration = { index: now, from, to: this.entries.length - 1, userTurn: false };
    const head = entries[0]!;
    it.userTurn = head.role === 'user' && head.kind === 'message' && !head.flags?.injected && !head.flags?.sidechain && head.blocks.some((b) => b.type === 'text' && b.text.trim().length > 0);
    this.its.push(it);
    const info = iterationInfo(this.entries, it, this.counts, this.infoCalls);
    this.infos.push(info);
    const moment = keyMomentOf(this.entries, it, info, this.o, this.momentsSeen);
    this.moments.push(moment);
    this.levels.push(0);
    this.lastAccess.push(-1);
    this.accessCount.push(0);
    this.l1Memo.push(-1);
    this.dueAt.push(-1);
    this.keyOwn.push(this.keyOwn[now]! + (moment ? this.own(now) : 0));
    this.working += this.own(now);
    for (const file of info.files) this.fileLast.set(file, now);
    if (info.phaseEnd) this.phaseEnds.add(now);
    this.schedule(now);
    if (this.o.touchNear > 0 && info.files.length > 0) this.bringNear(this.nearness.folded(info.files, this.o.touchNear, this.levels, now), TOUCH_NEAREST, now, 'touch');
    return now;
  }

  /** Raises the oldest non-key iterations at `level` (up to `size` of them, never `now`) one level. */
  protected promoteOldest(level: Level, size: number, now: number): number[] {
    const moved: number[] = [];
    for (let i = this.boundaryOf(level); i < now && moved.length < size; i++) {
      if (this.isKey(i)) continue;
      const l = this.levels[i]!;
      if (l > level) continue;
      // Below it: the recent end, unless it is content a touch or recall brought near.
      if (l < level) {
        if (this.nearness.near.has(i)) continue;
        break;
      }
      this.setLevel(i, level + 1);
      moved.push(i);
    }
    return moved;
  }

  /** Distance levels of the iterations that are due (never lower than before; older at least as folded). */
  protected foldByDistance(now: number): void {
    const o = this.o;
    for (let t = this.dueDone + 1; t <= now; t++) {
      const bucket = this.due.get(t);
      if (!bucket) continue;
      this.due.delete(t);
      for (const i of bucket) {
        if (this.dueAt[i] !== t) continue;
        const level = levelFor(now - this.anchor(i), o);
        if (level > this.levels[i]!) this.raise(i, level);
        this.schedule(i);
      }
    }
    this.dueDone = now;
  }

  /**
   * Non-key iterations folded less than their distance asked for at the last fold (a self-check
   * of the lazy level pass: always empty unless the engine is wrong).
   */
  underFolded(): number[] {
    const out: number[] = [];
    const at = this.foldedAt;
    for (let i = 0; i <= at; i++) {
      if (!this.isKey(i) && levelFor(at - this.anchor(i), this.o) > this.levels[i]!) out.push(i);
    }
    return out;
  }
}
