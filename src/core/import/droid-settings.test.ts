import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findEvalInputs } from '../../cli/eval-files.ts';
import { importFile } from '../../cli/load.ts';
import { droidSettingsNameOf, isDroidSettingsName, parseDroidSettings, recordedCallTotals, withDroidSettings } from './droid-settings.ts';
import { importText } from './run.ts';

const ID = 'e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70';
const DIR = new URL('../../../public/samples/droid/', import.meta.url);
const SESSION = readFileSync(new URL(`${ID}.jsonl`, DIR), 'utf8');
const SETTINGS = readFileSync(new URL(`${ID}.settings.json`, DIR), 'utf8');

const jsonl = (...lines: unknown[]) => `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;

describe('Factory Droid session settings', () => {
  it('pairs <id>.settings.json with <id>.jsonl only', () => {
    expect(droidSettingsNameOf(`${ID}.jsonl`)).toBe(`${ID}.settings.json`);
    expect(droidSettingsNameOf('notes.txt')).toBeUndefined();
    expect(isDroidSettingsName(`${ID}.settings.json`)).toBe(true);
    expect(isDroidSettingsName('.settings.json')).toBe(false);
    expect(isDroidSettingsName(`${ID}.jsonl`)).toBe(false);
  });

  it('reads the sample: model, autonomy, the totals of the six calls', () => {
    expect(parseDroidSettings(SETTINGS, `${ID}.settings.json`)).toEqual({
      model: 'claude-sonnet-4-5-20250929', reasoningEffort: 'none', autonomy: 'auto-medium',
      tokenUsage: { input: 12, output: 954, cacheRead: 96650, cacheWrite: 2844, thinking: 0 },
    });
  });

  it('agrees with the sample session: the six calls record 2 input tokens each, 612+148+41+27+96+30 output, 14210+15690+16410+16720+16720+16900 cache reads, 1480+720+310+96+88+150 cache writes', () => {
    const session = importText(SESSION, { fileName: `${ID}.jsonl` });
    expect(recordedCallTotals(session)).toEqual({ calls: 6, input: 12, output: 954, cacheRead: 96650, cacheWrite: 2844 });
    const applied = withDroidSettings(session, parseDroidSettings(SETTINGS, `${ID}.settings.json`), `${ID}.settings.json`);
    expect(applied.issues).toEqual([]);
  });

  it('names the model of a session whose lines name none, never overrides one they name', () => {
    const bare = importText(jsonl({ type: 'session_start', id: 's' }, { type: 'message', id: 'u', message: { role: 'user', content: 'hi' } }));
    expect(bare.meta.model).toBeUndefined();
    expect(withDroidSettings(bare, { model: 'glm-4.6' }, 's.settings.json').meta.model).toBe('glm-4.6');
    const named = importText(jsonl({ type: 'system', subtype: 'init', session_id: 's', model: 'gpt-5-codex' }, { type: 'message', role: 'user', id: 'm', text: 'hi' }));
    expect(withDroidSettings(named, { model: 'glm-4.6' }, 's.settings.json').meta.model).toBe('gpt-5-codex');
    // Older settings keep the model under sessionDefaultSettings.
    expect(parseDroidSettings('{"sessionDefaultSettings":{"model":"glm-4.6"}}', 'x.settings.json').model).toBe('glm-4.6');
  });

  it('reports totals the calls do not add up to, by file and counter; nothing to check without per-call usage', () => {
    const session = importText(SESSION, { fileName: `${ID}.jsonl` });
    const settings = parseDroidSettings(SETTINGS.replace('"outputTokens": 954', '"outputTokens": 1254'), `${ID}.settings.json`);
    const applied = withDroidSettings(session, settings, `${ID}.settings.json`);
    expect(applied.issues).toEqual([{ line: 0, kind: 'malformed', message: `${ID}.settings.json: the session's token totals disagree with the usage its 6 calls record: outputTokens 1254 where the calls record 954 (calls without usage, or missing from the file); the per-call usage is kept as recorded` }]);
    expect(applied.issueCount).toBe(1);
    expect(session.issues).toEqual([]);
    const unrecorded = importText(jsonl({ type: 'session_start', id: 's' }, { type: 'message', id: 'a', message: { role: 'assistant', content: 'x' } }));
    expect(withDroidSettings(unrecorded, settings, 's.settings.json').issues).toEqual([]);
  });

  it('refuses a settings file that is not JSON, not an object, or counts tokens with something else, naming the file and key', () => {
    expect(() => parseDroidSettings('{"model":', 'a.settings.json')).toThrow(/^"a\.settings\.json" is not valid JSON \(.+\); expected Factory Droid's session settings/);
    expect(() => parseDroidSettings('[]', 'a.settings.json')).toThrow('"a.settings.json" is an array, not a JSON object; expected Factory Droid\'s session settings');
    expect(() => parseDroidSettings('{"tokenUsage":7}', 'a.settings.json')).toThrow('"a.settings.json": "tokenUsage" is number 7;');
    expect(() => parseDroidSettings('{"tokenUsage":{"outputTokens":"12"}}', 'a.settings.json')).toThrow('"a.settings.json": "tokenUsage.outputTokens" is a string "12"; expected a count of tokens.');
  });

  it('is read beside the session file by the command line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'droid-settings-'));
    writeFileSync(join(dir, `${ID}.jsonl`), SESSION.replaceAll('"model":"claude-sonnet-4-5-20250929",', ''));
    writeFileSync(join(dir, `${ID}.settings.json`), SETTINGS.replace('"cacheReadTokens": 96650', '"cacheReadTokens": 90000'));
    const result = await importFile(join(dir, `${ID}.jsonl`));
    expect(result.meta.model).toBe('claude-sonnet-4-5-20250929');
    expect(result.issues.map((issue) => issue.message)).toEqual([expect.stringContaining('cacheReadTokens 90000 where the calls record 96650')]);
    writeFileSync(join(dir, `${ID}.settings.json`), 'not json');
    await expect(importFile(join(dir, `${ID}.jsonl`))).rejects.toThrow(`"${ID}.settings.json" is not valid JSON`);
  });

  it('is no transcript of its own when the command line walks a folder of sessions', () => {
    const { files, skipped } = findEvalInputs(['public/samples/droid']);
    expect(files.filter((file) => file.endsWith('.settings.json'))).toEqual([]);
    expect(files.some((file) => file.endsWith(`${ID}.jsonl`))).toBe(true);
    expect(skipped).toEqual([]);
  });
});
