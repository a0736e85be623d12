/**
 * Section 5: what a summary costs before any model runs — rendering the prompt and serializing a
 * ~100k-token head of a real-looking session — and, where a GPU is present, WebLLM prefill and
 * decode speed (skipped here with the reason: this machine has no GPU and cannot fetch weights).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { generateSession } from '../src/core/demo/generate-session.ts';
import { renderTemplate } from '../src/core/compaction/prompts.ts';
import { serializeEntries, wrapTranscript } from '../src/core/compaction/serialize.ts';
import { serializeReact } from '../src/core/strategies/layered.ts';
import { importText } from '../src/core/import/run.ts';
import { createOfflineSummarizer } from '../src/core/summarize/offline.ts';
import { getCounter } from '../src/core/tokens/counters.ts';
import { countEntries } from '../src/core/tokens/entry-tokens.ts';
import { fmt, median, printPairs, printTable } from './report.ts';

function prompts(): Record<string, string> {
  return Object.fromEntries(readdirSync('prompts').filter((f) => f.endsWith('.md')).map((f) => [f.slice(0, -3), readFileSync(`prompts/${f}`, 'utf8')]));
}

export async function summarizerSection(): Promise<void> {
  const entries = importText(generateSession({ iterations: 1500, seed: 7 })).entries;
  const counter = await getCounter('o200k');
  const { totals } = countEntries(entries, counter);
  // The head: the oldest entries up to ~100k tokens.
  let head = 0;
  let tokens = 0;
  while (head < entries.length && tokens < 100_000) tokens += totals[head++] ?? 0;
  const slice = entries.slice(0, head);
  printPairs([
    ['head', `${fmt(head)} entries, ${fmt(tokens)} tokens (o200k)`],
  ]);
  const library = prompts();
  const rows: Array<[string, string, string]> = [];
  const measure = (label: string, fn: () => string) => {
    const times: number[] = [];
    let out = '';
    for (let i = 0; i < 7; i++) {
      const start = performance.now();
      out = fn();
      times.push(performance.now() - start);
    }
    rows.push([label, `${median(times).toFixed(1)} ms`, `${fmt(out.length)} chars`]);
  };
  measure('serializeEntries (plain)', () => serializeEntries(slice));
  measure('serializeReact (layered, L12)', () => serializeReact(slice));
  measure('render pi-summary prompt', () => renderTemplate(library['pi-summary'] ?? '{{conversation}}', { conversation: wrapTranscript(serializeEntries(slice)), previous_summary: '', focus: '' }));
  const offline = createOfflineSummarizer();
  const times: number[] = [];
  let text = '';
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    text = (await offline.summarize({ taskId: 'b', promptId: 'pi-summary', prompt: '', entries: slice, serialized: '', vars: {}, signal: new AbortController().signal })).text;
    times.push(performance.now() - start);
  }
  rows.push(['offline summarizer (pi-summary)', `${median(times).toFixed(1)} ms`, `${fmt(text.length)} chars`]);
  printTable(['step', 'median', 'output'], rows);
  printPairs([['WebLLM prefill / decode', 'skipped: no GPU on this machine (WebGPU needs a GPU adapter; model weights cannot be downloaded here). Run the app in a WebGPU browser and compact with a local model: the progress bar shows decode tok/s.']]);
}
