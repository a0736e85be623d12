// The update banner: Reload is offered when nothing runs, and disabled, naming the jobs, while any runs.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { UpdateBanner } from './UpdateBanner.tsx';

const render = (running: string[]) => renderToStaticMarkup(createElement(UpdateBanner, { running, onReload: () => undefined, onDismiss: () => undefined }));

describe('UpdateBanner', () => {
  it('offers the reload when no job runs', () => {
    const html = render([]);
    expect(html).toContain('A new version is available — reload');
    expect(html).toMatch(/<button[^>]*data-testid="update.reload"[^>]*>Reload<\/button>/);
    expect(html).not.toMatch(/<button[^>]*disabled[^>]*data-testid="update.reload"/);
    expect(html).not.toContain('update.waiting');
  });

  it('disables the reload while a job runs and says which', () => {
    const html = render(['Compacting with pi', 'Comparing 2 configurations']);
    expect(html).toMatch(/<button[^>]*disabled[^>]*data-testid="update.reload"/);
    expect(html).toContain('Reload waits until this finishes: Compacting with pi, Comparing 2 configurations.');
  });
});
