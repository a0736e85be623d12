// eval and inspect refuse the same binary files for the same reason (one test, src/core/import/binary.ts):
// a gzip-compressed transcript and a file of zeros are listed as skipped, never evaluated under a guessed format.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runEval } from './eval.ts';
import { runInspect } from './inspect.ts';

const PI_SMALL = 'public/samples/pi/v3-small.jsonl';
const config = { configs: [{ strategy: 'pi' as const, options: {} }], counter: 'chars4' as const, contextWindow: 200_000, jobs: 1 };

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'foldlab-eval-binary-'));
  const gz = join(dir, 'session.jsonl.gz');
  writeFileSync(gz, gzipSync(readFileSync(PI_SMALL)));
  const zeros = join(dir, 'zeros.jsonl');
  writeFileSync(zeros, new Uint8Array(4096));
  const real = join(dir, 'real.jsonl');
  copyFileSync(PI_SMALL, real);
  return { dir, gz, zeros, real };
}

describe('eval and binary files', () => {
  it('skips a gzip file and a file of zeros with the reason inspect gives, and evaluates the rest', async () => {
    const { dir, gz, zeros, real } = files();
    const report = await runEval({ ...config, paths: [dir, gz] });
    expect(report.files.map((file) => file.file)).toEqual([expect.stringMatching(/real\.jsonl$/)]);
    expect(report.files[0]!.format).toBe('pi');
    const reasons = Object.fromEntries(report.skipped.map((skip) => [skip.file.replace(/.*\//, ''), skip.reason]));
    expect(reasons).toEqual({
      'session.jsonl.gz': expect.stringMatching(/^binary file \(.+\), not a JSON or JSONL transcript$/),
      'zeros.jsonl': 'binary file (it contains NUL bytes), not a JSON or JSONL transcript',
    });
    // inspect refuses both, with the same reason in its message.
    for (const [path, name] of [[gz, 'session.jsonl.gz'], [zeros, 'zeros.jsonl']] as const) {
      const reason = reasons[name]!.match(/^binary file \((.+)\),/)![1]!;
      await expect(runInspect(path, 'chars4')).rejects.toThrow(`looks like a binary file (${reason})`);
    }
    await expect(runInspect(real, 'chars4')).resolves.toMatchObject({ format: 'pi' });
  });

  it('with only binary files, says there is nothing to evaluate and lists each with its reason', async () => {
    const { gz, zeros } = files();
    await expect(runEval({ ...config, paths: [gz, zeros] })).rejects.toThrow(/Nothing to evaluate[\s\S]*session\.jsonl\.gz: skipped, binary file[\s\S]*zeros\.jsonl: skipped, binary file \(it contains NUL bytes\)/);
  });
});
