/**
 * Shown under an error that says the browser's storage is full: what the browser says it holds for this site (`navigator.storage.estimate()`),
 * and the two ways out: export what must be kept (the library backup where the library offers one,
 * else a run's export in the Runs tab), then delete conversations in the library.
 */
import { useEffect, useState } from 'react';
import { formatUsage, storageUsage, type StorageUsage } from '../../store/library-state.ts';
import { useAppStore } from '../../store/store.ts';

/** Moves the keyboard focus to an element of the library panel, scrolled into view. */
function focusFirst(selector: string): boolean {
  const target = document.querySelector<HTMLElement>(selector);
  if (!target) return false;
  target.scrollIntoView({ block: 'center' });
  target.focus();
  return true;
}

export function StorageFull() {
  const [usage, setUsage] = useState<StorageUsage | null>();
  const setTab = useAppStore((s) => s.setTab);
  const selectedId = useAppStore((s) => s.selectedId);
  useEffect(() => {
    let live = true;
    void storageUsage().then((value) => live && setUsage(value ?? null));
    return () => {
      live = false;
    };
  }, []);
  const hasBackup = typeof document !== 'undefined' && document.querySelector('[data-testid="library.backup"]') !== null;
  return (
    <div data-testid="storage.full">
      <p className="small" data-testid="storage.usage">
        {usage === undefined ? 'Reading the storage used…' : usage === null ? 'This browser does not say how much storage the site uses.' : `This site uses ${formatUsage(usage)} of what the browser allows it.`}
      </p>
      <p className="small">
        {hasBackup ? (
          <button type="button" className="link" onClick={() => focusFirst('[data-testid="library.backup"]')} data-testid="storage.export">
            Export a backup of the library
          </button>
        ) : (
          <button type="button" className="link" disabled={!selectedId} onClick={() => setTab('runs')} data-testid="storage.export" title={selectedId ? undefined : 'Open a conversation first'}>
            Export what you want to keep (Runs tab)
          </button>
        )}
        {', then '}
        <button type="button" className="link" onClick={() => focusFirst('[data-testid="library.item.delete"]')} data-testid="storage.cleanup">
          delete conversations you no longer need
        </button>
        .
      </p>
    </div>
  );
}
