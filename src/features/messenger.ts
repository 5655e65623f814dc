import type { PlayerParts } from '../core/player-api';
import { type OutgoingPayloads, envelope, parentOrigin, parseCommand } from './envelope';
import { REMOTE_INFO, createRemote } from './remote';

export interface Messenger {
  post<K extends keyof OutgoingPayloads>(type: K, payload: OutgoingPayloads[K]): void;
  dispose(): void;
}

/**
 * SPEC §7 messages to the embedding page, posted to its origin (never '*' when it is known), and the
 * parent's commands: accepted only from window.parent (and its origin when known, and one of
 * `embed_origins` when set), validated, then put on the bus as `parent:command` so content and ads
 * both act on them. The partner SDK's requests go to remote.ts, which answers the requesting origin.
 */
export function attachMessenger(parts: PlayerParts, win: Window = window): Messenger {
  const { store, bus, requests, config } = parts;
  const parent = win.parent;
  const framed = !!parent && parent !== win;
  const origin = parentOrigin({ ancestorOrigins: win.location.ancestorOrigins, referrer: win.document.referrer });
  const contentId = config.movieId ?? null;
  let lastEpisodeId: number | undefined;

  const allowed = config.embedOrigins;
  const refused = new Set<string>();

  const send = <K extends keyof OutgoingPayloads>(type: K, payload: OutgoingPayloads[K], to = origin ?? '*', id?: number) => {
    if (!framed) return;
    try {
      parent.postMessage(envelope(type, payload, contentId, id), to);
    } catch (err) {
      console.warn('[player] message to the parent failed', err);
    }
  };
  const post: Messenger['post'] = (type, payload) => send(type, payload);
  const remote = createRemote(parts, (type, { id, payload }, to) => send(type, payload, to, id));

  const onMessage = (e: MessageEvent) => {
    if (!framed || e.source !== parent || (origin && e.origin !== origin)) return;
    if (allowed.length && !allowed.includes(e.origin)) {
      // Logged once per origin: a hostile page may post in a loop.
      if (!refused.has(e.origin)) console.warn('[player] commands from an origin not in embed_origins are ignored:', e.origin);
      return void refused.add(e.origin);
    }
    const command = parseCommand(e.data);
    if (command) bus.emit('parent:command', command);
    else remote.receive(e.data, e.origin);
  };
  win.addEventListener('message', onMessage);
  // The SDK says hello when it hears this (also from a page embed_origins refuses: it learns nothing more).
  post('ready', REMOTE_INFO);

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
      remote.dispose();
      offs.forEach((off) => off());
    },
  };
}
