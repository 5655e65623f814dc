import { effect, signal, untracked } from '@preact/signals-core';
import type { AdHistoryItem } from '../core/bus';
import { EVENTS, METHODS, PROTOCOL_VERSION, type RemoteError, fail, readMessage } from '../core/embed-protocol';
import type { Episode } from '../core/entities';
import type { PlayerParts } from '../core/player-api';
import { attachRemoteTracks } from './remote-tracks';

/** Posts one envelope (`type`, plus `id` for a reply) to the page at `to`. */
export type Send = (type: 'reply' | 'event', fields: { id?: number; payload: unknown }, to: string) => void;

export interface Remote {
  /** A protocol message from the parent (already checked for window and origin); false when it is none. */
  receive(data: unknown, from: string): boolean;
  dispose(): void;
}

/** What `ready()` resolves with in the SDK: the streamed events and those it reads from the SPEC's messages. */
export const REMOTE_INFO = {
  version: PROTOCOL_VERSION,
  methods: METHODS,
  events: ['ready', ...EVENTS, 'fullscreenchange', 'episodeChanged', 'episodeVariantChanged', 'timeProgressChanged'],
};

const CONFIRM_MS = 10000;
const TIMEUPDATE_MS = 250;

/** A command resolves with nothing once confirmed. */
const confirmed = (p: Promise<unknown>) => p.then(() => null);

/**
 * The player's side of the partner SDK (docs/embedding.md "Partner SDK"): requests with ids, each answered once
 * when the player confirms it (the store says so) or with `{ code, message }`; events streamed only
 * to a page that said hello, at its origin.
 */
