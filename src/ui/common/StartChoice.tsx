/**
 * Where a replay, a plan or a fold starts on the branch: the first entry (the whole session, the
 * source agent's own compactions left out) or the last compaction the agent recorded. One control
 * for the Compact, Compare and Fold tabs, so the three offer the same choice in the same words.
 */
import type { ReplayFrom } from '../../core/compaction/input-scope.ts';

interface Props {
  value: ReplayFrom;
  onChange: (from: ReplayFrom) => void;
  testId: string;
  /** What starts there, for the tooltip: "each replay", "the plan", "the fold". */
  what: string;
}

export function StartChoice({ value, onChange, testId, what }: Props) {
  return (
    <label className="field inline">
      <span>Start</span>
      <select value={value} onChange={(e) => onChange(e.target.value as ReplayFrom)} data-testid={testId} title={`Where ${what} starts on the branch`}>
        <option value="start">From the first entry (the whole session; the agent's own compactions left out)</option>
        <option value="last-compaction">From the last compaction the agent recorded (its summary and what followed)</option>
      </select>
    </label>
  );
}
