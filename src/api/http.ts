import { deadline, nextTask, whenAborted } from '../core/deadline';
import { httpError } from '../core/errors';
import { bearer } from './auth';
import { commonHeaders } from './headers';

export interface RequestOptions {
  method?: string;
  /** Already encoded; `headers` says how (call.ts sends JSON). */
  body?: string;
  headers?: Record<string, string>;
  /** Every request is cancellable; none times out by itself (SPEC §9: timeout 0), callers bound their waits. */
  signal?: AbortSignal;
  /** Marks a secure call: the API base against which the Bearer token is refreshed when expired. */
  secure?: string;
  /** Fetch Priority: on HTTP/1.1 a connection freed goes to the highest waiting request first. */
  priority?: RequestPriority;
}

export interface Answer {
  ok: boolean;
  status: number;
  text: string;
}

// GETs the bootstrap started before the entry landed, by address: the first request for the same
// address takes one over instead of asking again (each address fetched once; a retry asks anew). One
// instance of this module serves both page scripts (scripts/page-modules.mjs).
const started = new Map<string, { answer: Promise<Answer>; abort(reason: unknown): void }>();
let earlyBudgetMs = 0;
let earlyPriority: RequestPriority | undefined;
let earlyAfter: Promise<unknown> | undefined;

export interface EarlyOptions {
  /** Fetch Priority: on HTTP/1.1 a connection freed goes to the highest priority waiting first. */
  priority?: RequestPriority;
  /** The requests go out once this settles (kept, and waited for by whoever takes one over, meanwhile). */
  after?: Promise<unknown>;
}

/**
 * Runs `start` with every GET it makes synchronously (e.g. loadContent's four calls) started now
 * (or once `after` settles) and kept for the request that comes for the same address later, which
 * takes over the answer, its errors, and the power to abort it. Nobody taking it over, the request
 * ends at `budgetMs` (counted from now).
 */
export function startEarly<T>(budgetMs: number, start: () => T, opts: EarlyOptions = {}): T {
  earlyBudgetMs = budgetMs;
  earlyPriority = opts.priority;
  earlyAfter = opts.after;
  try {
    return start();
  } finally {
    earlyBudgetMs = 0;
    earlyPriority = earlyAfter = undefined;
  }
}

/**
 * The GET the bootstrap started for `url`, handed over once (the caller's signal aborts it); else
 * undefined. Its answer comes in a task of its own even when it is already in: reading it, and what
 * follows, then does not lengthen the task that asked (a fast network's start was one long task).
 */
export function takeEarly(url: string, signal?: AbortSignal): Promise<Answer> | undefined {
  const early = started.get(url);
  if (!early) return;
  started.delete(url);
  const answer = early.answer.then((a) => nextTask().then(() => a));
  if (!signal) return answer;
  const abort = () => early.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return Promise.race([answer, whenAborted(signal)]);
}

/**
 * A GET of `url` made by `ask`: while starting early, started now (or the one already started for the
 * same address) and kept for whoever asks later; otherwise the early one taken over, or a new one.
 */
function get(url: string, ask: (signal?: AbortSignal) => Promise<Answer>, signal?: AbortSignal): Promise<Answer> {
  if (!earlyBudgetMs) return takeEarly(url, signal) ?? ask(signal);
  const known = started.get(url);
  if (known) return known.answer;
  const abort = new AbortController();
  const wait = deadline(earlyBudgetMs, abort.signal);
  const answer = (earlyAfter ? earlyAfter.then(() => ask(wait.signal), () => ask(wait.signal)) : ask(wait.signal)).finally(wait.done);
  started.set(url, { answer, abort: (reason) => abort.abort(reason) });
  // A failure (or the budget spent) before anyone took it over is not kept: whoever asks later asks
  // anew (an ad's VAST may be asked for long after the start). Taken over, it belongs to the taker.
  answer.catch(() => {
    if (started.get(url)?.answer === answer) started.delete(url);
  });
  return answer;
}

async function send(url: string, opts: RequestOptions): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', ...commonHeaders(), ...opts.headers };
  if (opts.secure !== undefined) {
    // Awaited only when it is a refresh: a valid token goes out in the caller's turn (auth.ts).
    const now = bearer(opts.secure);
    const token = now instanceof Promise ? await now : now;
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  const res = await fetch(url, { method: opts.method, headers, body: opts.body, signal: opts.signal, priority: opts.priority });
  return { ok: res.ok, status: res.status, text: await res.text() };
}

/** One request; answers the parsed JSON body (undefined when empty), throws HttpError when not OK. */
export async function requestJson<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  // Read now: a deferred early request goes out later, once startEarly has returned.
  const priority = earlyBudgetMs ? earlyPriority : opts.priority;
  const res = await (opts.method || opts.body ? send(url, opts) : get(url, (signal) => send(url, { ...opts, signal, priority }), opts.signal));
  if (!res.ok) throw httpError(res.status, url, res.text);
  try {
    return (res.text ? JSON.parse(res.text) : undefined) as T;
  } catch {
    throw httpError(res.status, url, res.text);
  }
}

/** GET a JSON document from anywhere (no Bearer: the address may be another host's). */
export const getJson = <T>(url: string, signal?: AbortSignal): Promise<T> => requestJson<T>(url, { signal });

/**
 * GET a document from another host as text: with the page's cookies and none of our headers (an ad
 * server's VAST: a simple CORS request, no preflight). Started early like the others, then taken over
 * with takeEarly.
 */
export const getCrossOriginText = (url: string): Promise<Answer> =>
  get(url, (signal) => fetch(url, { credentials: 'include', signal }).then(async (res) => ({ ok: res.ok, status: res.status, text: await res.text() })));
