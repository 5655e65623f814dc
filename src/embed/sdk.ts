// The partner SDK (docs/embedding.md "Partner SDK"): builds the player frame (or takes an existing one) and gives
// a typed handle over the player's postMessage protocol. A separate bundle: from src/ it imports only
// the pure protocol modules (.dependency-cruiser.cjs "embed-standalone").
import { EVENTS, METHODS, PROTOCOL, PROTOCOL_VERSION, fail, readMessage } from '../core/embed-protocol';
import type { Player, PlayerOptions, ReadyInfo, SdkError } from './embed';
import { listenMemory, withMemory } from './partner-memory';

const READY_MS = 30000;
const REPLY_MS = 15000;
const FACADE_MS = 5000;
const ALLOW = 'autoplay; fullscreen; picture-in-picture; encrypted-media';

/** Options → SPEC §2 query names (langOrder is repeated, below). */
const QUERY: Array<[keyof PlayerOptions, string]> = [
  ['movieId', 'movie_id'],
  ['episodeId', 'episode_id'],
  ['season', 'season'],
  ['episode', 'episode'],
  ['t', 't'],
  ['autoplay', 'auto_play'],
  ['share', 'enabled_share'],
  ['userId', 'user_id'],
  ['voiceAuthor', 'voice_author'],
  ['episodeVariantId', 'episode_variant_id'],
];

/** The player page address for these options; `base` is the SDK's own address. */
export function playerAddress(options: PlayerOptions, base: string): string {
  const url = new URL(options.playerUrl || './', base);
  for (const [option, name] of QUERY) {
    const v = options[option];
    if (v !== undefined && v !== null && v !== false && v !== '') url.searchParams.set(name, v === true ? '1' : String(v));
  }
  for (const lang of options.langOrder ?? []) url.searchParams.append('lang_order', String(lang));
  return url.href;
}

type Listener = (data: never) => void;
type Pending = { resolve(v: unknown): void; reject(e: SdkError): void; timer?: ReturnType<typeof setTimeout> };

