import { useEffect, useRef } from 'react';
import { detailOf, jobEnded } from '../../../shared/job-detail';
import { api } from '../api';
import { importantNotice } from '../features/changes/change-text';
import { importWork, refreshEndNotice, refreshWork, runEndNotice, runWork, workTitle, type Work, type WorkKey } from './work-title';

/**
 * Keeps the window's title on the long work under way (work-title.ts), and when a run or a refresh ends while the
 * window is not in front, says so in a desktop notification: in Electron at once, in a browser once the user allowed
 * it (asked when they start a run: askToNotify). People marked important who moved or left are notified in front too:
 * a watch's refresh runs by itself, so nothing else on screen would say so.
 */
export function useWorkTitle(): void {
  const works = useRef(new Map<WorkKey, Work>());
  useEffect(() => {
    // Whether the window is in front, as its focus and visibility events say.
    inFront = document.hasFocus() && document.visibilityState === 'visible';
    const onFocus = () => (inFront = document.visibilityState === 'visible');
    const onBlur = () => (inFront = false);
    window.addEventListener('focus', onFocus);
    window.addEventListener('blur', onBlur);
    document.addEventListener('visibilitychange', onFocus);
    const set = (key: WorkKey, work: Work | null) => {
      if (work) works.current.set(key, work);
      else works.current.delete(key);
      document.title = workTitle([...works.current.values()]);
    };
    const offs = [
      api.on('job.progress', (job) => {
        const run = detailOf(job, 'run');
        const refresh = detailOf(job, 'refresh');
        const imported = detailOf(job, 'import');
        if (run) {
          const was = works.current.has(`run:${run.projectId}`);
          set(`run:${run.projectId}`, runWork(run));
          if (was && run.status !== 'running') notifyUnlessInFront(runEndNotice(run));
        } else if (refresh) {
          const was = works.current.has(`refresh:${refresh.projectId}`);
          set(`refresh:${refresh.projectId}`, refreshWork(refresh));
          if (was && refresh.status !== 'running') notifyUnlessInFront(refreshEndNotice(refresh));
        } else if (imported) {
          // An import that failed or was cancelled short of its last row ends its work too.
          set('import', jobEnded(job) ? null : importWork(imported));
        }
      }),
      api.on('watch.important', (found) => notify(importantNotice(found))),
    ];
    return () => {
      for (const off of offs) off();
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('blur', onBlur);
      document.removeEventListener('visibilitychange', onFocus);
    };
  }, []);
}

let inFront = true;

function notifyUnlessInFront(notice: { title: string; body: string } | null): void {
  if (!inFront) notify(notice);
}

function notify(notice: { title: string; body: string } | null): void {
  if (!notice) return;
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  new Notification(notice.title, { body: notice.body });
}

/**
 * Asks the browser to let the app notify the end of long work: called as the user starts a run or a refresh, never on
 * load. Electron grants it without asking; a browser asks once, and a "no" is kept by the browser.
 */
export function askToNotify(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}
