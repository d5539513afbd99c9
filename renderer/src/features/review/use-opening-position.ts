import { useEffect, useState } from 'react';
import { api } from '../../api';
import { firstToReview, type ReviewFilter, type ReviewList } from './review-list';

/**
 * Where a list opens: its first row that needs a decision, not row 1 (the run accepted most rows before it). Found in
 * the list's first page; in a whole project in sheet order whose first page holds none, the first such row is asked
 * for, its place in the list being its row. 0 otherwise, and until the first page is there.
 */
export function useOpeningPosition(projectId: number, list: ReviewList, filter: ReviewFilter, listKey: string): number {
  const inFirstPage = firstToReview(list);
  const wholeProject = filter.states === null && filter.jobChanges === null && !filter.changedAtLastRefresh && filter.text.trim() === '' && filter.order === 'file' && filter.pattern === null;
  const askEngine = inFirstPage === null && list.pages.has(0) && wholeProject && (list.total ?? 0) > (list.pages.get(0)?.length ?? 0);
  const [asked, setAsked] = useState<{ key: string; position: number } | null>(null);

  useEffect(() => {
    if (!askEngine) return;
    let live = true;
    void api.call('review.page', { projectId, states: ['to_review'], order: 'file', offset: 0, limit: 1 }).then((result) => {
      // Nothing to review, or the page failed (the list says so itself): the list opens on its first row.
      if (live) setAsked({ key: listKey, position: result.ok ? (result.value.rows[0]?.rowIndex ?? 0) : 0 });
    });
    return () => {
      live = false;
    };
  }, [askEngine, projectId, listKey]);

  if (inFirstPage !== null) return inFirstPage;
  return asked?.key === listKey ? asked.position : 0;
}
