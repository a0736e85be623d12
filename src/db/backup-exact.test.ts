import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SectionHasher } from './backup-checksum.ts';
import { BACKUP_TABLE_NAMES, BackupFormatError, headerLine, parseBackup, readLines, rowLine, trailerLine, UNCHECKED_NOTE, type BackupTable, type Row } from './backup-format.ts';
import { resealed } from './backup-reseal.ts';
import { backupWarnings } from './backup-trust.ts';

/** A backup of one conversation whose entries carry `contents`, as the export writes it. */
async function backupOf(contents: readonly unknown[]): Promise<string[]> {
  const hasher = new SectionHasher();
  const lines = [headerLine(12, 1).trimEnd()];
  const counts = Object.fromEntries(BACKUP_TABLE_NAMES.map((name) => [name, 0])) as Record<BackupTable, number>;
  const add = (table: BackupTable, row: Row) => {
    lines.push(rowLine(table, row).trimEnd());
    counts[table]++;
  };
  add('conversations', { id: 'c', title: 'deep', entryCount: contents.length });
  contents.forEach((content, index) => add('entries', { conversationId: 'c', index, id: `e${index}`, content }));
  for (const line of lines) hasher.add(line);
  lines.push(trailerLine(counts, await hasher.checksum()).trimEnd());
  return lines;
}

function parse(content: string | Uint8Array) {
  return parseBackup(readLines(new Blob([content as BlobPart]).stream()));
}

async function refusal(content: string | Uint8Array): Promise<BackupFormatError> {
  const error = await parse(content).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BackupFormatError);
  return error as BackupFormatError;
}

const CONTENTS = Array.from({ length: 600 }, (_, i) => ({ role: 'user', text: `message number ${i}` }));

