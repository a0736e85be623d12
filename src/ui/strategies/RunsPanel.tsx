/** The compaction log (B4): every run of this conversation as a structured record, exportable as JSON; open one to see its context. */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Entry } from '../../core/journal/entry.ts';
import { compactionRuns } from '../../store/library-reads.ts';
import type { ConversationRow } from '../../db/schema.ts';
import { useAppStore } from '../../store/store.ts';
import { download, slug } from '../common/download.ts';
import { RunResult } from './RunResult.tsx';

export function RunsPanel({ conversation, journal }: { conversation: ConversationRow; journal: readonly Entry[] }) {
  const runs = useLiveQuery(
    () => compactionRuns(conversation.id),
    [conversation.id],
  );
  const openRunId = useAppStore((s) => s.openRunId);
  const openRun = useAppStore((s) => s.openRun);
  if (runs === undefined) return <p className="muted">Loading runs…</p>;
  if (runs.length === 0) return <p className="muted" data-testid="runs.empty">No compaction yet: pick a strategy in the Compact tab.</p>;
  const open = runs.find((run) => run.id === openRunId) ?? runs[0];
  const fmt = (n: number) => n.toLocaleString('en-US');
  return (
    <div className="runs">
      <div className="runs-header">
        <h3>Compaction log ({runs.length})</h3>
        <button type="button" onClick={() => download(`${slug(conversation.title)}.compaction-log.json`, JSON.stringify(runs.map((run) => ({ id: run.id, ...run.record })), null, 2))} data-testid="runs.export">
          Export log JSON
        </button>
      </div>
      <table className="small runs-table" data-testid="runs.table">
        <thead>
          <tr>
            <th>When</th><th>Strategy</th><th>Trigger</th><th>Tokens</th><th>Summarized / kept / dropped</th><th>Truncation</th><th>Summary</th><th>Summarizer</th><th>ms</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} className={run.id === open?.id ? 'selected' : ''} data-testid="runs.row">
              <td>
                <button type="button" className="link" onClick={() => openRun(run.id)} aria-current={run.id === open?.id}>
                  {new Date(run.createdAt).toLocaleTimeString()}
                </button>
              </td>
              <td>{run.strategy}</td>
              <td title={run.record.trigger.detail}>{run.record.trigger.fire ? 'fired' : 'manual'}</td>
              <td>{fmt(run.record.tokens_before)} → {fmt(run.record.tokens_after)}</td>
              <td>{run.record.summarized_messages} / {run.record.kept_messages} / {run.record.dropped_messages}</td>
              <td>{String(run.record.truncation_applied)}</td>
              <td>{String(run.record.summary_applied)}</td>
              <td>{run.record.summarizer}</td>
              <td>{fmt(run.record.duration_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && <RunResult key={open.id} row={open} journal={journal} title={conversation.title} />}
    </div>
  );
}
