/**
 * Benchmark page (not part of the app): mounts the real FoldTimeline and PartitionBar on
 * `syntheticTimeline(n)` (n from `?n=`, default 100,000) and records, while `window.__bench.recording`
 * is true, animation-frame timestamps, long tasks and the timeline's plan / draw times.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { syntheticTimeline } from '../../src/ui/timeline/bench-data.ts';
import { drawProbe } from '../../src/ui/timeline/draw-probe.ts';
import { FoldTimeline } from '../../src/ui/timeline/FoldTimeline.tsx';
import { PartitionBar } from '../../src/ui/timeline/PartitionBar.tsx';
import '../../src/ui/app.css';

/** What the benchmark driver reads through `page.evaluate`. */
export interface BenchRecord {
  iterations: number;
  blocks: number;
  buildMs: number;
  recording: boolean;
  frames: number[];
  tasks: number[];
  plans: number[];
  draws: number[];
  opened: string[];
}

const n = Number(new URLSearchParams(location.search).get('n') ?? 100_000);
const started = performance.now();
const data = syntheticTimeline(n);
const bench: BenchRecord = {
  iterations: data.iterations,
  blocks: data.blocks.length,
  buildMs: performance.now() - started,
  recording: false,
  frames: [],
  tasks: [],
  plans: [],
  draws: [],
  opened: [],
};
(window as unknown as { __bench: BenchRecord }).__bench = bench;

drawProbe.onPlan = (ms) => {
  if (bench.recording) bench.plans.push(ms);
};
drawProbe.onDraw = (ms) => {
  if (bench.recording) bench.draws.push(ms);
};
new PerformanceObserver((list) => {
  if (bench.recording) for (const entry of list.getEntries()) bench.tasks.push(entry.duration);
}).observe({ type: 'longtask', buffered: false });
const tick = (t: number) => {
  if (bench.recording) bench.frames.push(t);
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <main style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12 }}>
      <h1>Fold timeline: {data.iterations.toLocaleString('en-US')} synthetic iterations</h1>
      <FoldTimeline data={data} onOpenBlock={(id) => bench.opened.push(id)} />
      <PartitionBar partitions={data.partitions} />
    </main>
  </StrictMode>,
);
