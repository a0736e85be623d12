/**
 * Deep and tampered input in the built page: a tool input nested 10,000 levels is refused for its
 * line (number and depth) with the rest imported, one at the limit is stored and shown; a backup
 * with one changed letter is refused with the line that differs and changes nothing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEEP_SAMPLE, withDeepCall } from '../src/core/import/deep-line.ts';
import { MAX_NESTING_DEPTH } from '../src/core/import/depth.ts';
import { expect, test } from './fixtures/app.ts';

const dir = mkdtempSync(join(tmpdir(), 'foldlab-deep-'));
const SAMPLE = readFileSync(DEEP_SAMPLE, 'utf8');

test('a tool input nested 10,000 levels is refused for its line alone; one at the limit is stored and shown', async ({ app, page }) => {
  await app.waitForDemo();
  const plain = join(dir, 'plain.jsonl');
  writeFileSync(plain, SAMPLE);
  await app.importFile(plain);
  const entries = await app.entryCount();

  const { text, line } = withDeepCall(SAMPLE, 10_000);
  const deep = join(dir, 'deep.jsonl');
  writeFileSync(deep, text);
  await app.importFile(deep);
  await expect(page.getByTestId('import.notice')).toContainText(`line ${line}: nested 10,004 levels deep (Foldlab reads up to 1,000); the line was skipped`);
  expect(await app.entryCount()).toBe(entries);

  const levels = MAX_NESTING_DEPTH - 4;
  const limit = join(dir, 'limit.jsonl');
  writeFileSync(limit, withDeepCall(SAMPLE, levels).text);
  await app.importFile(limit);
  expect(await app.entryCount()).toBe(entries + 1);
  expect(((await app.reportFor(limit)) as { errors?: unknown[] } | undefined)?.errors).toEqual([]);
});

test('a backup with one changed letter is refused with its lines and changes nothing', async ({ app, page }, testInfo) => {
  await app.waitForDemo();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('library.backup').click()]);
  const file = testInfo.outputPath('backup.jsonl');
  await download.saveAs(file);
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const at = lines.findIndex((text) => text.startsWith('{"t":"entries"') && /"text":"[A-Za-z]/.test(text));
  expect(at).toBeGreaterThan(0);
  lines[at] = lines[at]!.replace(/"text":"([A-Za-z])/, (_, letter: string) => `"text":"${letter === 'x' ? 'y' : 'x'}`);
  const tampered = testInfo.outputPath('tampered.jsonl');
  writeFileSync(tampered, `${lines.join('\n')}\n`);
  await page.getByTestId('library.restore-input').setInputFiles(tampered);
  await expect(page.getByTestId('library.backup-status')).toContainText(`was not restored, and nothing was changed. Backup line ${at + 1}: line ${at + 1} differs from what the backup's checksum says it held`, { timeout: 30_000 });
});
