import { useEffect, useState } from 'react';
import { parseView, viewStorageKey, type ReviewView } from './review-view';

function readView(projectId: number): ReviewView {
  try {
    return parseView(window.localStorage.getItem(viewStorageKey(projectId)));
  } catch {
    return parseView(null);
  }
}

/** The review's filters and order for one project, as last left (review-view.ts), saved as they change. */
export function useReviewView(projectId: number): [ReviewView, (change: Partial<ReviewView>) => void] {
  const [stored, setStored] = useState(() => ({ projectId, view: readView(projectId) }));
  const view = stored.projectId === projectId ? stored.view : readView(projectId);

  useEffect(() => {
    if (stored.projectId !== projectId) return;
    try {
      window.localStorage.setItem(viewStorageKey(projectId), JSON.stringify(stored.view));
    } catch {
      // Without storage the view lasts until the screen closes.
    }
  }, [projectId, stored]);

  const change = (next: Partial<ReviewView>) => setStored((current) => ({ projectId, view: { ...(current.projectId === projectId ? current.view : readView(projectId)), ...next } }));
  return [view, change];
}
