import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { exportBackup, readBackup, restoreBackup } from './backup.ts';
import { BackupFormatError, type Row } from './backup-format.ts';
import { resealed } from './backup-reseal.ts';
import type { FoldlabDatabase } from './schema.ts';
import { listSweeps, saveSweep, setSweepWeights, deleteSweep } from './sweeps.ts';
import { sampleSweep } from './test-sweep.ts';
import { freshDatabases } from './test-databases.ts';

const database = freshDatabases();

const SESSIONS = [{ id: 'c-main', importId: 'i-main', title: 'claude session' }, { id: 'c-pi', importId: 'i-pi', title: 'pi sample' }];

/** A library holding two saved sweeps (their sessions since deleted, as sweeps outlive them) and a setting, exported. */
async function source(): Promise<{ db: FoldlabDatabase; text: string }> {
  const db = database();
  await saveSweep(db, sampleSweep(SESSIONS), 1_800_000_000_000);
  await saveSweep(db, { ...sampleSweep(SESSIONS.slice(1)), name: 'one session', cancelled: false, planned: 2 }, 1_800_000_000_001);
  await db.settings.put({ key: 'demo.seeded', value: true });
  return { db, text: await (await exportBackup(db, 1_800_000_000_000)).text() };
}

async function library(db: FoldlabDatabase) {
  return { sweeps: await db.sweeps.toArray(), settings: await db.settings.toArray() };
}

