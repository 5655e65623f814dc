// @ts-check
// The partner page: switches titles in the frame, logs what the player posts, sends it commands.
const MAX_ENTRIES = 200;

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

window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  addEntry('← плеер', event.data);
});

document.getElementById('send-pause')?.addEventListener('click', () => {
  const message = { actionType: 'pause' };
  frame.contentWindow?.postMessage(message, new URL(frame.src, location.href).origin);
  addEntry('→ плееру', message);
});

document.getElementById('clear-log')?.addEventListener('click', () => {
  log.replaceChildren();
  empty.hidden = false;
});
