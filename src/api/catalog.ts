import type { Availability, Content, Episode, Season } from '../content/types';
import { getJson } from './http';

// The catalogue calls the player makes (SPEC §7), base path /catalog-api.
const url = (base: string, path: string) => `${base}/catalog-api${path}`;

export const getContent = (base: string, id: number, signal?: AbortSignal) =>
  getJson<Content>(url(base, `/contents/${id}`), signal);

export const getSeasons = (base: string, id: number, signal?: AbortSignal) =>
  getJson<Season[]>(url(base, `/contents/${id}/seasons`), signal);

export const getEpisodes = (base: string, id: number, signal?: AbortSignal) =>
  getJson<Episode[]>(url(base, `/episodes?content-id=${id}`), signal);

export const getAvailability = (base: string, id: number, domain: string, signal?: AbortSignal) =>
  getJson<Availability>(url(base, `/contents/${id}/available?domain=${encodeURIComponent(domain)}`), signal);
