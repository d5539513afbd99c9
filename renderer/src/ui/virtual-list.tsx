import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type CSSProperties, type HTMLAttributes, type ReactNode, type Ref } from 'react';
import { rowsPerPage, scrollTopToReveal, visibleRange, type VisibleRange } from './visible-range';

export interface ListWindow extends VisibleRange {
  /** Whole rows that fit in the viewport. */
  pageRows: number;
}

interface VirtualListProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onScroll'> {
  count: number;
  rowHeight: number;
  renderRow: (index: number, style: CSSProperties) => ReactNode;
  /**
   * Kept in view above the rows, inside the element that scrolls (a grid's header rows). The scrolling element is
   * the one that takes keyboard focus, so the keys that scroll it reach it (and axe's scrollable-region-focusable holds).
   */
  header?: ReactNode;
  /** The role of the elements holding the header and the rows (a grid's "rowgroup"). */
  rowsRole?: string;
  /** The scrolling element, for a caller that moves focus to it. */
  listRef?: Ref<HTMLDivElement>;
  /** Keeps this row in view whenever it changes. */
  revealIndex?: number | null;
  /** Changing it scrolls back to the top (a new filter is a new list). */
  resetKey?: string;
  onWindowChange?: (window: ListWindow) => void;
}

/** A fixed-row-height windowed list: 100,000 rows cost as much to render as the 30 in view. */
export function VirtualList({ count, rowHeight, renderRow, header, rowsRole, listRef, revealIndex = null, resetKey, onWindowChange, className, ...rest }: VirtualListProps) {
  const ref = useRef<HTMLDivElement>(null);
  const headerRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(600);
  const [headerHeight, setHeaderHeight] = useState(0);
  // The sticky header covers the top of the viewport: rows are in view only below it.
  const rowsHeight = Math.max(0, viewportHeight - headerHeight);
  useImperativeHandle(listRef, () => ref.current!, []);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      setViewportHeight(element.clientHeight);
      setHeaderHeight(headerRef.current?.offsetHeight ?? 0);
    });
    observer.observe(element);
    if (headerRef.current) observer.observe(headerRef.current);
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
    const next = scrollTopToReveal(revealIndex, rowHeight, element.scrollTop, rowsHeight);
    if (next !== null) element.scrollTop = next;
    // A window made smaller keeps the row in view too.
  }, [revealIndex, rowHeight, rowsHeight]);

  const range = visibleRange(scrollTop, rowsHeight, rowHeight, count);
  const pageRows = rowsPerPage(rowsHeight, rowHeight);

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
      {header !== undefined && (
        <div ref={headerRef} className="virtual-list__header" role={rowsRole}>
          {header}
        </div>
      )}
      <div className="virtual-list__sizer" role={rowsRole} style={{ height: count * rowHeight }}>
        {rows}
      </div>
    </div>
  );
}
