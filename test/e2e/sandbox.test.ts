// The player in a sandboxed frame. Without allow-same-origin its origin is opaque ('null'): every
// request it makes is cross-origin, its module entry included, and storage and cookies throw.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Frame } from 'playwright-core';
import { type Opened, open, srv } from './harness';

const PARTNER = '/e2e/sandboxed-partner';
const LOCAL_STORAGE_WARNING = /local storage unavailable/;

// A partner page of our own host with an empty <iframe sandbox="…">, the tokens taken from the query
// (only sandbox keywords reach the markup); the test points the frame at the player once it listens.
(srv() as unknown as { router: { add(def: unknown): void } }).router.add({
  method: 'GET',
  path: PARTNER,
  handler({ res, url }: { res: import('node:http').ServerResponse; url: { query: URLSearchParams } }) {
    const sandbox = (url.query.get('sandbox') ?? '').split(' ').filter((t) => /^allow-[a-z-]+$/.test(t)).join(' ');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', "default-src 'self'; frame-src 'self'");
    res.end(
      '<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Партнёр</title></head><body>' +
        `<iframe name="player" sandbox="${sandbox}" allow="autoplay; fullscreen" width="640" height="360"></iframe>` +
        '</body></html>',
    );
  },
});

interface Embedded extends Opened {
  frame: Frame;
  warnings: string[];
}

async function until(what: string, cond: () => boolean, timeout = 10000): Promise<void> {
  const end = Date.now() + timeout;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens the partner page and loads `/player/${query}` into its sandboxed frame. */
async function embed(sandbox: string, query: string, globals?: Record<string, unknown>): Promise<Embedded> {
  srv().cspReports.length = 0;
  srv().clearRequests();
  const p = await open(`?${new URLSearchParams({ sandbox })}`, { path: PARTNER, globals });
  const warnings: string[] = [];
  p.page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  assert.is(await p.page.getAttribute('iframe[name="player"]', 'sandbox'), sandbox);
  await p.page.evaluate((src) => {
    document.querySelector<HTMLIFrameElement>('iframe[name="player"]')!.src = src;
  }, `/player/${query}`);
  const frame = p.page.frame({ name: 'player' });
  assert.ok(frame, 'the player frame');
  await frame.waitForURL(/\/player\//, { timeout: 15000 });
  return { ...p, frame, warnings };
}

/** Clicks the big play button in the frame and waits, bounded, for the video to pass 1 s. */
async function playsInFrame(frame: Frame): Promise<void> {
  await frame.locator('.pl-big-play').click({ timeout: 15000 });
  await frame.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, null, { timeout: 20000 });
  assert.is(await frame.locator('.pl-error').count(), 0, 'no error screen');
}

function assertClean(p: Embedded): void {
  assert.equal(p.errors, [], 'no console errors or uncaught exceptions in the page or the frame');
  assert.equal(p.csp, [], 'no CSP violation seen by the page or the frame');
  assert.equal(srv().cspReports, [], 'no CSP violation reported to the server');
}

test('sandbox="allow-scripts" (opaque origin): the player loads, plays past 1 s, and only warns about storage', async () => {
  const p = await embed('allow-scripts', '?movie_id=1');
  try {
    assert.is(await p.frame.evaluate(() => self.origin), 'null', 'the frame runs in an opaque origin');
    await playsInFrame(p.frame);
    await until('the storage warning', () => p.warnings.some((w) => LOCAL_STORAGE_WARNING.test(w)));
    assertClean(p);
    const preflighted = srv().requests.filter((r) => r.method === 'OPTIONS' && r.headers.origin === 'null').map((r) => r.path);
    assert.ok(preflighted.every((path) => path.startsWith('/catalog-api/')), `only the API calls are preflighted: ${preflighted}`);
  } finally {
    await p.close();
  }
});

test('sandbox="allow-scripts": a VAST pre-roll (fetched with credentials) starts in the opaque origin', async () => {
  srv().adHits.length = 0;
  const p = await embed('allow-scripts', '?movie_id=1&auto_play=1', { env_ad_list_url: '/ad-list.json?pre=skippable&mid=' });
  try {
    await p.frame.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0) > 0.5, null, { timeout: 20000 });
    const events = srv().adHits.filter((h) => h.ad === 'skippable').map((h) => h.event);
    assert.ok(events.includes('start'), `the start pixel: ${events}`);
    assertClean(p);
  } finally {
    await p.close();
  }
});

test('sandbox="allow-scripts allow-same-origin" still plays, with storage', async () => {
  const p = await embed('allow-scripts allow-same-origin', '?movie_id=1');
  try {
    assert.is(await p.frame.evaluate(() => self.origin), new URL(srv().url).origin);
    await playsInFrame(p.frame);
    assert.not.ok(p.warnings.some((w) => LOCAL_STORAGE_WARNING.test(w)), 'local storage works');
    assertClean(p);
  } finally {
    await p.close();
  }
});

test.run();
