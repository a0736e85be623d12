/** Lists a session tree's branches (pi v3, Claude Code rewinds, multi-conversation files) and picks one. */
import type { Branch } from '../../core/journal/tree.ts';

export function BranchPicker({ branches, leafId, onPick }: { branches: Branch[]; leafId: string | undefined; onPick: (leafId: string) => void }) {
  if (branches.length <= 1) return null;
  return (
    <label className="field inline" data-testid="branches">
      <span>Branch ({branches.length})</span>
      <select value={leafId ?? branches[0]?.leafId} onChange={(event) => onPick(event.target.value)} data-testid="branches.select">
        {branches.map((branch, i) => (
          <option key={branch.leafId} value={branch.leafId}>
            {branch.active ? 'active · ' : `#${i + 1} · `}
            {branch.length} entries · {branch.label}
            {branch.forkId ? ` (forks at ${branch.forkId})` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
