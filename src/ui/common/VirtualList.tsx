/** A virtualized vertical list of variable-height rows: only what is on screen is rendered. */
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';

export interface VirtualListHandle {
  scrollToIndex: (index: number) => void;
}

export interface VirtualListProps {
  count: number;
  estimate: (index: number) => number;
  render: (index: number) => ReactNode;
  label: string;
  testId: string;
  handle?: Ref<VirtualListHandle>;
}

export function VirtualList({ count, estimate, render, label, testId, handle }: VirtualListProps) {
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer: Virtualizer<HTMLDivElement, Element> = useVirtualizer({ count, getScrollElement: () => parent.current, estimateSize: estimate, overscan: 6 });
  useImperativeHandle(handle, () => ({ scrollToIndex: (index) => virtualizer.scrollToIndex(index, { align: 'start' }) }), [virtualizer]);
  return (
    <div ref={parent} className="transcript" data-testid={testId} tabIndex={0} aria-label={label}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="transcript-row" style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}>
            {render(item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
