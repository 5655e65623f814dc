import { nonEmpty, parseFlag, parseInteger, parseTimeCode } from './parse';

/** The query parameters of SPEC §2, validated (SPEC §5). */
export interface PlayerQuery {
  movieId?: number;
  disableCheckingAvailable: boolean;
  episodeId?: number;
  season?: number;
  episode?: number;
  autoPlay: boolean;
  userId?: string;
  voiceAuthor?: string;
  timeCode?: number;
  episodeTime?: number;
  enabledShare: boolean;
  episodeVariantId?: number;
  langOrder: string[];
}

export function parseQuery(search: string): PlayerQuery {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    params = new URLSearchParams();
  }
  const get = (k: string) => params.get(k);
  const season = parseInteger(get('season'));
  const episode = parseInteger(get('episode'));
  return {
    movieId: parseInteger(get('movie_id')),
    disableCheckingAvailable: params.has('disable_checking_available'),
    episodeId: parseInteger(get('episode_id')),
    season,
    episode: season !== undefined && episode === undefined ? 1 : episode,
    autoPlay: parseFlag(get('auto_play')),
    userId: nonEmpty(get('user_id')),
    voiceAuthor: nonEmpty(get('voice_author')),
    timeCode: parseTimeCode(get('t')),
    episodeTime: parseTimeCode(get('episode_time')),
    enabledShare: parseFlag(get('enabled_share')),
    episodeVariantId: parseInteger(get('episode_variant_id')),
    langOrder: params.getAll('lang_order').flatMap(splitList),
  };
}

export function splitList(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(splitList);
  const s = nonEmpty(value);
  return s ? s.split(',').map((x) => x.trim()).filter(Boolean) : [];
}
