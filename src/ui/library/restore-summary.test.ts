import { describe, expect, it } from 'vitest';
import type { RestoreReport } from '../../db/backup.ts';
import { BACKUP_TABLE_NAMES, UNCHECKED_NOTE, type BackupTable } from '../../db/backup-format.ts';
import { restoreSummary } from './restore-summary.ts';

function report(written: Partial<Record<BackupTable, number>>, extra: Partial<RestoreReport> = {}): RestoreReport {
  const all = Object.fromEntries(BACKUP_TABLE_NAMES.map((name) => [name, written[name] ?? 0])) as Record<BackupTable, number>;
  return { added: 1, existing: 0, written: all, skipped: [], setAside: [], ...extra };
}

describe('the restore summary', () => {
  it('names the saved sweeps restored with the conversations, and the rows written', () => {
    expect(restoreSummary(report({ conversations: 1, entries: 40, sweeps: 2 }), 'none')).toBe('Restored 1 conversation; 2 saved sweeps; 43 rows written.');
    expect(restoreSummary(report({ sweeps: 1, settings: 2 }, { added: 0, existing: 2 }), 'kept'))
      .toBe('Restored 0 conversations; 2 already in the library (kept, not duplicated); 1 saved sweep; 3 rows written. Your provider settings were kept; the backup\'s were not applied.');
  });

  it('says nothing of sweeps when none was written, and warns of an unchecked backup and code set aside', () => {
    expect(restoreSummary(report({ conversations: 1, entries: 3 }, { setAside: ['hook'] }), 'applied', UNCHECKED_NOTE))
      .toBe(`Restored 1 conversation; 4 rows written. ${UNCHECKED_NOTE} The backup holds a hook module: kept disabled under Compact until you read and enable it. The backup's provider settings were applied.`);
  });
});
