/**
 * What a finished restore says on the Library panel: conversations added and kept, saved sweeps
 * restored, rows written, and what was left out, set aside or kept (backup.ts `RestoreReport`).
 */
import type { RestoreReport } from '../../db/backup.ts';

/** `settings`: whether the backup's provider settings were applied, kept out, or it had none; `unchecked`: said when the backup had no checksum to verify. */
export function restoreSummary(report: RestoreReport, settings: 'applied' | 'kept' | 'none', unchecked?: string): string {
  const rows = Object.values(report.written).reduce((a, b) => a + b, 0);
  const parts = [`Restored ${report.added} conversation${report.added === 1 ? '' : 's'}`];
  if (report.existing > 0) parts.push(`${report.existing} already in the library (kept, not duplicated)`);
  if (report.written.sweeps > 0) parts.push(`${report.written.sweeps} saved sweep${report.written.sweeps === 1 ? '' : 's'}`);
  const notes = [...report.skipped];
  if (unchecked) notes.push(unchecked);
  if (report.setAside.length > 0) notes.push(`The backup holds ${report.setAside.map((kind) => (kind === 'hook' ? 'a hook module' : 'a custom-strategy plugin')).join(' and ')}: kept disabled under Compact until you read and enable ${report.setAside.length === 1 ? 'it' : 'them'}.`);
  if (settings === 'kept') notes.push('Your provider settings were kept; the backup\'s were not applied.');
  if (settings === 'applied') notes.push('The backup\'s provider settings were applied.');
  return `${parts.join('; ')}; ${rows.toLocaleString('en-US')} rows written.${notes.length ? ` ${notes.join(' ')}` : ''}`;
}
