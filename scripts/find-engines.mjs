// Finds the two other engines the journeys run in (test/engines), as find-chromium.mjs does Chromium:
// Firefox ESR (driven over WebDriver BiDi) and WebKitGTK's MiniBrowser with its WebKitWebDriver under
// Xvfb, with GStreamer's plugins for the media. When one is missing and we run as root on Debian,
// installs Debian's packages with apt-get (never a browser download of our own); otherwise the error
// names the packages to install.
import { existsSync } from 'node:fs';
import { ensureTool, onPath, printWhenRun } from './debian-tool.mjs';

const first = (candidates) => candidates.find((p) => p && existsSync(p));

export function findFirefox() {
  return first([process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', onPath('firefox-esr'), onPath('firefox')]);
}

/** Returns a Firefox path, installing Debian's `firefox-esr` when allowed; throws with advice otherwise. */
export function ensureFirefox({ log = console.log } = {}) {
  return ensureTool({
    name: 'Firefox',
    find: findFirefox,
    packages: ['fonts-dejavu-core', 'firefox-esr'],
    advice:
      'No Firefox found for the engine journeys. Install one (Debian/Ubuntu: `sudo apt-get install firefox-esr`) ' +
      'or point FIREFOX_PATH at a Firefox binary.',
    log,
  });
}

const GST = '/usr/lib/x86_64-linux-gnu/gstreamer-1.0';
const MINIBROWSER = ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/lib/x86_64-linux-gnu/webkitgtk-6.0/MiniBrowser', '/usr/libexec/webkit2gtk-4.1/MiniBrowser'];

/** WebKitWebDriver, MiniBrowser and Xvfb, when all are there with the GStreamer plugins the media needs (H.264/AAC in fMP4 and MP4). */
export function findWebKit() {
  const paths = {
    WEBKIT_WEBDRIVER_PATH: first([process.env.WEBKIT_WEBDRIVER_PATH, '/usr/bin/WebKitWebDriver', onPath('WebKitWebDriver')]),
    MINIBROWSER_PATH: first([process.env.MINIBROWSER_PATH, ...MINIBROWSER]),
    XVFB_PATH: first([process.env.XVFB_PATH, '/usr/bin/Xvfb', onPath('Xvfb')]),
  };
  const plugins = process.env.MINIBROWSER_PATH || ['libgstlibav.so', 'libgstisomp4.so', 'libgstvideoparsersbad.so'].every((f) => existsSync(`${GST}/${f}`));
  return Object.values(paths).every(Boolean) && plugins ? paths : undefined;
}

/** The WebKit paths (as environment variables for test/engines/webkit.ts), installing Debian's packages when allowed. */
export function ensureWebKit({ log = console.log } = {}) {
  let found;
  ensureTool({
    name: 'WebKitGTK with its WebDriver, Xvfb and GStreamer plugins',
    find: () => (found = findWebKit()) && 'found',
    packages: ['fonts-dejavu-core', 'xvfb', 'gstreamer1.0-plugins-good', 'gstreamer1.0-plugins-bad', 'gstreamer1.0-libav', 'webkit2gtk-driver'],
    advice:
      'No WebKitGTK found for the engine journeys. Install (Debian/Ubuntu) `sudo apt-get install webkit2gtk-driver xvfb ' +
      'gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav`, or set WEBKIT_WEBDRIVER_PATH, MINIBROWSER_PATH and XVFB_PATH.',
    log,
  });
  return found;
}

/** Every engine's paths as environment variables: CHROMIUM_PATH is find-chromium.mjs's. */
export function ensureEngines({ log = console.log } = {}) {
  return { FIREFOX_PATH: ensureFirefox({ log }), ...ensureWebKit({ log }) };
}

printWhenRun(import.meta.url, () => JSON.stringify(ensureEngines(), null, 2));
