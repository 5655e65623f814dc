import { createNanoEvents } from 'nanoevents';
import type { Content, Episode, Season } from '../content/types';
import type { PlayerError } from './errors';

/** Why something was asked for; analytics reads it (DESIGN "Requests, not writes"). */
export type Cause = 'user' | 'api' | 'ad' | 'autoplay';

/** Things that happened. Payloads are objects so fields can be added without breaking listeners. */
export interface PlayerEvents {
  'content:loaded': { content: Content; episodes: Episode[]; seasons: Season[]; isAvailable: boolean };
  'content:episode-changed': { episode: Episode };
  'media:source': { url: string; engine: 'hls' | 'native' };
  'media:play': { cause: Cause };
  'media:playing': { currentTime: number };
  'media:pause': { cause: Cause };
  'media:seeked': { from: number; to: number };
  'media:ended': { currentTime: number };
  'media:first-frame': { sinceStartMs: number };
  'media:volume': { volume: number; muted: boolean };
  'player:fullscreen': { active: boolean };
  'player:error': { error: PlayerError };
}

export interface Bus {
  emit<K extends keyof PlayerEvents>(event: K, payload: PlayerEvents[K]): void;
  on<K extends keyof PlayerEvents>(event: K, cb: (payload: PlayerEvents[K]) => void): () => void;
}

/** A typed bus on which a throwing listener is logged and never stops the others. */
export function createBus(): Bus {
  const emitter = createNanoEvents<{ [K in keyof PlayerEvents]: (p: PlayerEvents[K]) => void }>();
  return {
    emit: (event, payload) => emitter.emit(event, ...([payload] as never)),
    on: (event, cb) =>
      emitter.on(event, ((payload: never) => {
        try {
          cb(payload);
        } catch (err) {
          console.error(`[player] listener of ${event} failed`, err);
        }
      }) as never),
  };
}
