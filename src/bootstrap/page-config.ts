import { type EmbedConfig, apiBaseOf, readEmbedConfig } from '../config/embed-config';
import { isFresh } from '../api/auth';
import { embeddingAddress } from '../config/embedding-address';
import { readCookie } from '../storage/cookies';

/**
 * The config as this page is given it (SPEC §1): the mount's and, when same-origin, the embedding
 * frame's data attributes, the globals, the query. One reading for the bootstrap and the entry, so
 * every address they ask for comes out the same and the entry takes the bootstrap's requests over.
 */
export function readPageConfig(mount: HTMLElement | null, scriptUrl: string): EmbedConfig {
  let frame: DOMStringMap | undefined;
  try {
    frame = (window.frameElement as HTMLElement | null)?.dataset;
  } catch {
    frame = undefined;
  }
  return readEmbedConfig({
    datasets: [mount?.dataset, frame],
    globals: window as unknown as Record<string, unknown>,
    search: location.search,
    scriptUrl,
  });
}

/**
 * What the bootstrap starts the catalogue calls with (the API base, the movie id), or undefined when
 * it leaves them to the entry: no movie id, or an expired token (the client's to refresh, under its
 * lock: SPEC §4).
 */
export function earlyCatalogue(config: EmbedConfig): { apiBase: string; movieId: number } | undefined {
  const token = readCookie('authToken');
  const { movieId } = config;
  if (movieId === undefined || (token && !isFresh(token))) return;
  return { apiBase: apiBaseOf(config, location.href), movieId };
}

/** The embedding page's address, as the availability call sends it (`domain`). */
export const pageDomain = (): string =>
  embeddingAddress({
    inFrame: window.parent !== window,
    ancestorOrigins: location.ancestorOrigins,
    referrer: document.referrer,
    href: location.href,
  });
