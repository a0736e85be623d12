/**
 * The Sweep tab's form: a strategy, which of its settings to vary and over what range (a grid, or
 * N points drawn at random from the ranges), the sessions of the library to replay every point on,
 * Run, and the running sweep's progress (points and replays done, time left) with Cancel.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import type { ConversationRow } from '../../db/schema.ts';
import { conversationsNewestFirst } from '../../store/library-reads.ts';
import { cancelSweep, runSweep } from '../../store/sweep-actions.ts';
import { useAppStore } from '../../store/store.ts';
import { configTitle, REPLAYABLE_IDS } from '../../store/view/strategies.ts';
import { DEFAULT_RETENTION_WEIGHTS, sweepPlanSize } from '../../store/view/sweep.ts';
import { COUNTER_LABELS } from '../../store/view/vocabulary.ts';
import { formatNumber } from '../common/format.ts';
import { progressText } from './sweep-model.ts';
import { varyRows, varyTexts } from './sweep-form.ts';

export function SweepSetup({ conversation }: { conversation: ConversationRow }) {
  const strategy = useAppStore((s) => s.sweepStrategy);
  const setStrategy = useAppStore((s) => s.setSweepStrategy);
  const edits = useAppStore((s) => s.sweepVary);
  const setVary = useAppStore((s) => s.setSweepVary);
  const random = useAppStore((s) => s.sweepRandom);
  const setRandom = useAppStore((s) => s.setSweepRandom);
  const picked = useAppStore((s) => s.sweepSessions);
  const setPicked = useAppStore((s) => s.setSweepSessions);
  const counter = useAppStore((s) => s.counter);
  const contextWindow = useAppStore((s) => s.windowTokens);
  const run = useAppStore((s) => s.sweepRun);
  const library = useLiveQuery(() => conversationsNewestFirst(), []);
  const chosen = picked.length > 0 ? picked : [conversation.id];
  const sessions = (library ?? []).filter((c) => chosen.includes(c.id));
  const vary = varyTexts(strategy, edits);
  const count = random.trim() === '' ? undefined : Number(random);
  const plan = useMemo(
    () => sweepPlanSize({ strategy, vary, contextWindow, ...(count !== undefined ? { random: count } : {}) }),
    // `vary` is new each render: its text names what it holds.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [strategy, vary.join('\n'), count, contextWindow],
  );

  const toggle = (id: string, on: boolean) => setPicked(on ? [...new Set([...chosen, id])] : chosen.filter((c) => c !== id));
  const start = () => {
    void runSweep({ strategy, vary, ...(count !== undefined ? { random: count } : {}), sessions, counter, contextWindow, weights: { ...DEFAULT_RETENTION_WEIGHTS } });
  };

  return (
    <div className="sweep-setup" data-testid="sweep.setup">
      <label className="field inline">
        <span>Strategy</span>
        <select value={strategy} onChange={(e) => setStrategy(e.target.value)} disabled={run !== undefined} data-testid="sweep.strategy">
          {REPLAYABLE_IDS.map((id) => <option key={id} value={id}>{configTitle(id)}</option>)}
        </select>
      </label>
      <table className="sweep-vary" data-testid="sweep.vary">
        <caption className="muted small">Tick the settings to vary: numbers from, to and in how many steps; a yes/no or a choice takes all its values.</caption>
        <thead>
          <tr><th scope="col">Vary</th><th scope="col">Setting</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Steps</th></tr>
        </thead>
        <tbody>
          {varyRows(strategy, edits).map(({ spec, draft }) => {
            const numeric = spec.type === 'integer' || spec.type === 'number';
            const set = (change: Partial<typeof draft>) => setVary(spec.name, { ...draft, ...change });
            return (
              <tr key={spec.name} data-testid={`sweep.vary.${spec.name}`}>
                <td><input type="checkbox" checked={draft.on} onChange={(e) => set({ on: e.target.checked })} aria-label={`Vary ${spec.name}`} data-testid={`sweep.vary.${spec.name}.on`} /></td>
                <td title={spec.description}>{spec.name}{spec.unit ? <span className="muted small"> ({spec.unit})</span> : null}</td>
                {numeric ? (
                  <>
                    <td><input type="number" value={draft.from} onChange={(e) => set({ from: e.target.value })} disabled={!draft.on} aria-label={`${spec.name} from`} data-testid={`sweep.vary.${spec.name}.from`} /></td>
                    <td><input type="number" value={draft.to} onChange={(e) => set({ to: e.target.value })} disabled={!draft.on} aria-label={`${spec.name} to`} data-testid={`sweep.vary.${spec.name}.to`} /></td>
                    <td><input type="number" min={1} value={draft.steps} onChange={(e) => set({ steps: e.target.value })} disabled={!draft.on} aria-label={`${spec.name} steps`} data-testid={`sweep.vary.${spec.name}.steps`} /></td>
                  </>
                ) : (
                  <td colSpan={3} className="muted small">{spec.type === 'boolean' ? 'true and false' : spec.values?.join(', ')}</td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      <label className="field inline">
        <span>Random points</span>
        <input type="number" min={1} value={random} placeholder="grid" onChange={(e) => setRandom(e.target.value)} data-testid="sweep.random" aria-describedby="sweep-random-help" />
      </label>
      <span id="sweep-random-help" className="muted small"> empty: every combination of the ranges; N: N points drawn from them.</span>
      <fieldset className="sweep-sessions" data-testid="sweep.sessions">
        <legend>Sessions ({sessions.length})</legend>
        {(library ?? []).map((c) => (
          <label key={c.id} className="field inline">
            <input type="checkbox" checked={chosen.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} data-testid="sweep.session" data-id={c.id} />
            <span>{c.title}</span>
          </label>
        ))}
      </fieldset>
      <p className="small">
        Counter <strong>{COUNTER_LABELS[counter]}</strong> · window <strong>{formatNumber(contextWindow)}</strong> tokens <span className="muted">(the counter at the top and the window gauge above)</span>
      </p>
      <div className="actions">
        <button type="button" className="primary" onClick={start} disabled={run !== undefined || 'error' in plan || sessions.length === 0} data-testid="sweep.run">
          {run ? 'Sweeping…' : 'error' in plan ? 'Run' : `Run ${plan.points} point${plan.points === 1 ? '' : 's'} × ${sessions.length} session${sessions.length === 1 ? '' : 's'}`}
        </button>
        {'error' in plan && <span className="error small" data-testid="sweep.plan.error">{plan.error}</span>}
      </div>
      {run && (
        <div className="sweep-progress" data-testid="sweep.progress" role="status">
          <progress max={run.progress?.phase === 'replaying' ? run.progress.tasks : 1} value={run.progress?.phase === 'replaying' ? run.progress.tasksDone : 0} aria-label="Sweep progress" />
          <span className="small" data-testid="sweep.progress.text">{progressText(run.progress)}</span>
          <button type="button" className="small" onClick={cancelSweep} data-testid="sweep.cancel">Cancel</button>
        </div>
      )}
    </div>
  );
}
