/** Token totals of a conversation per role and per content kind, labelled with their counter. */
import type { TokenCounts } from '../../worker/engine/protocol.ts';
import { formatNumber } from '../common/format.ts';

const ROLES = ['system', 'user', 'assistant', 'tool', 'summary'] as const;
const KINDS = ['text', 'thinking', 'tool_call', 'tool_result', 'image'] as const;

export function TokenTotals({ counts }: { counts: TokenCounts }) {
  const fmt = (n: number) => formatNumber(n);
  return (
    <div className="totals" data-testid="totals">
      <p>
        <strong data-testid="totals.total">{fmt(counts.total)}</strong> tokens <span className="badge">{counts.label}</span>
        {!counts.exact && <span className="muted small"> estimate</span>}
      </p>
      <table className="small">
        <tbody>
          <tr>
            <th scope="row">By role</th>
            {ROLES.map((role) => (
              <td key={role} data-testid={`totals.role.${role}`}>
                {role} <strong>{fmt(counts.byRole[role])}</strong>
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row">By kind</th>
            {KINDS.map((kind) => (
              <td key={kind} data-testid={`totals.kind.${kind}`}>
                {kind.replace('_', ' ')} <strong>{fmt(counts.byKind[kind])}</strong>
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
