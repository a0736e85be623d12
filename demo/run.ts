/**
 * `npm run demo`: builds the production app (BASE_PATH=/foldlab/, as deployed), walks a real sample
 * through the main flows in Chromium (demo/walkthrough.demo.ts) and writes a screenshot per step and
 * a Playwright trace into docs/demo/. Exits non-zero when a step breaks. The build is removed
 * afterwards (`eslint .` would otherwise lint its minified JavaScript).
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = process.env.DEMO_OUT ?? 'dist-e2e-demo';
const bin = (name: string) => resolve(ROOT, 'node_modules/.bin', name);

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

let code = run(bin('vite'), ['build', '--outDir', OUT, '--emptyOutDir'], { BASE_PATH: '/foldlab/' });
if (code !== 0) {
  console.error(`demo: vite build failed (exit ${code}).`);
} else {
  code = run(bin('playwright'), ['test', '--config', 'demo/playwright.config.ts'], { DEMO_OUT: OUT });
  if (code !== 0) console.error('demo: a step of the walkthrough failed; see the error above and test-results-demo/.');
}
rmSync(resolve(ROOT, OUT), { recursive: true, force: true });
process.exit(code);
