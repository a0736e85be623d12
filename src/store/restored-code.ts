/**
 * Code a restored backup carried (a hook module, a custom-strategy plugin) waits, disabled, in the
 * library's settings until the user reads it and enables it in this browser, or discards it.
 */
import { RESTORED_CODE_KEY, type CodeKind, type RestoredCode } from '../db/backup-trust.ts';
import { db } from '../db/db.ts';
import { useAppStore } from './store.ts';

const FIELD = { hook: 'hookSource', plugin: 'pluginSource' } as const satisfies Record<CodeKind, keyof RestoredCode>;

/** The code set aside by a restore, if any. */
export async function restoredCode(): Promise<RestoredCode | undefined> {
  return (await db.settings.get(RESTORED_CODE_KEY))?.value as RestoredCode | undefined;
}

async function take(kind: CodeKind): Promise<string | undefined> {
  return db.transaction('rw', db.settings, async () => {
    const pending = await restoredCode();
    const source = pending?.[FIELD[kind]];
    if (!pending || source === undefined) return undefined;
    const rest: RestoredCode = { ...pending };
    delete rest[FIELD[kind]];
    if (rest.hookSource === undefined && rest.pluginSource === undefined) await db.settings.delete(RESTORED_CODE_KEY);
    else await db.settings.put({ key: RESTORED_CODE_KEY, value: rest });
    return source;
  });
}

/** The user read the restored code and enables it: it becomes this browser's hook module or plugin. */
export async function enableRestoredCode(kind: CodeKind): Promise<void> {
  const source = await take(kind);
  if (source === undefined) return;
  const store = useAppStore.getState();
  if (kind === 'hook') store.setHookSource(source);
  else store.setPluginSource(source);
}

/** The user does not want the restored code: it is removed, nothing runs. */
export async function discardRestoredCode(kind: CodeKind): Promise<void> {
  await take(kind);
}
