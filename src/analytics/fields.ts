import type { Content, Episode } from '../core/entities';
import type { AdHistoryItem } from '../core/bus';
import type { DeviceType } from './device';
import { type NetworkType, networkType } from './network';

export type FieldValue = string | number | string[] | number[];
export type Fields = Record<string, FieldValue>;

/** What the SPEC §7 fields are built from: a snapshot of the player at the time of the event. */
export interface FieldInput {
  content: Content | null;
  episode: Episode | null;
  poster: string;
  /** Seconds. */
  duration: number;
  currentTime: number;
  playbackRate: number;
  /** Wall-clock seconds spent actually playing (not paused, not buffering). */
  realPlayed: number;
  /** Seconds of the video played through (seeks excluded; at 2x, twice the real time). */
  videoPlayed: number;
  /** Height of the rendition playing, 0 when unknown. */
  height: number;
  /** Language of the audio track playing, '' when unknown. */
  audioLanguage: string;
  deviceType: DeviceType;
  userId?: string;
  ads: AdHistoryItem[];
  /** kB/s, undefined when there is no estimate. */
  bandwidthKBps?: number;
}

export const round1 = (n: number) => Math.round(n * 10) / 10;
const num = (n: unknown): number | '' => (typeof n === 'number' && Number.isFinite(n) ? n : '');

/** The SPEC §7 analytics fields. Unknown values are '' so every event has the same keys. */
export function buildFields(i: FieldInput): Fields {
  const c = i.content;
  const multi = !!c?.hasMultipleEpisodes;
  const imdbUrl = c?.rating?.imdb?.url ?? '';
  const kp = c?.kinopoiskId;
  const net: NetworkType | undefined = networkType(i.bandwidthKBps);
  return {
    video_id: c?.id ?? '',
    video_title: c?.title ?? '',
    duration: Math.round(i.duration),
    player_type: 'embedded',
    video_category: c?.contentType?.slug ?? '',
    video_thumbnail: i.poster,
    kinopoisk_raiting: num(c?.rating?.kinopoisk?.value),
    kinopoisk_id: kp === null || kp === undefined ? '' : kp,
    IMDb_raiting: num(c?.rating?.imdb?.value),
    IMDb_id: /tt\d+/.exec(imdbUrl)?.[0] ?? '',
    year: num(c?.year),
    countries: (c?.countries ?? []).map((x) => x.slug).join(','),
    current_time: round1(i.currentTime),
    playback_rate: i.playbackRate,
    real_time_played_sec: Math.round(i.realPlayed),
    video_time_played_sec: Math.round(i.videoPlayed),
    video_quality: i.height > 0 ? `${i.height}p` : '',
    season: multi ? num(i.episode?.season?.order) : '',
    episode: multi ? num(i.episode?.order) : '',
    language: i.audioLanguage || c?.languages?.[0]?.code || '',
    device_type: i.deviceType,
    user_id: i.userId ?? '',
    isTrailer: '0',
    ad_id: i.ads.map((a) => a.id),
    ad_type: i.ads.map((a) => a.type),
    ad_duration_sec: i.ads.map((a) => Math.round(a.duration)),
    ad_position_perc: i.ads.map((a) => Math.round(a.perc)),
    ad_position: i.ads.map((a) => a.position),
    network_type: net ?? '',
  };
}
