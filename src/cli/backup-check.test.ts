import 'fake-indexeddb/auto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportBackup } from '../db/backup.ts';
import { FoldlabDatabase, SCHEMA_VERSION } from '../db/schema.ts';
import { Engine } from '../worker/engine/engine.ts';
import { runBackupCheck, type BackupCheckReport } from './backup-check.ts';

async function backupFile(): Promise<string> {
  const db = new FoldlabDatabase(`t-${Math.random()}`);
  await new Engine(db).importBlob(new Blob([readFileSync('public/samples/pi/v3-small.jsonl')]), { jobId: 'i', fileName: 'v3-small.jsonl', origin: 'file', title: 'pi v3' }, () => undefined);
  const text = await (await exportBackup(db, Date.UTC(2026, 0, 2))).text();
  await db.delete();
  const file = join(mkdtempSync(join(tmpdir(), 'foldlab-backup-')), 'library.jsonl');
  writeFileSync(file, text);
  return file;
}

describe('npm run cli -- backup-check', () => {
  it('describes a valid backup and names the wrong line of a damaged one (exit code 1)', async () => {
    const file = await backupFile();
    const report = await runBackupCheck(file);
    expect(report).toMatchObject({ valid: true, version: 2, schema: SCHEMA_VERSION, exportedAt: '2026-01-02T00:00:00.000Z', conversations: [{ title: 'pi v3' }] });
    expect(report.rows?.entries).toBe(report.conversations?.[0]?.entries);

    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    lines[2] = '{"t":"entries","r":{"conversationId":';
    const damaged = `${file}.damaged`;
    writeFileSync(damaged, lines.join('\n'));
    let out = '';
    let status = 0;
    try {
      execFileSync('node_modules/.bin/tsx', ['src/cli/main.ts', 'backup-check', damaged, '--json'], { encoding: 'utf8' });
    } catch (error) {
      const failed = error as { status: number; stdout: string };
      status = failed.status;
      out = failed.stdout;
    }
    expect(status).toBe(1);
    const parsed = JSON.parse(out) as BackupCheckReport;
    expect(parsed).toMatchObject({ valid: false, error: { line: 3 } });
    expect(parsed.error?.message).toMatch(/^Backup line 3: not valid JSON/);
  });

  it('refuses a changed letter as the page does, and warns that a backup without a checksum could not be fully checked', async () => {
    const file = await backupFile();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const at = lines.findIndex((line) => line.startsWith('{"t":"entries"') && line.includes('"text":"'));
    const tampered = `${file}.tampered`;
    writeFileSync(tampered, lines.map((line, i) => (i === at ? line.replace('"text":"', '"text":"x') : line)).join('\n'));
    const report = await runBackupCheck(tampered);
    expect(report).toMatchObject({ valid: false, error: { line: at + 1 } });
    expect(report.error?.message).toMatch(new RegExp(`line ${at + 1} differs from what the backup's checksum says it held`));

    const old = `${file}.v1`;
    writeFileSync(old, lines.map((line, i) => (i === 0 ? line.replace('"version":2', '"version":1') : line.startsWith('{"end":true') ? line.replace(/,"checksum":\{.*\}\}$/, '}') : line)).join('\n'));
    const v1 = await runBackupCheck(old);
    expect(v1.valid).toBe(true);
    expect(v1.warnings?.[0]).toMatchObject({ kind: 'checksum', message: expect.stringMatching(/has no checksum/) as string });
  });
});
