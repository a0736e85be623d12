import { describe, expect, it } from 'vitest';
import { formatInspect, runInspect } from '../../cli/inspect.ts';
import { formatCreated, sessionFacts, sessionFactsText } from './session-facts.ts';

const COPILOT = 'public/samples/copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e';

describe('the session facts shown by the page and by cli inspect', () => {
  it('shows what the source recorded, in one order, the start in UTC to the second', () => {
    expect(sessionFacts({ version: '2.1.0', model: 'm', createdAt: Date.UTC(2026, 7, 5, 20, 40, 13, 471), gitBranch: 'main', cwd: '/w', title: 'not a fact', sessionId: 's' })).toEqual({
      cwd: '/w', branch: 'main', created: '2026-08-05 20:40:13 UTC', model: 'm', version: '2.1.0',
    });
    expect(sessionFactsText(sessionFacts({ gitBranch: 'main', cwd: '/w', version: '' }))).toBe('cwd /w · branch main');
    expect(sessionFacts({})).toEqual({});
    expect(sessionFactsText({})).toBe('');
    expect(formatCreated(Number.MAX_VALUE)).toBe(String(Number.MAX_VALUE));
  });

  it("gives a Copilot CLI session folder's branch and start in cli inspect, as JSON and as text", async () => {
    const report = await runInspect(`${COPILOT}/events.jsonl`, 'chars4');
    expect(report.title).toBe('In src/orders.py make average_item_price return 0 when the cart has no items.');
    expect(report.session).toEqual({ cwd: '/work', branch: 'master', created: '2026-08-05 20:40:13 UTC', model: 'qwen3:0.6b', version: '1.0.78' });
    expect(formatInspect(report).split('\n')[1]).toBe('session       cwd /work · branch master · created 2026-08-05 20:40:13 UTC · model qwen3:0.6b · version 1.0.78');
  });

  it('leaves the session line out of the text when the source recorded nothing about the session', async () => {
    const report = await runInspect('public/samples/openai-chat/gpt-4o-airline.json', 'chars4');
    expect(formatInspect({ ...report, session: {} })).not.toMatch(/^session/m);
  });
});
