// @ts-check
// The partner page: switches titles in the frame, drives the player through the partner SDK
// (/player/embed.mjs, docs/embedding.md "Partner SDK") and logs its events and the answers to its commands.
// @ts-ignore: served by the player host; its types are src/embed/embed.d.ts (as /player/embed.d.ts)
import { createPlayer as create } from '/player/embed.mjs';

/** @type {typeof import('../../src/embed/embed.js').createPlayer} */
const createPlayer = create;

const MAX_ENTRIES = 200;
const EVENTS = [
  'ready', 'play', 'pause', 'ended', 'volumechange', 'fullscreenchange', 'episodeChanged', 'episodeVariantChanged', 'timeProgressChanged',
  'qualityChanged', 'audioTrackChanged', 'subtitlesChanged', 'playbackRateChanged', 'adStart', 'adSkipped', 'adClick', 'adEnd', 'error', 'introSkipped', 'creditsReached',
];

const frame = /** @type {HTMLIFrameElement} */ (document.getElementById('player'));
const current = /** @type {HTMLAnchorElement} */ (document.getElementById('current'));
const log = /** @type {HTMLOListElement} */ (document.getElementById('log'));
const empty = /** @type {HTMLElement} */ (document.getElementById('log-empty'));

/** @param {string} href */
function load(href) {
  frame.src = href;
  current.href = href;
  current.textContent = href;
  for (const link of document.querySelectorAll('nav a[target="player"]')) {
    if (link.getAttribute('href') === href) link.setAttribute('aria-current', 'true');
    else link.removeAttribute('aria-current');
  }
}

document.querySelector('nav')?.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[target="player"]') : null;
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  load(/** @type {string} */ (link.getAttribute('href')));
});

/** @param {unknown} data */
function format(data) {
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data, null, 2);
  } catch {
    return String(data);
  }
}

/** @param {string} label @param {unknown} data */
function addEntry(label, data) {
  const item = document.createElement('li');
  const time = document.createElement('time');
  const now = new Date();
  time.dateTime = now.toISOString();
  time.textContent = `${now.toLocaleTimeString('ru-RU')}.${String(now.getMilliseconds()).padStart(3, '0')} ${label}`;
  const body = document.createElement('pre');
  body.textContent = format(data);
  item.append(time, body);
  log.prepend(item);
  while (log.children.length > MAX_ENTRIES) log.lastElementChild?.remove();
  empty.hidden = true;
}

// The frame is already on the page: the SDK takes it as it is and stays with it when a title changes
// its address (each new player fires 'ready').
const player = createPlayer(frame);
for (const name of EVENTS) player.on(/** @type {any} */ (name), (data) => addEntry(`← ${name}`, data));
const status = /** @type {HTMLElement} */ (document.getElementById('status'));
player.on('timeupdate', ({ currentTime, duration }) => {
  status.textContent = `Время: ${currentTime.toFixed(1)} / ${duration.toFixed(1)} с`;
});

/** @param {string} id @param {string} label @param {() => Promise<unknown>} command */
function button(id, label, command) {
  document.getElementById(id)?.addEventListener('click', () => {
    addEntry(`→ ${label}`, '');
    command().then(
      (value) => addEntry(`✓ ${label}`, value ?? 'ok'),
      (error) => addEntry(`✗ ${label}`, error),
    );
  });
}
button('send-play', 'play()', () => player.play());
button('send-pause', 'pause()', () => player.pause());
button('send-seek', 'seek(30)', () => player.seek(30));
button('send-mute', 'mute()', () => player.mute());
button('send-unmute', 'unmute()', () => player.unmute());
button('send-tracks', 'getQualities(), getAudioTracks(), getSubtitles()', async () => ({
  qualities: await player.getQualities(),
  audio: await player.getAudioTracks(),
  subtitles: await player.getSubtitles(),
}));
button('send-720', 'setQuality(720)', () => player.setQuality(720));
button('send-auto', "setQuality('auto')", () => player.setQuality('auto'));
button('send-english', "setAudioTrack('English')", () => player.setAudioTrack('English'));
button('send-subs', "setSubtitles('ru')", () => player.setSubtitles('ru'));
button('send-rate', 'setPlaybackRate(1.5)', () => player.setPlaybackRate(1.5));

document.getElementById('clear-log')?.addEventListener('click', () => {
  log.replaceChildren();
  empty.hidden = false;
});
