import { useEffect, useRef } from 'react';
import { useSubscription } from 'urql';
import { PROJECT_UPDATES, TERMINAL, type ProjectUpdate } from './documents.ts';

type Followed = { id: string; status: string; updatedAt: string };

/**
 * A project's status and progress as they happen, from the projectUpdates
 * subscription, followed while the project is at work. The subscription's
 * first event is the current state, so one started late misses nothing; the
 * server may end it after a completed or failed event, and a new one starts
 * when the project is at work again (an export). `onFinal` runs on such an
 * event, for the caller to read what the work produced.
 */
export function useProjectLive(project: Followed | undefined, onFinal?: () => void) {
  const following = !!project && !TERMINAL.has(project.status);
  const [sub] = useSubscription<{ projectUpdates: ProjectUpdate }>({
    query: PROJECT_UPDATES,
    variables: { projectId: project?.id ?? '' },
    pause: !following,
  });
  const event = sub.data?.projectUpdates;
  const final = useRef(onFinal);
  final.current = onFinal;
  useEffect(() => {
    if (event && TERMINAL.has(event.status)) final.current?.();
  }, [event]);
  // the newer of the event and the row the page read
  const live = event && project && event.projectId === project.id && event.at >= project.updatedAt ? event : null;
  return { live, following, error: following ? sub.error : undefined };
}

/** A project's step as a line: "transcribe", "render", "clips 2/5". */
export function stepLabel(status: string, stage: string | null | undefined, clipsDone?: number | null, clipsTotal?: number | null): string {
  const clips = clipsTotal ? ` (clips ${clipsDone ?? 0}/${clipsTotal})` : '';
  return `${status}${stage && stage !== status ? `: ${stage}` : ''}${clips}`;
}
