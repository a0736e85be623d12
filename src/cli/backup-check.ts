/**
 * `npm run cli -- backup-check <file> [--json]`: checks a library backup with the same reader the
 * page restores it with (every line, the conversations' entries, the end marker) and says what it
 * holds, or which line is wrong and why, and warns of what the page would not apply as it is (code,
 * endpoints). The CLI has no library of its own, so nothing is restored.
 */
import { openAsBlob } from 'node:fs';
import { BACKUP_TABLE_NAMES, BackupFormatError, parseBackup, readLines, type BackupTable } from '../db/backup-format.ts';
import { backupWarnings, type BackupWarning } from '../db/backup-trust.ts';

export interface BackupCheckReport {
  file: string;
  valid: boolean;
  /** When valid: the format and schema versions, when it was made, what it holds. */
  version?: number;
  schema?: number;
  exportedAt?: string;
  conversations?: Array<{ id: string; title: string; entries: number }>;
  rows?: Record<BackupTable, number>;
  /** When valid: each item that is code or an endpoint, which a restore sets aside or applies only on request. */
  warnings?: BackupWarning[];
  /** When not: the line (0: the file as a whole) and the problem. */
  error?: { line: number; message: string };
}

export async function runBackupCheck(file: string): Promise<BackupCheckReport> {
  const blob = await openAsBlob(file);
  try {
    const backup = await parseBackup(readLines(blob.stream()));
    return {
      file,
      valid: true,
      version: backup.header.version,
      schema: backup.header.schema,
      exportedAt: new Date(backup.header.exportedAt).toISOString(),
      conversations: backup.rows.conversations.map((row) => ({ id: String(row.id), title: String(row.title), entries: Number(row.entryCount) })),
      rows: Object.fromEntries(BACKUP_TABLE_NAMES.map((name) => [name, backup.rows[name].length])) as Record<BackupTable, number>,
      warnings: backupWarnings(backup),
    };
  } catch (error) {
    if (!(error instanceof BackupFormatError)) throw error;
    return { file, valid: false, error: { line: error.line, message: error.message } };
  }
}

export function formatBackupCheck(report: BackupCheckReport): string {
  if (!report.valid) return `${report.file}: not a usable backup.\n${report.error?.message ?? ''}`;
  const rows = Object.entries(report.rows ?? {}).filter(([, n]) => n > 0).map(([name, n]) => `${name} ${n.toLocaleString('en-US')}`).join(', ');
  return [
    `${report.file}: a valid Foldlab backup (format v${report.version}, schema v${report.schema}, made ${report.exportedAt}).`,
    `${report.conversations?.length ?? 0} conversations:`,
    ...(report.conversations ?? []).map((c) => `  ${c.title} (${c.entries.toLocaleString('en-US')} entries)`),
    `Rows: ${rows}.`,
    ...(report.warnings ?? []).map((w) => `Warning (${w.kind}): ${w.message}`),
  ].join('\n');
}

/** The command: exit code 0 for a valid backup, 1 for a damaged or foreign file, 2 for a usage error. */
export async function backupCheckMain(argv: readonly string[], usage: string): Promise<void> {
  const json = argv.includes('--json');
  const files = argv.filter((arg) => arg !== '--json');
  const unknown = files.find((arg) => arg.startsWith('--'));
  if (files.length !== 1 || unknown) {
    process.stderr.write(`${unknown ? `unknown option ${unknown}` : 'backup-check takes one <file>'}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  const file = files[0]!;
  try {
    const report = await runBackupCheck(file);
    process.stdout.write(`${json ? JSON.stringify(report, null, 2) : formatBackupCheck(report)}\n`);
    if (!report.valid) process.exitCode = 1;
  } catch (error) {
    const err = error as Error & { code?: string };
    process.stderr.write(`${err.code === 'ENOENT' ? `no such file: ${file}` : `${err.name}: ${err.message}`}\n`);
    process.exitCode = 1;
  }
}
