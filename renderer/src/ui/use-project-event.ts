import { useEffect, useState } from 'react';
import type { EventName, Events } from '../../../shared/contract';
import { api } from '../api';

/** The engine's events that are about one project (long work is a job: jobs/use-job-detail.ts follows it). */
type ProjectEventName = { [E in EventName]: Events[E] extends { projectId: number } ? E : never }[EventName];

/**
 * The latest `event` about project `projectId` while `listening`: null before the first one, and again once listening
 * stops, so an earlier one is never shown as the next one's.
 */
export function useProjectEvent<E extends ProjectEventName>(event: E, projectId: number, listening = true): Events[E] | null {
  const [latest, setLatest] = useState<Events[E] | null>(null);
  useEffect(() => {
    if (!listening) return;
    const off = api.on(event, (payload) => {
      if ((payload as { projectId: number }).projectId === projectId) setLatest(payload);
    });
    return () => {
      off();
      setLatest(null);
    };
  }, [event, projectId, listening]);
  return latest;
}
