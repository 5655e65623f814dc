import { isAbortError, isHttpError } from '../api/http';

export type ErrorScreen = 'missing-movie-id' | 'not-found' | 'blocked' | 'load-failed' | 'generic';
export type ErrorType = 'config' | 'content' | 'source' | 'media' | 'blocked';

/** Errors have a type, details and `fatal` (after hls.js); the screen is derived in one place. */
export interface PlayerError {
  type: ErrorType;
  details: string;
  fatal: boolean;
  screen: ErrorScreen;
  /** The address that failed to load, for 'Ошибка в загрузке: {address}'. */
  address?: string;
  /** The id shown as 'Идентификатор ошибки' and sent to the error-reporting service. */
  eventId: string;
  cause?: unknown;
}

export function newEventId(): string {
  const c = globalThis.crypto;
  if (c?.randomUUID) return c.randomUUID().replace(/-/g, '');
  return Array.from({ length: 32 }, () => ((Math.random() * 16) | 0).toString(16)).join('');
}

/** The only place that decides which screen an error gets (SPEC §8). */
export function classify(type: ErrorType, details: string, cause?: unknown, address?: string): PlayerError {
  let screen: ErrorScreen = 'generic';
  if (type === 'config') screen = 'missing-movie-id';
  else if (type === 'blocked') screen = 'blocked';
  else if (type === 'source') screen = 'load-failed';
  else if (type === 'content' && isHttpError(cause) && cause.status === 404) screen = 'not-found';
  return { type, details, fatal: true, screen, address, eventId: newEventId(), cause };
}

export { isAbortError };
