// One error model for the whole player (after hls.js: a category, a stable code, `fatal`). Engine and
// ad errors travel on the same bus event as fatal ones; the table below is the only place that says
// which codes are fatal and which SPEC §8 screen each gets.

export type ErrorCategory = 'config' | 'content' | 'source' | 'media' | 'ad';
export type ErrorScreen = 'missing-movie-id' | 'not-found' | 'blocked' | 'load-failed' | 'generic';

/**
 * Stable codes (docs/errors.md; partners see them). `vast-N` is an ad error with the IAB VAST
 * code N (SPEC §8 ad error codes).
 */
export type ErrorCode =
  | 'movie-id-missing'
  | 'content-not-found'
  | 'content-load-failed'
  | 'content-timeout'
  | 'content-blocked'
  | 'descriptor-load-failed'
  | 'media-unsupported'
  | 'media-load-failed'
  | 'media-recoverable'
  | `vast-${number}`;

export interface ErrorData {
  /** The id shown as 'Идентификатор ошибки' and sent to the error-reporting service (fatal errors). */
  eventId?: string;
  /** The address that failed to load, for 'Ошибка в загрузке: {address}'. */
  address?: string;
  /** What was caught: an HttpError (its body is reported), the engine's error data, an exception. */
  cause?: unknown;
  /** The IAB VAST code of an ad error. */
  vastCode?: number;
}

export interface PlayerError {
  category: ErrorCategory;
  code: ErrorCode;
  fatal: boolean;
  /** For people reading logs and reports, not for the screen (the screen's texts are SPEC's). */
  message: string;
  data?: ErrorData;
}

/** code → [category, screen]; a code with a screen is fatal, one without is not. */
const CODES: Record<Exclude<ErrorCode, `vast-${number}`>, [ErrorCategory, ErrorScreen?]> = {
  'movie-id-missing': ['config', 'missing-movie-id'],
  'content-not-found': ['content', 'not-found'],
  'content-load-failed': ['content', 'generic'],
  'content-timeout': ['content', 'generic'],
  'content-blocked': ['content', 'blocked'],
  'descriptor-load-failed': ['source', 'load-failed'],
  'media-unsupported': ['media', 'generic'],
  'media-load-failed': ['media', 'generic'],
  'media-recoverable': ['media'],
};

const entry = (code: ErrorCode): [ErrorCategory, ErrorScreen?] => CODES[code as keyof typeof CODES] ?? ['ad'];

export function playerError(code: ErrorCode, message: string, data: ErrorData = {}): PlayerError {
  const [category, screen] = entry(code);
  const fatal = !!screen;
  return { category, code, fatal, message, data: fatal ? { eventId: newEventId(), ...data } : data };
}

/** SPEC §8: ad errors carry the IAB code; they are never fatal (the content plays on). */
export const vastError = (vastCode: number, message: string): PlayerError => playerError(`vast-${vastCode}`, message, { vastCode });

/** The SPEC §8 screen of a fatal error. */
export const screenOf = (error: PlayerError): ErrorScreen => entry(error.code)[1] ?? 'generic';

/** Expected outcomes (the country rule, a partner's bad link), not faults to report. */
export const isExpected = (error: PlayerError): boolean => error.code === 'content-blocked' || error.code === 'movie-id-missing';

export function newEventId(): string {
  const c = globalThis.crypto;
  if (c?.randomUUID) return c.randomUUID().replace(/-/g, '');
  return Array.from({ length: 32 }, () => ((Math.random() * 16) | 0).toString(16)).join('');
}

/** A response that arrived but was not OK. The body is kept for the error report (SPEC §7). */
export interface HttpError extends Error {
  name: 'HttpError';
  status: number;
  url: string;
  body: string;
}

export function httpError(status: number, url: string, body: string): HttpError {
  const err = new Error(`HTTP ${status} for ${url}`) as HttpError;
  err.name = 'HttpError';
  err.status = status;
  err.url = url;
  err.body = body.slice(0, 2000);
  return err;
}

// Told by name, not by class: an error may come from another realm (a frame) or another copy of this module.
export const isHttpError = (e: unknown): e is HttpError =>
  typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'HttpError' && typeof (e as { status?: unknown }).status === 'number';
export const isAbortError = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';
