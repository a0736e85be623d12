/**
 * Keeps the page standing when the library cannot be read: a live query that fails (the library
 * was upgraded in another tab, or written by a newer Foldlab) would otherwise take the whole page
 * down with it. Then only the schema banner above this boundary speaks; any other failure is shown.
 */
import { Component, type ReactNode } from 'react';
import { schemaState } from '../../store/library-state.ts';

interface State {
  error?: Error;
}

export class LibraryBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = {};

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (schemaState().kind !== 'ok') return null;
    return (
      <div className="error" role="alert" data-testid="library.failed">
        <p>The library could not be read: {error.message}</p>
        <button type="button" onClick={() => window.location.reload()}>Reload</button>
      </div>
    );
  }
}
