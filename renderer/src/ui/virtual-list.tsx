import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type HTMLAttributes, type ReactNode } from 'react';
import { rowsPerPage, scrollTopToReveal, visibleRange, type VisibleRange } from './visible-range';

export interface ListWindow extends VisibleRange {
  /** Whole rows that fit in the viewport. */
  pageRows: number;
}

interface VirtualListProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onScroll'> {
  count: number;
  rowHeight: number;
  renderRow: (index: number, style: CSSProperties) => ReactNode;
  /** Keeps this row in view whenever it changes. */
  revealIndex?: number | null;
  /** Changing it scrolls back to the top (a new filter is a new list). */
  resetKey?: string;
  onWindowChange?: (window: ListWindow) => void;
}

/** A fixed-row-height windowed list: 100,000 rows cost as much to render as the 30 in view. */
export function VirtualList({ count, rowHeight, renderRow, revealIndex = null, resetKey, onWindowChange, className, ...rest }: VirtualListProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(600);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setViewportHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.scrollTop = 0;
  }, [resetKey]);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || revealIndex === null || revealIndex < 0) return;
    const next = scrollTopToReveal(revealIndex, rowHeight, element.scrollTop, element.clientHeight);
    if (next !== null) element.scrollTop = next;
  }, [revealIndex, rowHeight]);

  const range = visibleRange(scrollTop, viewportHeight, rowHeight, count);
  const pageRows = rowsPerPage(viewportHeight, rowHeight);

  const windowRef = useRef(onWindowChange);
  useEffect(() => {
    windowRef.current = onWindowChange;
  });
  useEffect(() => {
    windowRef.current?.({ start: range.start, end: range.end, pageRows });
  }, [range.start, range.end, pageRows]);

  const rows: ReactNode[] = [];
  for (let index = range.start; index < range.end; index++) {
    rows.push(renderRow(index, { position: 'absolute', top: index * rowHeight, left: 0, right: 0, height: rowHeight }));
  }

  return (
    <div ref={ref} className={`virtual-list ${className ?? ''}`} onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)} {...rest}>
      <div className="virtual-list__sizer" style={{ height: count * rowHeight }}>
        {rows}
      </div>
    </div>
  );
}
