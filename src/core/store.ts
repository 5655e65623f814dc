import { computed, signal } from '@preact/signals-core';
import type { AdHistoryItem } from './bus';
import type { Content, Descriptor, Episode, Season } from './entities';
import type { PlayerError } from './errors';
import type { SubtitleStyle } from './memory-protocol';
import type { MediaTrack, QualityLevel } from './tracks';

/** SPEC §4 ad loader state; content playback is held while it is 'load' or 'ready'. */
export type AdLoaderState = 'idle' | 'load' | 'ready' | 'stopped';

/**
 * One store per player. Raw inputs are signals, the rest is computed. Media fields are written only
 * by the provider, when the <video> confirms them.
 */
/** What the engine can honour: cast, picture-in-picture, AirPlay, and which fullscreen (if any). */
export interface Offers {
  cast: boolean;
  pip: boolean;
  airplay: boolean;
  fullscreen: 'native' | 'stretched' | 'none';
}

export function createStore() {
  const content = signal<Content | null>(null);
  const episode = signal<Episode | null>(null);
  const episodes = signal<Episode[]>([]);
  const isAvailable = signal(true);
  const error = signal<PlayerError | null>(null);
  const store = {
    loading: signal(true),
    error,
    content,
    /** Sorted by season order, then episode order (SPEC §3). */
    episodes,
    seasons: signal<Season[]>([]),
    isAvailable,
    episode,
    /** The saved position of the episode (and variant) being loaded, read when it was chosen. */
    savedTime: signal<number | undefined>(undefined),
    descriptor: signal<Descriptor | null>(null),
    /** SPEC §4 source loading: '' while loading, then the address being played. */
    sourceUrl: signal(''),
    /** At a source's first frame, what its engine asked the prefetch for first (features/start-memory.ts). */
    firstAsked: signal<{ url: string; startAt: number; playlists: string[]; segments: string[] } | null>(null),

    paused: signal(true),
    started: signal(false),
    ended: signal(false),
    waiting: signal(false),
    currentTime: signal(0),
    duration: signal(0),
    bufferedEnd: signal(0),
    volume: signal(1),
    muted: signal(false),
    fullscreen: signal(false),
    /** Autoplay was refused with sound and the video plays muted: offer to unmute. */
    mutedAutoplay: signal(false),
    /** A play was asked for and the media has not confirmed it yet. */
    playRequested: signal(false),
    playbackRate: signal(1),

    /** Renditions of the stream; `quality` is the chosen one or -1 (auto), `level` the one playing. */
    qualities: signal<QualityLevel[]>([]),
    quality: signal(-1),
    level: signal(-1),
    audioTracks: signal<MediaTrack[]>([]),
    audioTrack: signal(-1),
    /** Subtitles; `textTrack` -1 is off. */
    textTracks: signal<MediaTrack[]>([]),
    textTrack: signal(-1),
    /** The active variant of the current episode (SPEC §3 episodeVariants), when it has any. */
    activeVariantId: signal<number | null>(null),
    adState: signal<AdLoaderState>('idle'),
    /** The ad showing now, from its first frame to its end: for a piece that loads while it plays. */
    currentAd: signal<AdHistoryItem | null>(null),
    /**
     * The start no longer needs the network to itself (controller/start-settled.ts): the interface's
     * pieces and the poster, which the first frame does not need, load from then on.
     */
    startSettled: signal(false),

    /** iOS-in-a-frame fullscreen (SPEC §4): the player fills the frame and the parent enlarges it. */
    stretched: signal(false),
    /** The interface keeps the controls shown (a menu is open, the pointer is over the controls). */
    controlsHeld: signal(false),
    /** Texts of the subtitle cues showing now; the UI renders them (native rendering is hidden). */
    cues: signal<string[]>([]),
    /** How the cues are drawn, as the viewer chose (the subtitles menu) or this device remembers; unset: the default. */
    subtitleStyle: signal<SubtitleStyle>(),
    /** WebVTT of preview thumbnails for the stream, when it has one. */
    thumbnailsUrl: signal(''),
    /** Audio gain through the lazy audio module (1 = untouched). */
    gain: signal(1),
    pip: signal(false),
    /** The controls the engine can honour (providers/capabilities.ts): none until the controller detected them. */
    offers: signal<Offers>({ cast: false, pip: false, airplay: false, fullscreen: 'none' }),
    /** The browser offers AirPlay targets (Safari only). */
    airplay: signal(false),

    poster: computed(() => episode.value?.posterPath || content.value?.posterUrl || ''),
    /** SPEC §4/§5: the episode after this one, only while moving on is allowed (available, no error). */
    nextEpisode: computed((): Episode | undefined => {
      const current = episode.value;
      if (!current || !isAvailable.value || error.value) return undefined;
      const list = episodes.value;
      const i = list.findIndex((e) => e.id === current.id);
      return i < 0 ? undefined : list[i + 1];
    }),
  };
  return store;
}

export type Store = ReturnType<typeof createStore>;