describe('saved sweeps in the library backup', () => {
  it('are backed up and restored exactly: the same rows, and the restored library backs up to the same bytes', async () => {
    const { db, text } = await source();
    const lines = text.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('{"t":"sweeps"'))).toHaveLength(2);
    expect(JSON.parse(lines.at(-1)!).counts.sweeps).toBe(2);

    const target = database();
    const report = await restoreBackup(target, await readBackup(new Blob([text])));
    expect(report.written.sweeps).toBe(2);
    expect(await target.sweeps.toArray()).toEqual(await db.sweeps.toArray());
    expect((await listSweeps(target)).map((row) => row.name)).toEqual(['one session', 'pi keepRecentTokens']);
    expect(await (await exportBackup(target, 1_800_000_000_000)).text()).toBe(text);
  });

  it('a sweep already in the library keeps its own weights; one deleted since comes back', async () => {
    const { db, text } = await source();
    const [kept, gone] = await listSweeps(db);
    const target = database();
    await restoreBackup(target, await readBackup(new Blob([text])));
    await setSweepWeights(target, kept!.id, { task: 1, constraint: 0, error: 0, artifact: 0, identifier: 0, decision: 0 });
    await deleteSweep(target, gone!.id);
    const report = await restoreBackup(target, await readBackup(new Blob([text])));
    expect(report.written.sweeps).toBe(1);
    expect((await target.sweeps.get(kept!.id))!.weights).toEqual({ task: 1, constraint: 0, error: 0, artifact: 0, identifier: 0, decision: 0 });
    expect(await target.sweeps.get(gone!.id)).toEqual(await db.sweeps.get(gone!.id));
  });

  it('a backup made before saved sweeps existed (schema 6, no sweeps count) still restores, and the library\'s sweeps stay', async () => {
    const { text } = await source();
    const old = text.trimEnd().split('\n')
      .filter((line) => !line.startsWith('{"t":"sweeps"'))
      .map((line, i) => (i === 0 ? line.replace(/"schema":\d+/, '"schema":6') : line));
    const file = await resealed(old, (counts) => delete (counts as Partial<typeof counts>).sweeps);
    expect(file).not.toContain('"sweeps"');
    const target = database();
    const mine = await saveSweep(target, sampleSweep(SESSIONS), 5);
    const backup = await readBackup(new Blob([file]));
    expect(backup.header.schema).toBe(6);
    expect(backup.rows.sweeps).toEqual([]);
    const report = await restoreBackup(target, backup);
    expect(report.written).toMatchObject({ sweeps: 0, settings: 1 });
    expect(await target.sweeps.toArray()).toEqual([mine]);
  });

  it('a malformed saved sweep is refused naming its line and what is wrong, and nothing stored changes', async () => {
    const { text } = await source();
    const lines = text.trimEnd().split('\n');
    const at = lines.findIndex((line) => line.startsWith('{"t":"sweeps"') && line.includes('"name":"pi keepRecentTokens"'));
    const target = database();
    await saveSweep(target, sampleSweep(SESSIONS), 5);
    await target.settings.put({ key: 'mine', value: 1 });
    const before = await library(target);
    const attempt = async (edit: (row: Row) => void) => {
      const line = JSON.parse(lines[at]!) as { t: string; r: Row };
      edit(line.r);
      const file = await resealed(lines.map((text, i) => (i === at ? JSON.stringify(line) : text)));
      const error = await readBackup(new Blob([file])).then((parsed) => restoreBackup(target, parsed)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BackupFormatError);
      expect((error as BackupFormatError).line).toBe(at + 1);
      return (error as Error).message.replace(`Backup line ${at + 1}: `, '');
    };
    const name = 'a saved sweep "pi keepRecentTokens":';
    expect(await attempt((row) => (row.figures as unknown[]).pop())).toBe(`${name} figures should hold one list per point (2), got 1.`);
    expect(await attempt((row) => ((row.figures as unknown[][])[1]!).pop())).toBe(`${name} figures[1] should hold one cell per session (2), got 1.`);
    expect(await attempt((row) => delete ((row.figures as Row[][])[0]![1]!).compactions)).toBe(`${name} figures[0][1].compactions should be a whole number >= 0, got nothing.`);
    expect(await attempt((row) => ((row.figures as Row[][])[1]![0]!.probes = { ...((row.figures as Row[][])[1]![0]!.probes as Row), error: { kept: 4, total: 3 } }))).toBe(`${name} figures[1][0].probes.error should be { kept, total } with 0 <= kept <= total, got {"kept":4,"total":3}.`);
    expect(await attempt((row) => ((row.figures as Row[][])[0]![0]!.tokensPerTask = 'many'))).toBe(`${name} figures[0][0].tokensPerTask should be a number >= 0, got "many".`);
    expect(await attempt((row) => (row.weights = { task: 0, constraint: 0, error: 0, artifact: 0, identifier: 0, decision: 0 }))).toBe(`${name} weights are all 0 (at least one probe category needs a weight above 0).`);
    expect(await attempt((row) => (row.weights = { ...(row.weights as Row), decision: -1 }))).toBe(`${name} weights.decision should be a number >= 0, got -1.`);
    expect(await attempt((row) => (row.counter = 'gpt2'))).toBe(`${name} counter should be one of o200k, cl100k, chars4, len3, chars, got "gpt2".`);
    expect(await attempt((row) => (row.sessions = []))).toBe(`${name} sessions should be a list of at least one session, got a list.`);
    expect(await attempt((row) => ((row.sessions as Row[])[1] = { conversationId: 'c-pi', title: 'pi sample' }))).toBe(`${name} sessions[1] should be { conversationId, importId, title } (text each).`);
    expect(await attempt((row) => (row.planned = 1))).toBe(`${name} planned should be a whole number >= its 2 points, got 1.`);
    expect(await attempt((row) => (row.points = [{ keepRecentTokens: 4000 }, { keepRecentTokens: null }]))).toBe(`${name} points[1] should be an object of settings (numbers, true/false or text).`);
    expect(await attempt((row) => delete row.plan)).toBe(`${name} plan should be { vary: [text, …] }.`);
    expect(await attempt((row) => (row.plan = { vary: [], random: '12' }))).toBe(`${name} plan.random should be a number when given, got "12".`);
    expect(await attempt((row) => (row.contextWindow = 0))).toBe(`${name} contextWindow should be a number of tokens above 0, got 0.`);
    expect(await attempt((row) => delete row.id)).toBe('a sweeps row without its "id" (expected a string or number, got nothing).');
    expect(await library(target)).toEqual(before);
  });

  it('a changed figure is caught by the checksum, and a sweep present twice is refused naming both lines', async () => {
    const { text } = await source();
    const lines = text.trimEnd().split('\n');
    const at = lines.findIndex((line) => line.startsWith('{"t":"sweeps"') && line.includes('"name":"pi keepRecentTokens"'));
    const changed = lines.map((line, i) => (i === at ? line.replace('"tokensPerTask":20517.25', '"tokensPerTask":20518.25') : line));
    expect(changed[at]).not.toBe(lines[at]);
    const error = await readBackup(new Blob([changed.join('\n')])).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`Backup line ${at + 1}: line ${at + 1} differs from what the backup's checksum says it held (a changed, added or removed line; every line before it matches).`);
    const twice = await resealed([...lines.slice(0, at + 1), lines[at]!, ...lines.slice(at + 1)], (counts) => (counts.sweeps += 1));
    const duplicate = await readBackup(new Blob([twice])).catch((e: unknown) => e);
    expect((duplicate as Error).message).toMatch(new RegExp(`^Backup line ${at + 2}: lines ${at + 1} and ${at + 2} hold the same sweeps row \\(key \\["`));
  });
});
