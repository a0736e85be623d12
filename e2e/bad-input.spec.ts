/** Bad input gets a specific message; good lines still import; a failed import touches nothing. */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, sample, test } from './fixtures/app.ts';

const dir = mkdtempSync(join(tmpdir(), 'foldlab-e2e-'));
function write(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

test('a malformed line is reported with its line number and the rest imports', async ({ app, page }) => {
  const lines = readFileSync(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'), 'utf8').split('\n');
  lines[6] = '{"type": "assistant", "message": {oops';
  const path = write('malformed.jsonl', lines.join('\n'));
  await app.importFile(path);
  await expect(page.getByTestId('conversation.issue').first()).toContainText('line 7');
  await expect(page.getByTestId('import.notice')).toContainText('line 7');
  expect(await app.entryCount()).toBeGreaterThan(200);
});

test('a truncated last line is reported as such', async ({ app, page }) => {
  const text = readFileSync(sample('pi/v3-small.jsonl'), 'utf8').trimEnd();
  const path = write('truncated.jsonl', text.slice(0, text.length - 25));
  await app.importFile(path);
  await expect(page.getByTestId('conversation.issue').first()).toContainText('cut off');
});

test('empty, binary and unknown files each get a specific message and change nothing', async ({ app, page }) => {
  await app.waitForDemo();
  const countBefore = await app.libraryItems().count();
  expect(await app.importFailing(write('empty.jsonl', ''))).toContain('empty');
  expect(await app.importFailing(write('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3])))).toContain('binary');
  expect(await app.importFailing(write('shape.json', '{"foo": 1, "bar": [1, 2]}'))).toContain('unknown shape');
  expect(await app.importFailing(write('jsonl.jsonl', '{"kind":"x"}\n{"kind":"y"}\n'))).toContain('no known transcript format');
  await expect(app.libraryItems()).toHaveCount(countBefore);
  await expect(page.getByTestId('conversation.title')).toContainText('Demo');
});

test('lines that are not UTF-8 are reported by number; every skipped line and blank line is counted, past the 1000 listed', async ({ app, page }) => {
  await app.waitForDemo();
  const lines = readFileSync(sample('pi/v3-small.jsonl'), 'utf8').trimEnd().split('\n');
  const broken = Array.from({ length: 1200 }, (_, i) => `{"broken": ${i}`);
  // Line 9 of the sample becomes line 10; one of its bytes is made invalid UTF-8. Lines 11-1210 are broken.
  const text = Buffer.from([lines.slice(0, 8).join('\n'), '', lines[8], ...broken, '   '].join('\n'));
  text[text.indexOf(Buffer.from(lines[8]!)) + 40] = 0xff;
  await app.importFile(write('not-utf8.jsonl', text));
  await expect(page.getByTestId('import.notice.skipped')).toHaveText('1,201');
  await expect(page.getByTestId('import.notice')).toContainText('(and 2 blank)');
  await expect(page.getByTestId('import.notice.issue').first()).toContainText('line 10: not valid UTF-8 (byte 41 of the line');
  await expect(page.getByTestId('conversation.issues')).toContainText('1,201 lines could not be imported');
  await expect(page.getByTestId('conversation.blank-lines')).toContainText('2 blank');
});

test('a line over the 64 MiB cap is refused by its number and the lines around it import', async ({ app, page }) => {
  test.setTimeout(120_000);
  await app.waitForDemo();
  const lines = readFileSync(sample('pi/v3-small.jsonl'), 'utf8').trimEnd().split('\n');
  const prefix = '{"type":"message","id":"huge","parentId":null,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"';
  const huge = Buffer.alloc(64 * 1024 * 1024 + 1024, 'A');
  huge.write(prefix, 0);
  huge.write('"}}', huge.length - 3);
  const path = write('huge-line.jsonl', Buffer.concat([Buffer.from(`${lines.slice(0, 8).join('\n')}\n`), huge, Buffer.from(`\n${lines[8]}\n`)]));
  await app.importFile(path);
  await expect(page.getByTestId('import.notice.issue').first()).toContainText('line 9: the line is 64.0 MiB, over the 64 MiB limit for one line');
  const report = (await app.reportFor(path)) as unknown as { skippedLines: number; entries: number } | undefined;
  expect(report?.skippedLines).toBe(1);
  expect(await app.entryCount()).toBe(report?.entries);
  expect(report?.entries).toBeGreaterThan(5);
});
