import { type PlayerError, isExpected, isHttpError, screenOf } from '../core/errors';

export interface Report {
  exception: Error;
  /** Sentry's EventHint: the event id is the one the error screen shows. */
  hint: {
    event_id: string;
    captureContext: { tags: Record<string, string>; contexts: Record<string, Record<string, unknown>>; level: 'error' };
  };
}

/**
 * SPEC §8: fatal errors are reported. Blocked content and a missing movie_id are outcomes SPEC expects
 * (the country rule, a partner's bad link), not faults; reporting them would bury the errors an
 * on-call engineer has to find.
 */
export const shouldReport = (error: PlayerError) => error.fatal && !isExpected(error);

/**
 * What is sent for a player error (SPEC §7): HTTP errors carry the response body, streaming errors
 * their error data; the event id is the PlayerError's, so the id on screen is the one received.
 */
export function buildReport(error: PlayerError): Report {
  const { cause, address = '', eventId = '' } = error.data ?? {};
  const screen = screenOf(error);
  const contexts: Record<string, Record<string, unknown>> = {
    player: { category: error.category, code: error.code, message: error.message, screen, fatal: error.fatal, address },
  };
  let exception: Error;
  if (isHttpError(cause)) {
    exception = cause;
    contexts.http = { status: cause.status, url: cause.url, body: cause.body };
  } else if (cause instanceof Error) {
    exception = cause;
  } else {
    exception = Object.assign(new Error(`${error.code}: ${error.message}`), { name: 'PlayerError' });
    if (cause && typeof cause === 'object') contexts.stream = { ...(cause as Record<string, unknown>) };
  }
  return {
    exception,
    hint: {
      event_id: eventId,
      captureContext: { tags: { error_type: error.category, error_code: error.code, error_screen: screen }, contexts, level: 'error' },
    },
  };
}
