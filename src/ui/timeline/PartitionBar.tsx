/**
 * The context window's partitions as one bar: each zone gets a width proportional to its
 * budget and fills with its tokens (over-budget zones are flagged), with a text legend (F6).
 */
import type { Partition } from './types.ts';
import './timeline.css';

const ZONE_ORDER: Partition['zone'][] = ['static', 'working', 'short-term', 'long-term', 'retrieved', 'dynamic'];
const fmt = (n: number) => n.toLocaleString('en-US');

export function PartitionBar({ partitions }: { partitions: readonly Partition[] }) {
  const zones = [...partitions].sort((a, b) => ZONE_ORDER.indexOf(a.zone) - ZONE_ORDER.indexOf(b.zone));
  const totalBudget = zones.reduce((sum, zone) => sum + Math.max(0, zone.budget), 0);
  const totalTokens = zones.reduce((sum, zone) => sum + Math.max(0, zone.tokens), 0);
  return (
    <div className="partitions" data-testid="timeline.partitions">
      <div className="partitions-bar" aria-hidden="true">
        {zones.map((zone) => {
          const share = totalBudget > 0 ? zone.budget / totalBudget : 1 / Math.max(1, zones.length);
          const fill = zone.budget > 0 ? Math.min(1, zone.tokens / zone.budget) : zone.tokens > 0 ? 1 : 0;
          const over = zone.tokens > zone.budget;
          return (
            <div key={zone.zone} className={over ? 'partition-zone over' : 'partition-zone'} style={{ width: `${share * 100}%` }}>
              <div className={`partition-fill zone-${zone.zone}`} style={{ width: `${fill * 100}%` }} />
            </div>
          );
        })}
      </div>
      <ul className="partitions-legend" aria-label="Context window partitions">
        {zones.map((zone) => {
          const over = zone.tokens > zone.budget;
          const percent = zone.budget > 0 ? Math.round((zone.tokens / zone.budget) * 100) : undefined;
          return (
            <li key={zone.zone} data-testid={`timeline.partitions.${zone.zone}`} data-over={over || undefined}>
              <span className={`timeline-swatch zone-${zone.zone}`} aria-hidden="true" />
              <span>
                {zone.zone}: {fmt(zone.tokens)} / {fmt(zone.budget)} tokens
                {percent !== undefined && ` (${percent}%)`}
              </span>
              {over && <span className="over">over budget</span>}
            </li>
          );
        })}
        <li data-testid="timeline.partitions.total">
          <strong>
            Total {fmt(totalTokens)} / {fmt(totalBudget)} tokens
          </strong>
        </li>
      </ul>
    </div>
  );
}
