import { deadline, whenAborted } from '../core/deadline';
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
}

interface Answer {
  ok: boolean;
  status: number;
  text: string;
}

// GETs the bootstrap started before the entry landed, by address: the first request for the same
// address takes one over instead of asking again (each address fetched once; a retry asks anew).
const started = new Map<string, { answer: Promise<Answer>; abort(reason: unknown): void }>();
let earlyBudgetMs = 0;

/**
 * Runs `start` with every GET it makes synchronously (e.g. loadContent's four calls) started now
 * and kept for the request that comes for the same address later, which takes over the answer, its
 * errors, and the power to abort it. Nobody taking it over, the request ends at `budgetMs`.
 */
export function startEarly<T>(budgetMs: number, start: () => T): T {
  earlyBudgetMs = budgetMs;
  try {
    return start();
  } finally {
    earlyBudgetMs = 0;
  }
}

function takeOver(url: string, signal?: AbortSignal): Promise<Answer> | undefined {
  const early = started.get(url);
  if (!early) return;
  started.delete(url);
  if (!signal) return early.answer;
  const abort = () => early.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return Promise.race([early.answer, whenAborted(signal)]);
}

async function send(url: string, opts: RequestOptions): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', ...commonHeaders(), ...opts.headers };
  if (opts.secure !== undefined) {
    const token = await bearer(opts.secure);
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  const res = await fetch(url, { method: opts.method, headers, body: opts.body, signal: opts.signal });
  return { ok: res.ok, status: res.status, text: await res.text() };
}

/** One request; answers the parsed JSON body (undefined when empty), throws HttpError when not OK. */
export async function requestJson<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  const get = !opts.method && !opts.body;
  let answer: Promise<Answer> | undefined;
  // Asked again while starting early (the bootstrap reading one answer before the others): the same request.
  if (get && earlyBudgetMs) answer = started.get(url)?.answer;
  if (get && earlyBudgetMs && !answer) {
    const abort = new AbortController();
    const wait = deadline(earlyBudgetMs, abort.signal);
    answer = send(url, { ...opts, signal: wait.signal }).finally(wait.done);
    // Its failure belongs to whoever takes it over.
    answer.catch(() => {});
    started.set(url, { answer, abort: (reason) => abort.abort(reason) });
  }
  const res = await (answer ?? (get ? takeOver(url, opts.signal) : undefined) ?? send(url, opts));
  if (!res.ok) throw httpError(res.status, url, res.text);
  try {
    return (res.text ? JSON.parse(res.text) : undefined) as T;
  } catch {
    throw httpError(res.status, url, res.text);
  }
}

/** GET a JSON document from anywhere (no Bearer: the address may be another host's). */
export const getJson = <T>(url: string, signal?: AbortSignal): Promise<T> => requestJson<T>(url, { signal });
