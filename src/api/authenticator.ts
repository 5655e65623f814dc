// Typed calls of the authenticator service, base path /authenticator (SPEC §7). Payloads other than
// the refresh body are not specified, so they are passed through as the caller gives them. Each is
// its own export so that a bundle carries only the calls it imports.
import { type Query, call, qs, seg } from './call';

const S = '/authenticator';
type Signal = AbortSignal | undefined;

export const visitPasswordRestoreLink = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  call<T>(base, S, 'PUT', '/user/password/restore/visit-link', body, signal);
export const initPasswordRestore = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  call<T>(base, S, 'POST', '/user/password/restore/init', body, signal);
export const restorePassword = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  call<T>(base, S, 'POST', '/user/password/restore', body, signal);
export const changePassword = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  call<T>(base, S, 'POST', '/user/password/change', body, signal);
export const renameUser = <T = unknown>(base: string, query: Query, signal?: Signal) =>
  call<T>(base, S, 'PATCH', `/user/rename${qs(query)}`, undefined, signal);
export const getUserDetails = <T = unknown>(base: string, signal?: Signal) =>
  call<T>(base, S, 'GET', '/user/details', undefined, signal);
export const notifySubscription = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  call<T>(base, S, 'POST', '/subscription/notify', body, signal);
export const subscribe = <T = unknown>(base: string, query: Query, signal?: Signal) =>
  call<T>(base, S, 'POST', `/subscription${qs(query)}`, undefined, signal);
export const completeSignup = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  call<T>(base, S, 'POST', '/signup/complete', body, signal);
export const signup = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  call<T>(base, S, 'POST', '/signup', body, signal);
export const login = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  call<T>(base, S, 'POST', '/authentication', body, signal);
export const createUser = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  call<T>(base, S, 'POST', '/administration/users', body, signal);
export const blockUser = <T = unknown>(base: string, id: string | number, signal?: Signal) =>
  call<T>(base, S, 'POST', `/administration/block-user/${seg(id)}`, undefined, signal);
// POST /authentication/refresh is made by the client itself (api/auth.ts) before secure calls.
