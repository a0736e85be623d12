/**
 * "New live session" in the library. The setup dialog and everything a live session runs (the
 * loop, the tools, the models) load only when it is pressed: the first screen stays light.
 */
import { lazy, Suspense, useState } from 'react';

const LiveSetupDialog = lazy(() => import('./LiveSetupDialog.tsx').then((m) => ({ default: m.LiveSetupDialog })));

export function NewLiveSessionButton() {
  const [open, setOpen] = useState(false);
  return (
    <div className="live-new">
      <button type="button" onClick={() => setOpen(true)} data-testid="live.new" title="An agent in this page, over a folder you pick (read-only), compacted as it runs">
        New live session
      </button>
      {open && (
        <Suspense fallback={<p className="muted small">Loading…</p>}>
          <LiveSetupDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
