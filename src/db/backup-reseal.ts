/**
 * For tests only: a backup's lines with the end marker's checksum (and, if asked, counts) made
 * again for lines that were edited, as someone who edits a backup could do, so a test reaches the
 * checks that come after the checksum (duplicate rows, counts, conversations' entries).
 */
import { SectionHasher } from './backup-checksum.ts';
import type { BackupTrailer } from './backup-format.ts';

export async function resealed(lines: readonly string[], counts?: (counts: BackupTrailer['counts']) => void): Promise<string> {
  const hasher = new SectionHasher();
  const out: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('{"end":true')) {
      hasher.add(line);
      out.push(line);
      continue;
    }
    const trailer = JSON.parse(line) as BackupTrailer;
    counts?.(trailer.counts);
    out.push(JSON.stringify({ ...trailer, checksum: await hasher.checksum() }));
  }
  return `${out.join('\n')}\n`;
}