export function createRemote(parts: PlayerParts, send: Send): Remote {
  const { store, bus, requests } = parts;
  let sdkOrigin: string | undefined;
  const adPlaying = signal(false);
  const seekedTo = signal(-1);
  const stops = new Set<() => void>();
  const ignored = new Set<string>();
  let lastTick = 0;
  // Tells the SDK a new player (the frame navigated) from a second hello to the same one.
  const instance = Math.random();
  /** Between an ad's start and its end (adPlaying is whether it plays right now). */
  // This piece can load while an ad plays (with autoplay it waits for the first frame, a pre-roll's too).
  let adRunning = (adPlaying.value = store.currentAd.peek() !== null);

  const emit = (name: string, data: unknown = {}) => void (sdkOrigin && send('event', { payload: { name, data } }, sdkOrigin));
  const failure = () => {
    const e = store.error.value;
    return e?.fatal ? fail(e.code, e.message) : undefined;
  };

  /** Resolves once `done()` holds (watched on the store), rejects on `broken()` or after CONFIRM_MS. */
  const until = <T>(done: () => T | undefined | false, broken: () => RemoteError | undefined = failure) =>
    new Promise<T>((resolve, reject) => {
      let settled = false;
      let stop: (() => void) | undefined;
      const end = () => {
        settled = true;
        clearTimeout(timer);
        stop?.();
        stops.delete(cancel);
      };
      const cancel = () => (end(), reject(fail('destroyed', 'the player was destroyed')));
      const timer = setTimeout(() => (end(), reject(fail('timeout', 'the player did not confirm in time'))), CONFIRM_MS);
      stops.add(cancel);
      stop = effect(() => {
        if (settled) return;
        const error = broken();
        if (error) return void (end(), reject(error));
        const value = done();
        if (value !== undefined && value !== false) {
          end();
          resolve(value as T);
        }
      });
      if (settled) stop();
    });

  // The media takes volume, mute and seeks once the UI has attached it: it then loads a source (a task
  // later, so the stored volume it was given has reached the store), or it already reports a duration
  // (when this piece came after the source).
  const sourced = signal(false);
  const attached = () => sourced.value || store.duration.value > 0;
  const seekable = () => store.duration.value > 0;
  /**
   * A command to the media: asked before the media can take it, it waits for `can()` (within the same
   * deadline), then `act` runs once and it resolves as `until(done)`.
   */
  const whenMedia = <T>(can: () => boolean, act: () => void, done: () => T | undefined | false) => {
    let acted = false;
    return until<T>(() => {
      if (!acted) {
        if (!can()) return undefined;
        acted = true;
        untracked(act);
      }
      return done();
    });
  };

  const findEpisode = (want: unknown): Episode | undefined => {
    const w = (want && typeof want === 'object' ? want : {}) as { id?: unknown; season?: unknown; episode?: unknown };
    const episode = w.episode ?? 1;
    return store.episodes
      .peek()
      .find((e) => (typeof w.id === 'number' ? e.id === w.id : typeof w.season === 'number' && e.season?.order === w.season && e.order === episode));
  };

  const unit = (v: unknown) => typeof v === 'number' && v >= 0 && v <= 1;

  const run: Record<string, (params: unknown) => unknown> = {
    play() {
      // A paused ad resumes (the ad runner), else the content plays.
      bus.emit('parent:command', { actionType: 'play' });
      requests.play('api');
      return confirmed(until(
        () => !store.paused.value || adPlaying.value,
        () => failure() ?? (store.paused.value && !store.playRequested.value ? fail('autoplay-refused', 'the browser refused to play') : undefined),
      ));
    },
    pause() {
      // As the SPEC's own pause message: it pauses the content and a running ad.
      bus.emit('parent:command', { actionType: 'pause' });
      return confirmed(until(() => store.paused.value && !adPlaying.value));
    },
    seek(to) {
      if (typeof to !== 'number' || !(to >= 0)) throw fail('bad-arguments', 'seek needs seconds ≥ 0');
      const act = () => ((seekedTo.value = -1), requests.seek(to));
      return whenMedia(seekable, act, () => (seekedTo.value >= 0 ? store.currentTime.value : undefined));
    },
    setVolume(volume) {
      if (!unit(volume)) throw fail('bad-arguments', 'volume is a number from 0 to 1');
      const done = () => Math.abs(store.volume.value - (volume as number)) < 0.01;
      return confirmed(whenMedia(attached, () => requests.setVolume(volume as number), done));
    },
    mute: () => mute(true),
    unmute: () => mute(false),
    async selectEpisode(want) {
      await until(() => !store.loading.value);
      const episode = findEpisode(want);
      if (!episode) throw fail('episode-not-found', 'no such episode in this content');
      if (store.episode.peek()?.id !== episode.id && !requests.selectEpisode(episode)) {
        throw fail('content-not-available', 'the content is not available here');
      }
      return until(() => store.episode.value?.id === episode.id && episode);
    },
    getCurrentTime: () => store.currentTime.peek(),
    getDuration: () => store.duration.peek(),
    getPaused: () => store.paused.peek(),
    getVolume: () => store.volume.peek(),
    getMuted: () => store.muted.peek(),
    getEpisode: () => store.episode.peek(),
  };
  const tracks = attachRemoteTracks(parts, { until, emit });
  Object.assign(run, tracks.run);

  const mute = (muted: boolean) => {
    const act = () => {
      if (store.muted.peek() === muted) return;
      const silent = store.volume.peek() === 0;
      requests.toggleMute();
      // At volume 0 the player's toggle unmutes at 0.25 instead (its own button's rule): once more mutes.
      if (muted && silent) requests.toggleMute();
    };
    return confirmed(whenMedia(attached, act, () => store.muted.value === muted));
  };

  const answer = async (id: number, method: unknown, params: unknown, to: string) => {
    let payload: unknown;
    try {
      const fn = typeof method === 'string' && Object.prototype.hasOwnProperty.call(run, method) ? run[method] : undefined;
      if (!fn) throw fail('unknown-method', `unknown method ${String(method).slice(0, 40)}`);
      payload = { value: (await fn(params)) ?? null };
    } catch (err) {
      const e = err as Partial<RemoteError>;
      if (typeof e?.code !== 'string') console.warn('[player] an SDK request failed', err);
      payload = { error: typeof e?.code === 'string' ? { code: e.code, message: String(e.message) } : fail('failed', String(err)) };
    }
    send('reply', { id, payload }, to);
  };

  const offs = [
    bus.on('media:play', () => emit('play')),
    bus.on('media:pause', () => emit('pause')),
    bus.on('media:ended', () => emit('ended')),
    bus.on('media:seeked', ({ to }) => (seekedTo.value = to)),
    bus.on('media:source', () => void setTimeout(() => (sourced.value = true))),
    bus.on('media:volume', ({ volume, muted }) => emit('volumechange', { volume, muted })),
    bus.on('ad:play', ({ ad }) => {
      if (!adRunning) emit('adStart', adInfo(ad));
      adRunning = adPlaying.value = true;
    }),
    bus.on('ad:pause', () => (adPlaying.value = false)),
    bus.on('ad:ended', () => adEnd()),
    bus.on('ad:skip', ({ ad }) => (emit('adSkipped', adRef(ad)), adEnd())),
    bus.on('ad:click', ({ ad, href }) => emit('adClick', { ...adRef(ad), href })),
    bus.on('player:error', ({ error }) => emit('error', { code: error.code, fatal: error.fatal, message: error.message })),
    bus.on('ui:skip-intro', ({ from, to }) => emit('introSkipped', { from, to })),
    bus.on('ui:credits', ({ episode, next }) => emit('creditsReached', { episode, next })),
    // An ad that stops without ending (its error, a fatal error of the player) ends for the SDK too.
    effect(() => void (store.adState.value === 'stopped' && adEnd())),
    effect(() => {
      const currentTime = store.currentTime.value;
      const now = Date.now();
      if (!sdkOrigin || now - lastTick < TIMEUPDATE_MS) return;
      lastTick = now;
      emit('timeupdate', { currentTime, duration: store.duration.peek() });
    }),
  ];
  function adRef({ id, type, position }: AdHistoryItem) {
    return { id, type, position };
  }
  function adInfo(ad: AdHistoryItem) {
    const skip = ad.skipOffset;
    return { ...adRef(ad), duration: ad.duration, skipOffset: skip !== undefined && Number.isFinite(skip) ? skip : null };
  }
  function adEnd() {
    if (adRunning) emit('adEnd');
    adRunning = adPlaying.value = false;
  }

  return {
    receive(data, from) {
      const m = readMessage(data);
      if (!m) return false;
      const to = from === 'null' ? '*' : from;
      if (m.type === 'hello' && m.id) {
        sdkOrigin = to;
        send('reply', { id: m.id, payload: { value: { ...REMOTE_INFO, instance } } }, to);
        const error = store.error.peek();
        if (error) emit('error', { code: error.code, fatal: error.fatal, message: error.message });
        // A page that says hello while an ad runs hears of it (as of an error that happened before).
        const ad = store.currentAd.peek();
        if (adRunning && ad) emit('adStart', adInfo(ad));
      } else if (m.type === 'request' && m.id) void answer(m.id, m.method, m.params, to);
      else if (ignored.size < 8 && !ignored.has(m.type)) {
        // Logged once a type: a hostile page may post in a loop.
        ignored.add(m.type);
        console.warn('[player] an SDK message without an id, or of a type the player does not take, is ignored:', m.type.slice(0, 40));
      }
      return true;
    },
    dispose() {
      sdkOrigin = undefined;
      offs.forEach((off) => off());
      tracks.dispose();
      stops.forEach((cancel) => cancel());
    },
  };
}
