// The chat's follow-the-newest rule: at the bottom it follows, scrolled up over unchanged content
// it stays, and content resizing under it never counts as the user scrolling away.
import { describe, expect, it } from 'vitest';
import { atBottom, stillPinned, STICK_SLACK_PX } from './stick-to-bottom.ts';

describe('stick to bottom', () => {
  it('counts the last STICK_SLACK_PX pixels as the bottom', () => {
    expect(atBottom({ scrollTop: 600 - 200 - STICK_SLACK_PX, scrollHeight: 600, clientHeight: 200 })).toBe(true);
    expect(atBottom({ scrollTop: 600 - 200 - STICK_SLACK_PX - 1, scrollHeight: 600, clientHeight: 200 })).toBe(false);
  });

  it('stops following when the user scrolls up, follows again back at the bottom', () => {
    const before = { scrollTop: 400, scrollHeight: 600 };
    expect(stillPinned(true, before, { scrollTop: 0, scrollHeight: 600, clientHeight: 200 })).toBe(false);
    expect(stillPinned(false, { scrollTop: 0, scrollHeight: 600 }, { scrollTop: 400, scrollHeight: 600, clientHeight: 200 })).toBe(true);
  });

  it('keeps following when entries laid out late change the height under the box', () => {
    expect(stillPinned(true, { scrollTop: 400, scrollHeight: 600 }, { scrollTop: 380, scrollHeight: 640, clientHeight: 200 })).toBe(true);
    expect(stillPinned(false, { scrollTop: 0, scrollHeight: 600 }, { scrollTop: 10, scrollHeight: 640, clientHeight: 200 })).toBe(false);
  });
});
