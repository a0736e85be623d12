/**
 * Code a restored backup carried (a hook module or a custom-strategy plugin), shown with its source
 * and disabled: it runs only once the user has read it and enabled it in this browser.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { CodeKind } from '../../db/backup-trust.ts';
import { discardRestoredCode, enableRestoredCode, restoredCode } from '../../store/restored-code.ts';

const WHAT: Record<CodeKind, string> = {
  hook: 'a hook module, which would run on every Compact',
  plugin: 'a custom-strategy plugin, which would run whenever the plan is previewed',
};

export function RestoredCodeNotice({ kind }: { kind: CodeKind }) {
  const pending = useLiveQuery(restoredCode, []);
  const source = kind === 'hook' ? pending?.hookSource : pending?.pluginSource;
  if (!pending || source === undefined) return null;
  return (
    <div className="restored-code" role="region" aria-label={`Restored ${kind} (disabled)`} data-testid={`compact.${kind}.restored`}>
      <p className="small">
        A restored backup (made {new Date(pending.exportedAt).toLocaleString()}) holds {WHAT[kind]}. It is <strong>disabled</strong>: read it, and enable it only if you trust it. Until then it does not run.
      </p>
      <pre className="plugin-source small" data-testid={`compact.${kind}.restored-source`}>{source}</pre>
      <div className="actions">
        <button type="button" onClick={() => void enableRestoredCode(kind)} data-testid={`compact.${kind}.restored-enable`}>Enable in this browser</button>
        <button type="button" className="link small" onClick={() => void discardRestoredCode(kind)} data-testid={`compact.${kind}.restored-discard`}>Discard it</button>
      </div>
    </div>
  );
}