export function createPlayer(target: HTMLElement, options: PlayerOptions = {}, base: string = location.href): Player {
  // By its tag, not `instanceof`: an element's wrapper may belong to another window's realm. WebKit
  // builds it in the realm that touches it first, and a same-origin player reading its
  // `frameElement` before this runs made the partner's own iframe fail `instanceof HTMLIFrameElement`.
  const existing = (target as Element | null)?.localName === 'iframe' ? (target as HTMLIFrameElement) : null;
  if (!existing && !(Number.isSafeInteger(options.movieId) && options.movieId! > 0)) {
    throw new TypeError('createPlayer: movieId must be a positive integer');
  }
  const src = existing && !options.playerUrl ? existing.src : playerAddress(options, base);
  const playerOrigin = new URL(src, base).origin;
  const loading = existing ? 'eager' : options.loading || 'eager';

  const listeners = new Map<string, Set<Listener>>();
  const pending = new Map<number, Pending>();
  const queue: Array<[string, unknown, Pending]> = [];
  let frame: HTMLIFrameElement | null = existing;
  let box: HTMLElement | undefined;
  let info: ReadyInfo | undefined;
  let instance: unknown = {};
  let destroyed = false;
  let nextId = 1;
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  let observer: IntersectionObserver | undefined;
  const abort = new AbortController();

  let readyPending!: Pending;
  const readyPromise = new Promise<ReadyInfo>((resolve, reject) => (readyPending = { resolve: resolve as Pending['resolve'], reject }));
  readyPromise.catch(() => {});

  const emit = (name: string, data: unknown) =>
    listeners.get(name)?.forEach((fn) => {
      try {
        fn(data as never);
      } catch (err) {
        console.error(`[embed] a listener of ${name} failed`, err);
      }
    });

  const post = (type: string, id: number, method?: string, params?: unknown) =>
    frame?.contentWindow?.postMessage({ protocol: PROTOCOL, version: PROTOCOL_VERSION, type, id, method, params }, playerOrigin);

  /** Our own about:blank (still loading) would take a message for nobody; a cross-origin window is the player's. */
  const canTalk = () => {
    try {
      return frame!.contentWindow!.location.origin === playerOrigin;
    } catch {
      return true;
    }
  };
  const hellos = new Set<number>();
  const hello = () => {
    const id = nextId++;
    hellos.add(id);
    post('hello', id);
  };

  const send = (method: string, params: unknown, p: Pending) => {
    const id = nextId++;
    p.timer = setTimeout(() => settle(id, { error: fail('timeout', `${method}: no answer from the player`) }), REPLY_MS);
    pending.set(id, p);
    post('request', id, method, params);
  };

  const settle = (id: number, payload: Record<string, unknown>) => {
    const p = pending.get(id);
    if (!p) return;
    // Read everything first: a hostile payload throws here and the request still waits for its answer.
    const e = payload.error as Partial<SdkError> | undefined;
    const error = e && fail(String(e.code ?? 'failed').slice(0, 64), String(e.message ?? '').slice(0, 500));
    const value = payload.value;
    pending.delete(id);
    clearTimeout(p.timer);
    if (error) p.reject(error);
    else p.resolve(value);
  };

  const onReady = (value: unknown) => {
    const v = (value ?? {}) as ReadyInfo & { instance?: unknown };
    if (typeof v.version !== 'number' || !Array.isArray(v.methods) || !Array.isArray(v.events)) return;
    // A frame that navigates to another player page says hello again: 'ready' fires for each player.
    if (v.instance === instance) return;
    instance = v.instance;
    const first = !info;
    info = { version: v.version, methods: v.methods.map(String), events: v.events.map(String) };
    if (first) {
      clearTimeout(readyTimer);
      readyPending.resolve(info);
      queue.splice(0).forEach((q) => send(...q));
    }
    emit('ready', info);
  };

  const onMessage = (e: MessageEvent) => {
    try {
      if (!frame || e.source !== frame.contentWindow || e.origin !== playerOrigin) return;
      const m = readMessage(e.data);
      if (!m) return;
      const p = (m.payload && typeof m.payload === 'object' ? m.payload : {}) as Record<string, unknown>;
      const type = m.type;
      if (type === 'ready') hello();
      else if (type === 'reply' && m.id) {
        if (hellos.has(m.id)) onReady(p.value);
        else settle(m.id, p);
      } else if (type === 'event' && (EVENTS as readonly unknown[]).includes(p.name)) emit(p.name as string, p.data ?? {});
      else if (type === 'enterFullScreen' || type === 'exitFullScreen') emit('fullscreenchange', { fullscreen: type === 'enterFullScreen' });
      else if (type === 'episodeChanged' || type === 'episodeVariantChanged' || type === 'timeProgressChanged') emit(type, p);
    } catch (err) {
      console.warn('[embed] a message from the player could not be read', err);
    }
  };
  addEventListener('message', onMessage);
  // An existing frame only listens: its address got the record from partnerMemory() before it loaded.
  const memory = options.memory === 'partner';
  const stopMemory = memory ? listenMemory(() => frame, playerOrigin) : undefined;

  const call = (method: string, params?: unknown) =>
    new Promise((resolve, reject) => {
      const p: Pending = { resolve, reject };
      if (destroyed) reject(fail('destroyed', 'the player was destroyed'));
      else if (info) send(method, params, p);
      else queue.push([method, params, p]);
    });

  const startDeadline = () => {
    readyTimer = setTimeout(() => {
      const e = fail('timeout', 'the player did not answer');
      readyPending.reject(e);
      queue.splice(0).forEach((q) => q[2].reject(e));
    }, READY_MS);
  };

  const makeFrame = (autoplay?: boolean) => {
    observer?.disconnect();
    if (frame || destroyed) return;
    frame = document.createElement('iframe');
    const address = autoplay ? playerAddress({ ...options, autoplay: true }, base) : src;
    // Read as the frame is made ('lazy' and 'facade' make it later): the freshest record.
    frame.src = memory ? withMemory(address) : address;
    frame.allow = ALLOW;
    frame.allowFullscreen = true;
    frame.title = 'Плеер';
    frame.style.cssText = 'position:absolute;inset:0;width:100%;height:100%;border:0';
    box!.replaceChildren(frame);
    startDeadline();
  };

  if (existing) {
    startDeadline();
    if (canTalk()) hello();
  } else {
    box = document.createElement('div');
    box.style.cssText = 'position:relative;width:100%;aspect-ratio:16/9;background:#000;overflow:hidden';
    target.append(box);
    if (loading === 'lazy' && typeof IntersectionObserver === 'function') {
      observer = new IntersectionObserver((entries) => entries.some((x) => x.isIntersecting) && makeFrame(), { rootMargin: '300px' });
      observer.observe(box);
    } else if (loading === 'facade') facade(box, options, base, abort.signal, () => makeFrame(true));
    else makeFrame();
  }

  const player: Pick<Player, 'iframe' | 'ready' | 'on' | 'destroy'> = {
    get iframe() {
      return frame;
    },
    ready: () => readyPromise,
    on(event, fn) {
      if (typeof fn !== 'function' || destroyed) return () => {};
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set.add(fn as Listener));
      return () => void set.delete(fn as Listener);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      removeEventListener('message', onMessage);
      stopMemory?.();
      observer?.disconnect();
      abort.abort();
      clearTimeout(readyTimer);
      const e = fail('destroyed', 'the player was destroyed');
      readyPending.reject(e);
      queue.splice(0).forEach((q) => q[2].reject(e));
      [...pending.keys()].forEach((id) => settle(id, { error: e }));
      listeners.clear();
      (box ?? frame)?.remove();
      frame = null;
    },
  };
  // Each command and getter is a request of the same name (test/unit/embed/sdk.test.ts checks METHODS against Player).
  for (const method of METHODS) (player as Record<string, unknown>)[method] = (arg?: unknown) => call(method, arg);
  return player as Player;
}

