/**
 * The Sweep tab: replay one strategy at many settings over sessions of the library, in a worker
 * per core, and read which setting keeps what matters at the lowest cost (the chart, its front and
 * the recommended point), then hand that setting back to the agent. Sweeps are saved as they end.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import type { ConversationRow } from '../../db/schema.ts';
import { savedSweeps } from '../../store/sweep-reads.ts';
import { useAppStore } from '../../store/store.ts';
import { SavedSweeps } from './SavedSweeps.tsx';
import { SweepResultView } from './SweepResultView.tsx';
import { SweepSetup } from './SweepSetup.tsx';
import './sweep.css';

export function SweepPanel({ conversation }: { conversation: ConversationRow }) {
  const saved = useLiveQuery(() => savedSweeps(), []);
  const openId = useAppStore((s) => s.sweepOpen);
  const openSweep = useAppStore((s) => s.openSweep);
  const message = useAppStore((s) => s.sweepMessage);
  const setMessage = useAppStore((s) => s.setSweepMessage);
  const current = saved?.find((row) => row.id === openId) ?? saved?.[0];
  useEffect(() => {
    void import('./SweepChart.tsx'); // fetched now, not when the first result arrives
  }, []);

  return (
    <section className="sweep-panel" data-testid="sweep">
      <div className="sweep-top">
        <SweepSetup conversation={conversation} />
        <div>
          {message && (
            <p className={message.kind === 'cancelled' ? 'warn' : 'error'} role="alert" data-testid={`sweep.${message.kind}`}>
              {message.text}{' '}
              <button type="button" className="link small" onClick={() => setMessage(undefined)} aria-label="Dismiss this message">Dismiss</button>
            </p>
          )}
          {saved === undefined ? <p className="muted">Loading saved sweeps…</p> : <SavedSweeps rows={saved} openId={current?.id} onOpen={openSweep} />}
        </div>
      </div>
      {current && <SweepResultView key={current.id} row={current} />}
    </section>
  );
}
