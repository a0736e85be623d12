/**
 * What the session's source recorded about it (working directory, git branch, start time, model,
 * agent version), under the conversation's title: the same text `cli inspect` prints.
 */
import type { SessionMeta } from '../../core/import/types.ts';
import { SESSION_FACT_KEYS, sessionFacts } from '../../store/view/transcript.ts';

export function SessionFactsLine({ meta }: { meta: SessionMeta }) {
  const facts = sessionFacts(meta);
  const keys = SESSION_FACT_KEYS.filter((key) => facts[key] !== undefined);
  if (keys.length === 0) return null;
  return (
    <p className="muted small" data-testid="conversation.session">
      {keys.map((key, i) => (
        <span key={key}>
          {i > 0 && ' · '}
          <span data-testid={`conversation.session.${key}`}>{`${key} ${facts[key]}`}</span>
        </span>
      ))}
    </p>
  );
}