/**
 * The poster and title of the content (one public catalogue call, no player code) with a play
 * button; the first click makes the frame, which plays at once (auto_play, allow="autoplay").
 */
function facade(box: HTMLElement, options: PlayerOptions, base: string, signal: AbortSignal, start: () => void): void {
  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-label', 'Смотреть');
  button.style.cssText =
    'position:absolute;inset:0;width:100%;height:100%;border:0;padding:0;cursor:pointer;color:#fff;font:600 18px/1.3 system-ui,sans-serif;background:#111 center/cover no-repeat';
  const title = document.createElement('span');
  title.style.cssText = 'position:absolute;left:16px;right:16px;bottom:16px;text-align:left;text-shadow:0 1px 3px #000';
  const icon = document.createElement('span');
  icon.setAttribute('aria-hidden', 'true');
  icon.textContent = '▶';
  icon.style.cssText =
    'position:absolute;left:50%;top:50%;width:72px;height:72px;margin:-36px 0 0 -36px;border-radius:50%;background:rgba(0,0,0,.6);font-size:32px;line-height:72px;text-align:center';
  button.append(icon, title);
  button.addEventListener('click', start, { once: true });
  box.append(button);

  const api = options.apiBase ? new URL(options.apiBase, base).href : new URL(playerAddress(options, base)).origin;
  const url = `${api.replace(/\/+$/, '')}/catalog-api/contents/${options.movieId}`;
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), FACADE_MS);
  signal.addEventListener('abort', () => ac.abort());
  fetch(url, { signal: ac.signal, credentials: 'omit' })
    .then((r) => (r.ok ? r.json() : undefined))
    .then((content: { title?: unknown; posterUrl?: unknown } | undefined) => {
      if (typeof content?.title === 'string' && content.title) {
        title.textContent = content.title.slice(0, 200);
        button.setAttribute('aria-label', `Смотреть: ${title.textContent}`);
      }
      if (typeof content?.posterUrl === 'string') {
        const poster = new URL(content.posterUrl, url);
        if (/^https?:$/.test(poster.protocol)) button.style.backgroundImage = `url("${poster.href}")`;
      }
    })
    .catch(() => {})
    .finally(() => clearTimeout(timer));
}
