import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../cli/load.ts';
import { backupParts, exportBackup, PART_CHARS, readBackup, restoreBackup } from './backup.ts';
import { BACKUP_TABLE_NAMES, BackupFormatError } from './backup-format.ts';
import { resealed } from './backup-reseal.ts';
import { deleteConversation } from './conversations.ts';
import { FoldlabDatabase, UPGRADE_NOTE } from './schema.ts';
import { buildLibrary } from './test-library.ts';
import { freshDatabases } from './test-databases.ts';

const SOURCES = () => ({
  main: readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'),
  pi: readFileSync('public/samples/pi/v3-small.jsonl'),
  prompts: loadPrompts(),
});
const CANARY = 'sk-canary-backup-41f9';
const database = freshDatabases();

async function everything(db: FoldlabDatabase): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const name of BACKUP_TABLE_NAMES) out[name] = await db.table(name).toArray();
  out.settings = (out.settings as Array<{ key: string }>).filter((row) => row.key !== UPGRADE_NOTE);
  return out;
}

let made: Promise<{ db: FoldlabDatabase; file: Blob; text: string }> | undefined;
/** One library, exported once (with a settings row holding a key, which must not be exported). */
function library() {
  made ??= (async () => {
    const db = new FoldlabDatabase(`lib-${Math.random()}`);
    await buildLibrary(db, SOURCES());
    await db.settings.put({ key: 'provider', value: { baseUrl: 'https://api.openai.com/v1', apiKey: CANARY, nested: { password: CANARY, model: 'gpt-4o-mini' } } });
    const file = await exportBackup(db, 1_800_000_000_000);
    return { db, file, text: await file.text() };
  })();
  return made;
}

describe('library backup', () => {
  it('exports every table in small parts and restores into an empty library exactly (round trip)', async () => {
    const { db, text } = await library();
    const before = await everything(db);
    for (const name of BACKUP_TABLE_NAMES) expect(before[name]!.length, name).toBeGreaterThan(0);

    const parts: string[] = [];
    for await (const part of backupParts(db, 1)) parts.push(part);
    expect(parts.length).toBeGreaterThan(BACKUP_TABLE_NAMES.length + 2);
    // Each part is under PART_CHARS but for its last row.
    for (const part of parts) expect(part.length - (part.trimEnd().split('\n').at(-1)!.length + 1)).toBeLessThan(PART_CHARS);
    const withoutTrailer = (file: string) => file.slice(0, file.lastIndexOf('{"end":true'));
    expect(withoutTrailer(parts.join(''))).toBe(withoutTrailer(text).replace('"exportedAt":1800000000000', '"exportedAt":1'));

    expect(text).not.toContain(CANARY);
    expect(text).not.toContain('sk-never-stored');
    const target = database();
    const report = await restoreBackup(target, await readBackup(new Blob([text])));
    expect(report).toMatchObject({ added: 2, existing: 0, skipped: [] });
    const after = await everything(target);
    const provider = (before.settings as Array<{ key: string; value: unknown }>).find((row) => row.key === 'provider')!;
    provider.value = { baseUrl: 'https://api.openai.com/v1', nested: { model: 'gpt-4o-mini' } };
    expect(after).toEqual(before);
    // Typed arrays come back typed.
    expect((after.tokenCounts![0] as { totals: unknown }).totals).toBeInstanceOf(Uint32Array);
  });

  it('merges: conversations already in the library are not duplicated; a deleted one comes back whole', async () => {
    const { text } = await library();
    const target = database();
    await restoreBackup(target, await readBackup(new Blob([text])));
    const once = await everything(target);
    const again = await restoreBackup(target, await readBackup(new Blob([text])));
    expect(again).toMatchObject({ added: 0, existing: 2 });
    // Only the settings are written again (the backup's replace the current ones).
    expect(Object.entries(again.written).filter(([name]) => name !== 'settings').reduce((a, [, n]) => a + n, 0)).toBe(0);
    expect(await everything(target)).toEqual(once);

    const [first] = once.conversations as Array<{ id: string }>;
    await deleteConversation(target, first!.id);
    const back = await restoreBackup(target, await readBackup(new Blob([text])));
    expect(back).toMatchObject({ added: 1, existing: 1 });
    expect(await everything(target)).toEqual(once);
  });

  it('a damaged or foreign file says what is wrong and changes nothing', async () => {
    const { text } = await library();
    const target = database();
    await target.settings.put({ key: 'mine', value: 1 });
    const before = await everything(target);
    const lines = text.trimEnd().split('\n');
    const attempt = async (content: string | Uint8Array) => {
      const error = await readBackup(new Blob([content as BlobPart])).then(async (parsed) => restoreBackup(target, parsed)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BackupFormatError);
      return (error as Error).message;
    };
    expect(await attempt(lines.slice(0, -1).join('\n'))).toMatch(/cut off/);
    expect(await attempt(lines.slice(0, 40).join('\n'))).toMatch(/cut off/);
    const broken = [...lines];
    broken[7] = broken[7]!.slice(0, 30);
    expect(await attempt(broken.join('\n'))).toBe(`Backup line 8: not valid JSON (${JSON.stringify(broken[7])}).`);
    expect(await attempt(readFileSync('public/samples/pi/v3-small.jsonl', 'utf8'))).toMatch(/^Backup line 1: not a Foldlab backup: the first line should be its header/);
    expect(await attempt('')).toBe('Backup: the file is empty.');
    expect(await attempt(new Uint8Array([0x7b, 0xff, 0xfe, 0x0a]))).toMatch(/not UTF-8/);
    const unknown = [...lines];
    unknown[3] = JSON.stringify({ t: 'secrets', r: { providerId: 'openai' } });
    expect(await attempt(unknown.join('\n'))).toMatch(/^Backup line 4: unknown table "secrets"/);
    // An entry removed (and the count fixed): the conversation is incomplete.
    const at = lines.findIndex((line) => line.startsWith('{"t":"entries"'));
    const missing = await resealed(lines.filter((_, i) => i !== at), (counts) => (counts.entries -= 1));
    expect(await attempt(missing)).toMatch(/should have \d+ entries; the backup holds \d+/);
    expect(await everything(target)).toEqual(before);
  });
});
