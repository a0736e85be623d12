import 'fake-indexeddb/auto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInspect } from '../../cli/inspect.ts';
import { DEEP_SAMPLE, withDeepCall } from '../../core/import/deep-line.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from '../engine/engine.ts';

describe('a tool input nested 10,000 levels', () => {
  it('is refused for its line alone, the same in the page\'s import and the CLI, and the rest is stored and counted', async () => {
    const sample = readFileSync(DEEP_SAMPLE, 'utf8');
    const { text, line } = withDeepCall(sample, 10_000);
    const file = join(mkdtempSync(join(tmpdir(), 'foldlab-deep-')), 'deep.jsonl');
    writeFileSync(file, text);
    const cli = await runInspect(file, 'chars4');
    const db = new FoldlabDatabase(`t-${Math.random()}`);
    const page = await new Engine(db).importBlob(new Blob([text]), { jobId: 'i', fileName: 'deep.jsonl', origin: 'file', title: 'deep' }, () => undefined);
    const stored = await db.entries.where('conversationId').equals(page.conversation.id).count();
    await db.delete();
    const error = { line, message: 'nested 10,004 levels deep (Foldlab reads up to 1,000); the line was skipped' };
    expect(cli.errors).toEqual([error]);
    expect(page.report.errors).toEqual([error]);
    expect(page.report.entries).toBe(cli.entries);
    expect(stored).toBe(cli.entries);
    const plain = file.replace('deep.jsonl', 'plain.jsonl');
    writeFileSync(plain, sample);
    expect(cli.tokens.total).toBe((await runInspect(plain, 'chars4')).tokens.total);
  });
});
