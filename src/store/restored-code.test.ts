import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { RESTORED_CODE_KEY } from '../db/backup-trust.ts';
import { db } from '../db/db.ts';
import { discardRestoredCode, enableRestoredCode, restoredCode } from './restored-code.ts';
import { useAppStore } from './store.ts';

afterEach(async () => {
  await db.settings.clear();
  useAppStore.setState({ hookSource: '', pluginSource: undefined });
});

describe('code set aside by a restore', () => {
  it('runs only once enabled: enabling makes it the page\'s hook module, and the rest stays waiting', async () => {
    await db.settings.put({ key: RESTORED_CODE_KEY, value: { hookSource: 'export function afterCompact() {}', pluginSource: 'export default () => ({})', exportedAt: 5 } });
    expect(useAppStore.getState().hookSource).toBe('');
    await enableRestoredCode('hook');
    expect(useAppStore.getState().hookSource).toBe('export function afterCompact() {}');
    expect(useAppStore.getState().pluginSource).toBeUndefined();
    expect(await restoredCode()).toEqual({ pluginSource: 'export default () => ({})', exportedAt: 5 });
  });

  it('discarding removes it and changes nothing the page runs', async () => {
    await db.settings.put({ key: RESTORED_CODE_KEY, value: { pluginSource: 'export default () => ({})', exportedAt: 5 } });
    await discardRestoredCode('plugin');
    expect(await restoredCode()).toBeUndefined();
    expect(useAppStore.getState().pluginSource).toBeUndefined();
    await enableRestoredCode('plugin');
    expect(useAppStore.getState().pluginSource).toBeUndefined();
  });
});
