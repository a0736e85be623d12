/**
 * One line under the import controls about persistent storage: why Foldlab asks the browser to
 * keep its data (shown before the first import asks), then the browser's remembered answer.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { persistenceSetting } from '../../store/library-reads.ts';
import { PERSISTENCE_WHY, type PersistenceSetting } from '../../store/storage-persistence.ts';

const ANSWERS: Record<PersistenceSetting['state'] | 'not-asked', string> = {
  'not-asked': `At your first import Foldlab asks the browser to keep its data. ${PERSISTENCE_WHY}`,
  asking: `Asking your browser to keep Foldlab's data. ${PERSISTENCE_WHY}`,
  granted: 'Storage is persistent: the browser will not clear Foldlab\'s data on its own.',
  denied: `The browser did not make storage persistent: it may clear Foldlab's data when disk space runs low. Export what you want to keep.`,
  unsupported: 'This browser cannot make storage persistent: it may clear Foldlab\'s data when disk space runs low.',
};

export function StoragePersistence() {
  const stored = useLiveQuery(async () => ({ setting: await persistenceSetting() }), []);
  if (!stored) return null;
  const state = stored.setting?.state ?? 'not-asked';
  return (
    <p className="muted small" role="status" data-testid="storage.persistence" data-state={state}>
      {ANSWERS[state]}
    </p>
  );
}
