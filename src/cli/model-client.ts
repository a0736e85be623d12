/**
 * What every model request of a command-line run goes through, around the page's own remote
 * summarizer (src/llm): the cache first (a cached reply is never sent again), then at most
 * `concurrency` requests in flight, then a tally of tokens and cost with a progress line. A spend,
 * credit or quota refusal (SpendLimitError) stops the run: no later request is sent, each fails
 * with RunStoppedError, and what was done stays in the report and the cache.
 */
import type { Summarizer, SummaryRequest, SummaryResponse } from '../core/compaction/summarizer.ts';
import { SummarizerError } from '../core/compaction/summarizer.ts';
import { formatUsd, usageCost, type Price } from '../core/pricing.ts';
import { SpendLimitError } from '../llm/remote/errors.ts';
import type { RequestCache } from './model-cache.ts';

/** A request not sent because a spend or quota refusal stopped the run. */
export class RunStoppedError extends SummarizerError {
  override name = 'RunStoppedError';
  constructor(readonly reason: string) {
    super(`Not sent: the run stopped at a spend or quota limit (${reason.split(':')[0]}); what was done is kept. Rerun with the same --cache once the limit is raised.`);
  }
}

/** What the run has done so far. */
export interface RunTally {
  /** Requests answered by a server. */
  sent: number;
  /** Requests answered from the cache. */
  cached: number;
  /** Tokens of the sent requests, as the servers reported them. */
  input: number;
  output: number;
  /** USD of the sent requests; null when a model's price is unknown. */
  cost: number | null;
}

export interface ModelClientOptions {
  cache: RequestCache;
  concurrency: number;
  /** Requests the estimate expects (for done / total and the ETA). */
  total?: number;
  /** Hears a progress line after each request (not set under --json). */
  onProgress?: (line: string) => void;
  /** Clock, ms. Default Date.now. */
  now?: () => number;
}

/** One run's gate to the models: wrap each summarizer with `wrap`, read `tally` and `stopped` at the end. */
export class ModelClient {
  readonly tally: RunTally = { sent: 0, cached: 0, input: 0, output: 0, cost: 0 };
  /** The refusal that stopped the run, when one did. */
  stopped: string | undefined;
  total: number;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private started: number | undefined;
  private readonly now: () => number;

  constructor(private readonly options: ModelClientOptions) {
    this.total = options.total ?? 0;
    this.now = options.now ?? Date.now;
  }

  /** `summarizer` behind the cache, the concurrency bound and the tally; `identity` names its model in the cache, `price` its cost (undefined: unknown). */
  wrap(summarizer: Summarizer, identity: string, price: Price | undefined): Summarizer {
    const summarize = async (request: SummaryRequest): Promise<SummaryResponse> => {
      const key = this.options.cache.key(identity, request, summarizer.systemPrompt);
      const hit = this.options.cache.get(key);
      if (hit) {
        this.tally.cached++;
        this.report();
        return hit;
      }
      if (this.stopped !== undefined) throw new RunStoppedError(this.stopped);
      await this.slot();
      try {
        if (this.stopped !== undefined) throw new RunStoppedError(this.stopped);
        this.started ??= this.now();
        const response = await summarizer.summarize(request);
        this.tally.sent++;
        this.tally.input += response.usage?.input ?? 0;
        this.tally.output += response.usage?.output ?? 0;
        if (this.tally.cost !== null) this.tally.cost = price ? this.tally.cost + usageCost(response.usage ?? { input: 0, output: 0 }, price) : null;
        this.options.cache.put(key, identity, request, response);
        this.report();
        return response;
      } catch (error) {
        if (error instanceof SpendLimitError) this.stopped ??= error.message;
        throw error;
      } finally {
        this.release();
      }
    };
    return { ...summarizer, summarize };
  }

  /** "12/40 requests (3 from the cache) · 35,210 in, 4,102 out · $0.0123 so far · ETA 2 min". */
  progressLine(): string {
    const { sent, cached, input, output, cost } = this.tally;
    const done = sent + cached;
    const total = Math.max(this.total, done);
    const eta = this.eta(total - done);
    return `${done}/${total} requests${cached > 0 ? ` (${cached} from the cache)` : ''} · ${input.toLocaleString('en-US')} in, ${output.toLocaleString('en-US')} out · ${cost === null ? 'unknown price' : `${formatUsd(cost)} so far`}${eta ? ` · ETA ${eta}` : ''}`;
  }

  private eta(remaining: number): string | undefined {
    if (remaining <= 0 || this.tally.sent === 0 || this.started === undefined) return undefined;
    const seconds = Math.round((((this.now() - this.started) / this.tally.sent) * remaining) / 1000);
    return seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  }

  private report(): void {
    this.options.onProgress?.(this.progressLine());
  }

  private async slot(): Promise<void> {
    if (this.inFlight < this.options.concurrency) {
      this.inFlight++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }
}
