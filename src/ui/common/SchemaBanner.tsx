/**
 * The banner shown when this page may no longer use the library: another tab opened a newer
 * Foldlab (the database connection is closed and nothing more is written), or the library on this
 * device was saved by a newer Foldlab than this page. Reloading loads the version that matches.
 */
import { useSyncExternalStore } from 'react';
import { schemaState, subscribeSchemaState } from '../../store/library-state.ts';

export function SchemaBanner() {
  const state = useSyncExternalStore(subscribeSchemaState, schemaState);
  if (state.kind === 'ok') return null;
  return (
    <div className="error schema-banner" role="alert" data-testid="schema.banner" data-kind={state.kind}>
      <p>{state.message} Until then nothing is saved from this tab.</p>
      <button type="button" onClick={() => window.location.reload()} data-testid="schema.reload">Reload</button>
    </div>
  );
}
