import type { PlayerParts } from '../core/player-api';
import { type OutgoingPayloads, envelope, parentOrigin, parseCommand } from './envelope';

export interface Messenger {
  post<K extends keyof OutgoingPayloads>(type: K, payload: OutgoingPayloads[K]): void;
  dispose(): void;
}

/**
 * SPEC §7 messages to the embedding page, posted to its origin (never '*' when it is known), and the
 * parent's commands: accepted only from window.parent (and its origin when known), validated, then
 * put on the bus as `parent:command` so content and ads both act on them.
 */
export function attachMessenger({ store, bus, requests, config }: PlayerParts, win: Window = window): Messenger {
  const parent = win.parent;
  const framed = !!parent && parent !== win;
  const origin = parentOrigin({ ancestorOrigins: win.location.ancestorOrigins, referrer: win.document.referrer });
  const contentId = config.movieId ?? null;
  let lastEpisodeId: number | undefined;

  const post: Messenger['post'] = (type, payload) => {
    if (!framed) return;
    try {
      parent.postMessage(envelope(type, payload, contentId), origin ?? '*');
    } catch (err) {
      console.warn('[player] message to the parent failed', err);
    }
  };

  const onMessage = (e: MessageEvent) => {
    if (!framed || e.source !== parent || (origin && e.origin !== origin)) return;
    const command = parseCommand(e.data);
    if (command) bus.emit('parent:command', command);
  };
  win.addEventListener('message', onMessage);

  const episodeChanged = (episode: NonNullable<typeof store.episode.value>) => {
    // A variant switch reloads the same episode: the parent hears episodeVariantChanged only.
    if (episode.id === lastEpisodeId) return;
    lastEpisodeId = episode.id;
    post('episodeChanged', { episode });
  };
  if (store.episode.peek()) episodeChanged(store.episode.peek()!);

  const offs = [
    bus.on('content:episode-changed', ({ episode }) => episodeChanged(episode)),
    bus.on('content:variant-changed', ({ variant }) => post('episodeVariantChanged', { episodeVariant: variant })),
    bus.on('player:fullscreen', ({ active }) => post(active ? 'enterFullScreen' : 'exitFullScreen', {})),
    bus.on('parent:command', ({ actionType }) => actionType === 'pause' && requests.pause('api')),
  ];

  return {
    post,
    dispose() {
      win.removeEventListener('message', onMessage);
      offs.forEach((off) => off());
    },
  };
}
