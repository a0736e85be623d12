/** What `eval --json` reports of a model run: the models, the estimate made before it, what was sent, and why it stopped early if it did. */
import type { RunTally } from './model-client.ts';
import type { ModelEstimate } from './model-estimate.ts';

export interface ModelRunReport {
  /** The model that wrote the summaries (wire format, base URL, model), or 'offline'. */
  summarizer: string;
  /** The model that answered and graded, with `--judge`. */
  judge?: string;
  judgeAt?: 'compaction' | 'final';
  /** Made before the first request. */
  estimate: ModelEstimate;
  /** What the run did: requests sent and answered from the cache, tokens the servers reported, cost. */
  done: RunTally;
  /** The spend or quota refusal that stopped the run: the report holds what was done before it. */
  stopped?: string;
  /** The `--cache` folder, and how many of its files could not be read (asked again). */
  cache?: { dir: string; unreadable: number };
}
