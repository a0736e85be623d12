// The CLI counts as the app does by default: every command, `compact` included, uses o200k unless
// `--counter` says otherwise, so the numbers the CLI prints are the ones the page shows.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const run = (args: string[]) => JSON.parse(execFileSync('node_modules/.bin/tsx', ['src/cli/main.ts', ...args, '--json'], { encoding: 'utf8' })) as { counter?: string; tokens?: { counter: string } };
const SAMPLE = 'public/samples/pi/v3-small.jsonl';

describe('npm run cli -- <command> without --counter', () => {
  it('compact and inspect both count with o200k, the app default', () => {
    expect(run(['compact', SAMPLE, '--strategy', 'pi']).counter).toMatch(/o200k/);
    expect(run(['inspect', SAMPLE]).tokens?.counter).toMatch(/o200k/);
    expect(run(['compact', SAMPLE, '--strategy', 'pi', '--counter', 'chars4']).counter).toMatch(/chars/);
  }, 60_000);
});
