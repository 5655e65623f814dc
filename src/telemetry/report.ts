import type { PlayerError } from '../core/errors';

export interface Report {
  exception: Error;
  /** Sentry's EventHint: the event id is the one the error screen shows. */
  hint: {
    event_id: string;
    captureContext: { tags: Record<string, string>; contexts: Record<string, Record<string, unknown>>; level: 'error' };
  };
}

type HttpLike = Error & { status: number; url: string; body: string };
// By name rather than api/http's isHttpError: importing an entry module from a lazy piece would
// split it into an extra chunk on the critical path.
const isHttp = (e: unknown): e is HttpLike => e instanceof Error && e.name === 'HttpError';

/**
 * Blocked content and a missing movie_id are outcomes SPEC expects (the country rule, a partner's
 * bad link), not faults; reporting them would bury the errors an on-call engineer has to find.
 */
export const shouldReport = (error: PlayerError) => error.type !== 'blocked' && error.type !== 'config';

/**
 * What is sent for a player error (SPEC §7): HTTP errors carry the response body, streaming errors
 * their error data; the event id is the PlayerError's, so the id on screen is the one received.
 */
export function buildReport(error: PlayerError): Report {
  const cause = error.cause;
  const contexts: Record<string, Record<string, unknown>> = {
    player: { type: error.type, details: error.details, screen: error.screen, fatal: error.fatal, address: error.address ?? '' },
  };
  let exception: Error;
  if (isHttp(cause)) {
    exception = cause;
    contexts.http = { status: cause.status, url: cause.url, body: cause.body };
  } else if (cause instanceof Error) {
    exception = cause;
  } else {
    exception = Object.assign(new Error(`${error.type}: ${error.details}`), { name: 'PlayerError' });
    if (cause && typeof cause === 'object') contexts.stream = { ...(cause as Record<string, unknown>) };
  }
  return {
    exception,
    hint: {
      event_id: error.eventId,
      captureContext: { tags: { error_type: error.type, error_screen: error.screen }, contexts, level: 'error' },
    },
  };
}