describe('an exact restore', () => {
  it('refuses a changed letter inside a string, naming the exact line', async () => {
    const lines = await backupOf(CONTENTS);
    const at = lines.findIndex((line) => line.includes('message number 300"'));
    lines[at] = lines[at]!.replace('message number 300', 'message numbor 300');
    const error = await refusal(lines.join('\n'));
    expect(at + 1).toBe(303);
    expect(error.line).toBe(303);
    expect(error.message).toBe('Backup line 303: line 303 differs from what the backup\'s checksum says it held (a changed, added or removed line; every line before it matches).');
  });

  it('names the first line of an added or removed line, and the first of two changed lines', async () => {
    const lines = await backupOf(CONTENTS);
    const added = [...lines.slice(0, 400), lines[399]!, ...lines.slice(400)];
    expect((await refusal(added.join('\n'))).line).toBe(401);
    const removed = [...lines.slice(0, 40), ...lines.slice(41)];
    expect((await refusal(removed.join('\n'))).line).toBe(41);
    const twice = lines.map((line, i) => (i === 299 || i === 449 ? line.replace('message', 'massage') : line));
    expect((await refusal(twice.join('\n'))).line).toBe(300);
  });

  it('names the lines of the section where the backup carries no line hashes (written before they existed)', async () => {
    const lines = await backupOf(CONTENTS);
    const trailer = JSON.parse(lines.at(-1)!) as { checksum: { lineHashes?: unknown } };
    expect((trailer.checksum.lineHashes as string[]).map((hashes) => hashes.length)).toEqual([256 * 8, 256 * 8, 90 * 8]);
    for (const lineHashes of [undefined, 'not a list', [1, 2, 3]]) {
      const older = [...lines.slice(0, -1), JSON.stringify({ ...trailer, checksum: { ...trailer.checksum, lineHashes } })];
      older[302] = older[302]!.replace('message number 300', 'message numbor 300');
      const error = await refusal(older.join('\n'));
      // Line 303 is in the second section of 256 lines: 257–512.
      expect(error.line).toBe(257);
      expect(error.message).toBe('Backup line 257: lines 257–512 differ from what the backup\'s checksum says they held (a changed, added or removed line in that range).');
    }
  });

  it('refuses a line replaced by a copy of the one before: by its checksum, and, checksum remade, by the duplicate row naming both lines', async () => {
    const lines = await backupOf(CONTENTS);
    lines[10] = lines[9]!;
    expect((await refusal(lines.join('\n'))).line).toBe(11);
    const error = await refusal(await resealed(lines));
    expect(error.message).toBe('Backup line 11: lines 10 and 11 hold the same entries row (key ["c",7]): a backup holds each row once.');
    // The same entry id under another index.
    const again = await backupOf(CONTENTS);
    again[11] = again[11]!.replace('"id":"e9"', '"id":"e8"');
    expect((await refusal(await resealed(again))).message).toBe('Backup line 12: lines 11 and 12 hold the same entry id "e8": a backup holds each row once.');
  });

  it('refuses counts that do not match what the file holds', async () => {
    const lines = await backupOf(CONTENTS);
    const error = await refusal(await resealed(lines, (counts) => (counts.entries += 1)));
    expect(error.message).toBe(`Backup line ${lines.length}: the end marker counts 601 entries rows but the file holds 600.`);
    const entryCount = await refusal(await resealed(lines.map((line, i) => (i === 1 ? line.replace('"entryCount":600', '"entryCount":601') : line))));
    expect(entryCount.message).toMatch(/should have 601 entries; the backup holds 600/);
  });

  it('refuses a checksum taken away or lines removed', async () => {
    const lines = await backupOf(CONTENTS);
    const trailer = JSON.parse(lines.at(-1)!) as Row;
    delete trailer.checksum;
    expect((await refusal([...lines.slice(0, -1), JSON.stringify(trailer)].join('\n'))).message).toMatch(/no checksum \(a version 2 backup always has one\)/);
    const cut = [...lines.slice(0, 520), lines.at(-1)!];
    expect((await refusal(cut.join('\n'))).message).toBe('Backup line 520: lines are missing: the checksum covers 602 lines, the file holds 520 before its end marker.');
  });

  it('names the line of an invalid UTF-8 byte', async () => {
    const lines = await backupOf(CONTENTS);
    const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
    const at = bytes.indexOf(0x0a, bytes.indexOf(0x0a, bytes.indexOf(0x0a, bytes.indexOf(0x0a) + 1) + 1) + 1) + 5;
    bytes[at] = 0xff;
    const error = await refusal(bytes);
    expect(error.line).toBe(5);
    expect(error.message).toBe('Backup line 5: this line is not UTF-8 text: the file is not a Foldlab backup, or it is damaged.');
  });

  it('restores an older backup without a checksum, saying so', async () => {
    const lines = await backupOf([{ text: 'hi' }, { totals: { $typed: 'Uint32Array', values: [1, 2] } }]);
    lines[0] = lines[0]!.replace('"version":2', '"version":1');
    const old = lines.map((line) => (line.startsWith('{"end":true') ? JSON.stringify({ end: true, counts: (JSON.parse(line) as Row).counts }) : line.replace('"$$typed"', '"$typed"')));
    const backup = await parse(old.join('\n'));
    expect(backup.checksum).toBe('none');
    expect(backupWarnings(backup)).toContainEqual({ kind: 'checksum', message: UNCHECKED_NOTE });
    // Version 1 wrote tags and look-alikes the same way, and read them as tags.
    expect((backup.rows.entries[1]!.content as { totals: unknown }).totals).toBeInstanceOf(Uint32Array);
  });

  it('gives back transcript content shaped like its tags as the plain objects they were', async () => {
    const contents = [
      { $map: [['a', 1]] },
      { $typed: 'Uint8Array', values: [1, 2, 3] },
      { $$map: [], $: 1, $$: 2, nested: [{ $map: [] }] },
      { real: new Map([['k', { $typed: 'Uint8Array', values: [] }]]), bytes: new Uint32Array([7]) },
    ];
    const backup = await parse((await backupOf(contents)).join('\n'));
    expect(backup.checksum).toBe('verified');
    expect(backup.rows.entries.map((row) => row.content)).toEqual(contents);
    expect(backup.rows.entries[0]!.content).not.toBeInstanceOf(Map);
    expect((backup.rows.entries[3]!.content as { real: unknown }).real).toBeInstanceOf(Map);
  });

  it('backup then restore gives back every row byte for byte (any JSON, tag-like and __proto__ keys, lone surrogates, nesting)', async () => {
    const key = fc.oneof(fc.constantFrom('$map', '$typed', 'values', '__proto__', '$$map', '$', '$$', 'toJSON', 'constructor', 't', 'r', 'end'), fc.string({ unit: 'binary', maxLength: 6 }));
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('\ud800', 'a\udfffb', '\u2028', '"\\'));
    const { value } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)), text,
        fc.array(tie('value'), { maxLength: 4 }),
        fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
      ),
    }));
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 5 }), async (contents) => {
        const lines = await backupOf(contents);
        const backup = await parse(`${lines.join('\n')}\n`);
        const again = backup.rows.entries.map((row) => rowLine('entries', row));
        expect(again).toEqual(lines.slice(2, -1).map((line) => `${line}\n`));
        backup.rows.entries.forEach((row, i) => expect(JSON.stringify(row.content)).toBe(JSON.stringify(contents[i])));
      }),
      { numRuns: 300 },
    );
    // Deeply nested content comes back too.
    let deep: unknown = 'bottom';
    for (let i = 0; i < 1000; i++) deep = i % 2 ? { $map: deep } : [deep];
    const backup = await parse((await backupOf([deep])).join('\n'));
    expect(JSON.stringify(backup.rows.entries[0]!.content)).toBe(JSON.stringify(deep));
  });
});
