import { nonEmpty, parseInteger } from './parse';
import { type PlayerQuery, parseQuery, splitList } from './query';

/** Everything the player is configured with (SPEC §1): embed attributes and globals, plus the query. */
export interface EmbedConfig {
  /** Base of the product's API (…/catalog-api/…); '' means the player page's own origin. */
  envBaseUrl: string;
  envAdListUrl?: string;
  fullscreenMode?: string;
  sentryProjectLabel?: string;
  /** Error-reporting DSN; without one nothing is loaded or sent. */
  sentryDsn?: string;
  /** Name of the page's global analytics function (gtag convention), default 'gtag'. */
  analyticsFunction?: string;
  langOrder: string[];
  movieId?: number;
  /** Where lazy player pieces are fetched from (ends with '/'). */
  assetBase: string;
  /** How long the catalogue may take before the load counts as failed (ms). */
  requestTimeoutMs: number;
  /** Origins whose commands the player takes (partner SDK, pause); empty: any embedding page. */
  embedOrigins: string[];
  query: PlayerQuery;
}

type Bag = Record<string, unknown>;

export interface ConfigSources {
  /** data-* attributes: of the mount element and, when same-origin, of the embedding <iframe>. */
  datasets: Array<DOMStringMap | undefined>;
  globals: Bag;
  search: string;
  /** The default asset base: the folder of the entry script. */
  scriptUrl: string;
}

const DEFAULT_TIMEOUT_MS = 15000;

/**
 * Data attributes win over globals. A name is looked up as written (data-env_base_url → dataset
 * key env_base_url), in its dashed form (data-env-base-url → envBaseUrl) and, for globals, also
 * upper-cased (window.ENV_BASE_URL), since partners' pages use all three.
 */
export function readEmbedConfig(src: ConfigSources): EmbedConfig {
  const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  const pick = (name: string): unknown => {
    for (const ds of src.datasets) {
      if (!ds) continue;
      const v = ds[name] ?? ds[camel(name)];
      if (v !== undefined) return v;
    }
    return src.globals[name] ?? src.globals[name.toUpperCase()];
  };
  const query = parseQuery(src.search);
  const fromQueryLang = query.langOrder;
  const assetBase = nonEmpty(pick('player_asset_path'));
  return {
    envBaseUrl: (nonEmpty(pick('env_base_url')) ?? '').replace(/\/+$/, ''),
    envAdListUrl: nonEmpty(pick('env_ad_list_url')),
    fullscreenMode: nonEmpty(pick('fullscreen_mode')),
    sentryProjectLabel: nonEmpty(pick('sentry_project_label')),
    sentryDsn: nonEmpty(pick('sentry_dsn')),
    analyticsFunction: nonEmpty(pick('analytics_function')),
    langOrder: fromQueryLang.length ? fromQueryLang : splitList(pick('lang_order')),
    movieId: parseInteger(pick('movie_id')) ?? query.movieId,
    assetBase: withSlash(assetBase ? resolve(assetBase, src.scriptUrl) : new URL('.', src.scriptUrl).href),
    requestTimeoutMs: parseInteger(pick('env_request_timeout')) || DEFAULT_TIMEOUT_MS,
    embedOrigins: splitList(pick('embed_origins')),
    query,
  };
}

function resolve(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return new URL('.', base).href;
  }
}

const withSlash = (s: string) => (s.endsWith('/') ? s : s + '/');

/**
 * The API base the catalogue calls go to: the configured one, else the player page's own origin, from
 * its address (a sandboxed frame's location.origin is 'null'). One rule for the bootstrap and the
 * controller, so the entry's calls have the addresses of the bootstrap's and take them over.
 */
export const apiBaseOf = (config: EmbedConfig, pageUrl: string): string => config.envBaseUrl || new URL(pageUrl).origin;
