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
