// The fault matrix: one injected fault per case, and every wait must end (DESIGN "Every wait ends"):
// within 20 s of navigation the viewer sees moving video or the SPEC §8 screen the fault calls for,
// and nothing throws uncaught in the page. Faults come from the reference server (srv().setFaults)
// or, for answers it cannot give (valid JSON of the wrong type, an empty 200), from page.route.
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import type { Frame, Page, Route } from 'playwright-core';
import { type Fault, type Opened, open, srv } from './harness';

// FAULTS_ONLY=regex runs the matching cases only (while working on one fault); FAULTS_LOG=1 prints
// one line per case (PASS/FAIL, time, first line of the failure) to stderr as it ends.
const only = process.env.FAULTS_ONLY ? new RegExp(process.env.FAULTS_ONLY) : null;
// FAULTS_SHARD=i/n runs the i-th (0-based) of n shares of the cases, dealt in turn and back again (0, 1,
// 1, 0, 0, 1, …): neighbouring cases are often alike in length, so each share gets as many of the long
// ones. `npm test` runs the halves side by side, each with its own server and browser (scripts/test.mjs).
const [shard, shards] = (process.env.FAULTS_SHARD ?? '0/1').split('/').map(Number) as [number, number];
if (!(shards >= 1 && shard >= 0 && shard < shards)) throw new Error(`FAULTS_SHARD is i/n with 0 ≤ i < n, not '${process.env.FAULTS_SHARD}'`);
let cases = 0;
const test = (name: string, fn: () => Promise<void>) => {
  const round = Math.floor(cases / shards);
  const seat = cases++ % shards;
  if ((round % 2 ? shards - 1 - seat : seat) !== shard) return;
  if (only && !only.test(name)) return;
  uvuTest(name, async () => {
    const began = Date.now();
    try {
      await fn();
      if (process.env.FAULTS_LOG) console.error(`[faults] PASS ${Date.now() - began} ms  ${name}`);
    } catch (e) {
      if (process.env.FAULTS_LOG) console.error(`[faults] FAIL ${Date.now() - began} ms  ${name}\n         ${String((e as Error).message).split('\n')[0]}`);
      throw e;
    }
  });
};

/** From navigation to moving video or a SPEC §8 screen. */
const BOUND = 20_000;
/** A catalogue budget small enough to keep the stall cases short (one case keeps the default). */
const FAST = { env_request_timeout: 5000 };

const GENERIC_PREFIX = 'К сожалению, произошла ошибка, попробуйте перезагрузите страницу. Идентификатор ошибки: ';
const GENERIC = new RegExp(`^${GENERIC_PREFIX.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[0-9a-f]{32}$`);
const RELOAD = 'Перезагрузить страницу';
const NOT_FOUND = 'Контент не доступен';
const BLOCKED =
  'Извините, данный контент недоступен в вашей стране. Если вы используете VPN, мы рекомендуем отключить его или сменить страну.';
const LOAD_FAILED = 'Ошибка в загрузке: ';

type Kind = 'plays' | 'generic' | 'not-found' | 'blocked' | 'load-failed' | 'other-screen' | 'nothing';

interface Outcome {
  kind: Kind;
  /** ms from navigation (or from the given start) to the outcome, or to giving up. */
  ms: number;
  text?: string;
  button?: string;
  currentTime: number;
  paused: boolean;
  src: string;
  spinner: boolean;
}

// Installed before the player's scripts in every frame: uncaught errors and unhandled rejections
// land in window.__faultTrap (the harness's `errors` also holds console errors, which the player
// uses on purpose for fatal failures, so they are not what these cases assert on). A string, and
// it defines `__name`: tsx compiles this file with keepNames, so functions passed to the browser
// (evaluate, init scripts) may call that helper.
const TRAP = `
globalThis.__name = globalThis.__name || ((f) => f);
window.__faultTrap = [];
{
  const text = (v) => { try { return v instanceof Error ? v.name + ': ' + v.message : String(v); } catch { return '(unprintable)'; } };
  window.addEventListener('error', (e) => window.__faultTrap.push('uncaught ' + text(e.error ?? e.message)));
  window.addEventListener('unhandledrejection', (e) => window.__faultTrap.push('unhandled rejection ' + text(e.reason)));
}
`;

interface Session {
  p: Opened;
  page: Page;
  /** Date.now() right before the navigation to the player. */
  t0: number;
  pageErrors: string[];
  url: string;
}

interface StartOptions {
  globals?: Record<string, unknown>;
  cookies?: Record<string, string>;
  /** Server faults, set right before the navigation. */
  faults?: Fault[];
  /** page.route handlers for answers the server cannot give. */
  routes?: Array<[string | RegExp | ((u: URL) => boolean), (route: Route) => unknown]>;
  /** Scripts run in every frame before the page's own. */
  init?: Array<() => void>;
  /** Default '/player/'. */
  path?: string;
}

/**
 * Opens a context on a neutral page first, so that the error trap, routes and faults are in place
 * before the player's navigation (open() navigates at once), then navigates and starts the clock.
 */
async function start(query: string, o: StartOptions = {}): Promise<Session> {
  srv().clearFaults();
  srv().clearRequests();
  const p = await open('', { path: '/ads/landing', globals: o.globals, cookies: o.cookies });
  const pageErrors: string[] = [];
  p.page.on('pageerror', (e) => pageErrors.push(`pageerror ${String(e)}`));
  await p.page.addInitScript(TRAP);
  for (const s of o.init ?? []) await p.page.addInitScript(s);
  for (const [match, handler] of o.routes ?? []) await p.page.route(match, handler);
  srv().setFaults(o.faults ?? []);
  const url = `${srv().url}${o.path ?? '/player/'}${query}`;
  const t0 = Date.now();
  await p.page.goto(url, { waitUntil: 'commit' });
  return { p, page: p.page, t0, pageErrors, url };
}

async function finish(s: Session): Promise<void> {
  srv().clearFaults();
  await s.p.close().catch(() => {});
}

/** Uncaught errors and unhandled rejections of every frame, de-duplicated. */
async function jsErrors(s: Session): Promise<string[]> {
  const all = [...s.pageErrors];
  for (const f of s.page.frames()) {
    try {
      all.push(...(await f.evaluate(() => (window as unknown as { __faultTrap?: string[] }).__faultTrap ?? [])));
    } catch {
      // a frame that went away has nothing more to say
    }
  }
  return [...new Set(all)];
}

const look = (f: Frame) =>
  f.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('video.pl-video');
    const err = document.querySelector('.pl-error');
    const big = document.querySelector<HTMLElement>('.pl-big-play');
    const spin = document.querySelector<HTMLElement>('.pl-spinner');
    const shown = (el: HTMLElement | null) => !!el && !el.hidden && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    return {
      currentTime: v?.currentTime ?? 0,
      paused: v?.paused ?? true,
      src: v?.currentSrc ?? '',
      text: err ? (err.querySelector('.pl-error__text')?.textContent ?? '') : undefined,
      button: err ? (err.querySelector('.pl-error__button')?.textContent ?? '') : undefined,
      bigPlay: shown(big),
      spinner: shown(spin),
    };
  });

function classify(text: string, button: string): Kind {
  if (GENERIC.test(text)) return button === RELOAD ? 'generic' : 'other-screen';
  if (text === NOT_FOUND) return 'not-found';
  if (text === BLOCKED) return 'blocked';
  if (text.startsWith(LOAD_FAILED)) return 'load-failed';
  return 'other-screen';
}

/**
 * Polls until the content plays past `pastTime` (not the placeholder) or an error screen shows, for
 * at most `bound` ms after `from`. Clicks the big play button whenever it shows on a paused video,
 * like a viewer would.
 */
async function outcome(
  f: Frame,
  from: number,
  opts: { bound?: number; click?: boolean; pastTime?: number } = {},
): Promise<Outcome> {
  const bound = opts.bound ?? BOUND;
  const pastTime = opts.pastTime ?? 1;
  let lastClick = 0;
  let last = { currentTime: 0, paused: true, src: '', spinner: false } as Awaited<ReturnType<typeof look>>;
  for (;;) {
    try {
      last = await look(f);
    } catch {
      // navigation in progress
    }
    const ms = Date.now() - from;
    const base = { ms, currentTime: last.currentTime, paused: last.paused, src: last.src, spinner: last.spinner };
    if (last.text !== undefined) {
      return { ...base, kind: classify(last.text, last.button ?? ''), text: last.text, button: last.button };
    }
    if (last.currentTime > pastTime && !/placeholder/.test(last.src)) return { ...base, kind: 'plays' };
    if (ms > bound) return { ...base, kind: 'nothing' };
    if (opts.click !== false && last.bigPlay && last.paused && Date.now() - lastClick > 2000) {
      lastClick = Date.now();
      await f.locator('.pl-big-play').click({ timeout: 1000 }).catch(() => {});
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function describe(o: Outcome): string {
  const where = `at ${o.ms} ms (video at ${o.currentTime.toFixed(2)} s, ${o.paused ? 'paused' : 'playing'}, src ${o.src || 'none'}${o.spinner ? ', spinner shown' : ''})`;
  switch (o.kind) {
    case 'plays':
      return `the content playing ${where}`;
    case 'nothing':
      return `neither moving video nor an error screen after ${o.ms} ms (video at ${o.currentTime.toFixed(2)} s, ${o.paused ? 'paused' : 'playing'}, src ${o.src || 'none'}${o.spinner ? ', spinner shown' : ''})`;
    default:
      return `screen ${o.kind} "${o.text}"${o.button ? ` [button "${o.button}"]` : ''} ${where}`;
  }
}

/**
 * The common assertion of every case: one of the allowed outcomes within the bound, exact screen
 * texts, and no uncaught error or unhandled rejection.
 */
async function expectOutcome(s: Session, allowed: Kind[], opts: { click?: boolean; f?: Frame; loadFailedAddress?: string } = {}): Promise<Outcome> {
  const o = await outcome(opts.f ?? s.page.mainFrame(), s.t0, { click: opts.click });
  const errs = await jsErrors(s);
  const consoleErrors = s.p.errors.slice(0, 4).map((e) => e.slice(0, 160));
  const msg = `expected ${allowed.join(' or ')} within ${BOUND / 1000} s; saw ${describe(o)}; console errors: ${JSON.stringify(consoleErrors)}; uncaught: ${JSON.stringify(errs)}`;
  assert.ok(allowed.includes(o.kind), msg);
  assert.ok(o.ms <= BOUND, `outcome took ${o.ms} ms (> ${BOUND}): ${msg}`);
  if (o.kind === 'load-failed' && opts.loadFailedAddress) assert.is(o.text, LOAD_FAILED + opts.loadFailedAddress, 'the descriptor failure names its address');
  assert.equal(errs, [], `uncaught errors or unhandled rejections (${describe(o)})`);
  return o;
}

const wrongJson = (body: string) => (route: Route) => route.fulfill({ status: 200, contentType: 'application/json; charset=utf-8', body });
const emptyOk = (contentType: string) => (route: Route) => route.fulfill({ status: 200, contentType, body: '' });

// ---------------------------------------------------------------------------------------------
// The four catalogue calls × {404, 403, 500, stall, garbage, wrong shape}

interface Call {
  name: string;
  /** Server fault match (pathname + search for a RegExp). */
  match: RegExp;
  /** The same call for page.route. */
  route: (u: URL) => boolean;
  wrongShape: string;
  onWrongShape: Kind[];
  onGarbage: Kind[];
}

const calls: Call[] = [
  {
    name: 'GET /catalog-api/contents/1',
    match: /^\/catalog-api\/contents\/1(\?|$)/,
    route: (u) => u.pathname === '/catalog-api/contents/1',
    wrongShape: '"ru"',
    onWrongShape: ['generic'],
    onGarbage: ['generic'],
  },
  {
    name: 'GET /catalog-api/contents/1/seasons',
    match: /^\/catalog-api\/contents\/1\/seasons(\?|$)/,
    route: (u) => u.pathname === '/catalog-api/contents/1/seasons',
    // A film has no seasons: an answer that is not a list is no seasons, and the film plays.
    wrongShape: '{}',
    onWrongShape: ['plays'],
    onGarbage: ['generic'],
  },
  {
    name: 'GET /catalog-api/episodes?content-id=1',
    match: /^\/catalog-api\/episodes\?(.*&)?content-id=1(&|$)/,
    route: (u) => u.pathname === '/catalog-api/episodes' && u.searchParams.get('content-id') === '1',
    // Not a list: nothing playable.
    wrongShape: '{}',
    onWrongShape: ['not-found'],
    onGarbage: ['generic'],
  },
  {
    name: 'GET /catalog-api/contents/1/available',
    match: /^\/catalog-api\/contents\/1\/available(\?|$)/,
    route: (u) => u.pathname === '/catalog-api/contents/1/available',
    // An answer that does not say available: the content must not play (generic screen or the blocked flow).
    wrongShape: '"ru"',
    onWrongShape: ['generic', 'blocked'],
    onGarbage: ['generic', 'blocked'],
  },
];

for (const c of calls) {
  const cases: Array<{ fault: string; expect: Kind[]; o: StartOptions }> = [
    { fault: '404', expect: ['not-found'], o: { faults: [{ match: c.match, status: 404 }] } },
    { fault: '403', expect: ['generic'], o: { faults: [{ match: c.match, status: 403 }] } },
    { fault: '500', expect: ['generic'], o: { faults: [{ match: c.match, status: 500 }] } },
    { fault: 'stall (env_request_timeout 5 s)', expect: ['generic'], o: { faults: [{ match: c.match, stall: true }], globals: FAST } },
    { fault: 'garbage body', expect: c.onGarbage, o: { faults: [{ match: c.match, body: 'garbage' }] } },
    { fault: `wrong shape ${c.wrongShape}`, expect: c.onWrongShape, o: { routes: [[c.route, wrongJson(c.wrongShape)]] } },
  ];
  for (const k of cases) {
    test(`catalogue ${c.name} × ${k.fault} → ${k.expect.join(' or ')}`, async () => {
      const s = await start('?movie_id=1', k.o);
      try {
        await expectOutcome(s, k.expect);
      } finally {
        await finish(s);
      }
    });
  }
}

test('catalogue GET /catalog-api/contents/1 × stall with the default budget (15 s) → generic within 20 s', async () => {
  const s = await start('?movie_id=1', { faults: [{ match: calls[0].match, stall: true }] });
  try {
    await expectOutcome(s, ['generic']);
  } finally {
    await finish(s);
  }
});

test('availability answering {"available":"false"} (a string) → not available: the placeholder, then the blocked text', async () => {
  const s = await start('?movie_id=1', { routes: [[calls[3].route, wrongJson('{"available":"false"}')]] });
  try {
    await expectOutcome(s, ['blocked']);
  } finally {
    await finish(s);
  }
});

test('content 500 → generic screen; with the fault cleared its reload button brings the content back, playing', async () => {
  const s = await start('?movie_id=1', { faults: [{ match: '/catalog-api/contents/1', status: 500 }] });
  try {
    await expectOutcome(s, ['generic']);
    srv().clearFaults();
    await s.page.click('.pl-error__button', { timeout: 2000 });
    const t1 = Date.now();
    const o = await outcome(s.page.mainFrame(), t1);
    assert.is(o.kind, 'plays', `after the reload button: ${describe(o)}`);
    assert.equal(await jsErrors(s), []);
  } finally {
    await finish(s);
  }
});

test('ads on with a failing catalogue (500 on contents) → generic screen, no ad pixel after it, no ad video playing', async () => {
  srv().adHits.length = 0;
  srv().setAdListUrl('/ad-list.json?pre=nonskippable&mid=');
  try {
    const s = await start('?movie_id=1&auto_play=1', {
      faults: [{ match: '/catalog-api/contents/1', status: 500 }],
      // Every media element that is asked to play, attached or not (an ad video may play detached).
      init: [
        () => {
          const w = window as unknown as { __played: HTMLMediaElement[] };
          w.__played = [];
          const play = HTMLMediaElement.prototype.play;
          HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
            if (!w.__played.includes(this)) w.__played.push(this);
            return play.call(this);
          };
        },
      ],
    });
    try {
      await expectOutcome(s, ['generic'], { click: false });
      const shown = Date.now();
      await s.page.waitForTimeout(3000);
      const after = srv().adHits.filter((h) => h.time >= shown).map((h) => `${h.ad}:${h.event}`);
      // Media other than the content's that plays now, attached to the page or not.
      const others = () =>
        s.page.evaluate(() =>
          (window as unknown as { __played: HTMLMediaElement[] }).__played
            .filter((m) => !m.classList.contains('pl-video'))
            .map((m) => ({ cls: m.className || m.tagName, paused: m.paused, t: m.currentTime, attached: m.isConnected, src: m.currentSrc })),
        );
      const a = await others();
      await s.page.waitForTimeout(500);
      const b = await others();
      const moving = b.filter((m, i) => !m.paused && a[i] && m.t > a[i].t);
      const adState = b.length ? b.map((m) => `${m.cls} ${m.paused ? 'paused' : 'playing'} at ${m.t.toFixed(2)} s${m.attached ? '' : ' (detached)'}`).join('; ') : 'no other media asked to play';
      assert.equal(after, [], `ad pixels recorded in the 3 s after the error screen showed (${adState})`);
      assert.equal(moving.length, 0, `an ad video is playing behind the error screen (${adState})`);
      assert.equal(await jsErrors(s), []);
    } finally {
      await finish(s);
    }
  } finally {
    srv().setAdListUrl(undefined);
  }
});

// A field of the wrong type inside an otherwise good answer: read where it comes in, so the lazy
// analytics piece (the first to use countries, languages and ratings) never meets it.
test('content answer with countries "ru", languages {} and rating "x" → the film plays and analytics reports it, nothing throws', async () => {
  const s = await start('?movie_id=1', {
    init: [() => {
      const w = window as unknown as Record<string, unknown> & { __analytics: unknown[][] };
      w.__analytics = [];
      w.gtag = (...args: unknown[]) => w.__analytics.push(args);
    }],
    routes: [[/\/catalog-api\/contents\/1$/, async (route: Route) => {
      const real = await route.fetch();
      const body = { ...(await real.json()), countries: 'ru', languages: {}, rating: 'x' };
      await route.fulfill({ response: real, body: JSON.stringify(body) });
    }]],
  });
  try {
    await expectOutcome(s, ['plays'], { click: true });
    await s.page.waitForFunction(() => ((window as unknown as { __analytics: unknown[][] }).__analytics ?? []).some((c) => c[1] === 'videoplayer_play'), null, { timeout: 15000 });
    const play = await s.page.evaluate(() => (window as unknown as { __analytics: unknown[][] }).__analytics.find((c) => c[1] === 'videoplayer_play')![2] as Record<string, unknown>);
    assert.is(play.countries, '', 'countries that are not a list read as none');
    assert.equal(await jsErrors(s), []);
  } finally {
    await finish(s);
  }
});

// ---------------------------------------------------------------------------------------------
// Token refresh: an expired authToken with a refresh token; the refresh stalls or fails, and the
// catalogue calls still go out, with the old token.

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

// The default catalogue budget (15 s): the refresh gives up after 5 s, and the calls that waited for it
// must still have time to go out and answer.
for (const [fault, f, globals] of [
  ['stall', { stall: true }, undefined],
  ['failure (500)', { status: 500 }, undefined],
] as const) {
  test(`token refresh × ${fault} → the catalogue calls go on with the old token and the film plays`, async () => {
    const expired = `${b64({ alg: 'HS256' })}.${b64({ sub: 'viewer-1', exp: Math.floor(Date.now() / 1000) - 60 })}.sig`;
    const s = await start('?movie_id=1', {
      cookies: { authToken: expired, refreshToken: 'refresh-faults-1' },
      faults: [{ match: '/authenticator/authentication/refresh', ...f }],
      globals,
    });
    try {
      await expectOutcome(s, ['plays']);
      const gets = srv().requests.filter((r) => r.path.startsWith('/catalog-api/') && r.method === 'GET');
      assert.is(gets.length, 4, `catalogue calls made: ${gets.map((r) => r.path)}`);
      for (const g of gets) assert.is(g.headers.authorization, `Bearer ${expired}`, `${g.path} carries the old token`);
    } finally {
      await finish(s);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Film 1's stream: master, variant playlists, audio playlists, init segments, first segments,
// a mid-film segment × {404, 500, stall, garbage}.

const MEDIA_FAULTS: Array<[string, Partial<Fault>]> = [
  ['404', { status: 404 }],
  ['500', { status: 500 }],
  ['stall', { stall: true }],
  ['garbage', { body: 'garbage' }],
];

const mediaTargets: Array<{ name: string; match: string | RegExp; expect: (fault: string) => Kind[] }> = [
  { name: 'master playlist (persistent)', match: '/media/hls/master.m3u8', expect: () => ['generic'] },
  { name: 'every video variant playlist', match: /^\/media\/hls\/video\/[^/]+\/index\.m3u8/, expect: () => ['generic'] },
  // Alternate audio: hls.js may fall back or give up; either ends the wait.
  { name: 'every audio playlist', match: /^\/media\/hls\/audio\/[^/]+\/index\.m3u8/, expect: () => ['plays', 'generic'] },
  { name: 'every video init segment', match: /^\/media\/hls\/video\/[^/]+\/init\.mp4/, expect: () => ['generic'] },
  {
    name: 'first media segment on every video rendition',
    match: /^\/media\/hls\/video\/[^/]+\/seg_000\.m4s/,
    // A corrupt first segment may be skipped by the demuxer; a missing one on every rendition cannot be.
    expect: (fault) => (fault === 'garbage' ? ['plays', 'generic'] : ['generic']),
  },
];

for (const t of mediaTargets) {
  for (const [fname, f] of MEDIA_FAULTS) {
    const expect = t.expect(fname);
    test(`media ${t.name} × ${fname} → ${expect.join(' or ')}`, async () => {
      const s = await start('?movie_id=1', { faults: [{ match: t.match, ...f }] });
      try {
        await expectOutcome(s, expect);
      } finally {
        await finish(s);
      }
    });
  }
}

// One rendition failing, the others fine: it is skipped and the film plays on the others, as on a bare
// hls.js page, whoever asks for it first (the page's own start, the prefetch or hls.js). Film 1's
// renditions are 240p, 360p and 720p (by height, which the element reports for the frame it shows).
const renditionFaults: Array<{ name: string; match: RegExp; heights: number[] }> = [
  { name: "the lowest rendition's playlist", match: /^\/media\/hls\/video\/240p\/index\.m3u8/, heights: [240] },
  { name: "the lowest rendition's init segment", match: /^\/media\/hls\/video\/240p\/init\.mp4/, heights: [240] },
  { name: "the lowest rendition's fragments", match: /^\/media\/hls\/video\/240p\/seg_/, heights: [240] },
  { name: "a middle rendition's playlist", match: /^\/media\/hls\/video\/360p\/index\.m3u8/, heights: [360] },
  { name: "a middle rendition's fragments", match: /^\/media\/hls\/video\/360p\/seg_/, heights: [360] },
  { name: "the highest rendition's playlist", match: /^\/media\/hls\/video\/720p\/index\.m3u8/, heights: [720] },
  { name: "the highest rendition's fragments", match: /^\/media\/hls\/video\/720p\/seg_/, heights: [720] },
  { name: 'every rendition but the lowest (playlists and fragments)', match: /^\/media\/hls\/video\/(360p|720p)\//, heights: [360, 720] },
];

for (const r of renditionFaults) {
  test(`media ${r.name} × 404, the others fine → the film plays on another rendition`, async () => {
    const s = await start('?movie_id=1', { faults: [{ match: r.match, status: 404 }] });
    // What the page said and asked for, told when the film does not play: for an on-call reading of a rare failure.
    const said: string[] = [];
    s.page.on('console', (m) => void (m.type() !== 'log' && said.push(`${Date.now() - s.t0} ms ${m.type()}: ${m.text().slice(0, 160)}`)));
    try {
      const o = await outcome(s.page.mainFrame(), s.t0, { pastTime: 4 });
      const asked = () => srv().requests.filter((q) => r.match.test(q.path)).length;
      const media = () => srv().requests.filter((q) => /^\/(media|player)\/|^\/$/.test(q.path) && !/\.(css|svg)$/.test(q.path)).map((q) => `${q.time - s.t0} ms ${q.path}`);
      assert.is(o.kind, 'plays', `${describe(o)}; the failing addresses asked ${asked()} times\n${said.join('\n')}\n${media().join('\n')}`);
      const frame = () =>
        s.page.evaluate(() => {
          const v = document.querySelector<HTMLVideoElement>('video.pl-video')!;
          return { t: v.currentTime, height: v.videoHeight, error: !!document.querySelector('.pl-error') };
        });
      const at = await frame();
      await s.page.waitForTimeout(1500);
      const later = await frame();
      assert.not.ok(later.error, 'no error screen after the film began');
      assert.ok(later.t > at.t + 0.5, `the film goes on (${at.t.toFixed(2)} → ${later.t.toFixed(2)} s)`);
      for (const f of [at, later]) assert.ok(f.height > 0 && !r.heights.includes(f.height), `a ${f.height}p frame shows, not the failing rendition's`);
      assert.equal(await jsErrors(s), []);
    } finally {
      await finish(s);
    }
  });
}

// The page's own start (early-media.ts) is given up on when its first fragment fails, and hls.js is
// still on its way: a viewer who asks to play in that gap asks an element with no source, which hls.js's
// MediaSource then pauses without a pause event. One click is all a viewer gives.
test("the early start's first fragment × 404, play asked before hls.js has come → the film plays on another rendition after that one click", async () => {
  const failing = /^\/media\/hls\/video\/240p\/seg_/;
  const s = await start('?movie_id=1', { faults: [{ match: failing, status: 404 }, { match: /^\/player\/hls-[A-Z0-9]+\.js$/, delay: 4000 }] });
  try {
    await s.page.waitForEvent('console', { predicate: (m) => m.text().includes('early start skipped'), timeout: BOUND });
    const hlsCame = () => s.page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/hls-\w+\.js$/.test(e.name)));
    assert.not.ok(await hlsCame(), 'hls.js is still on its way when the film is asked to play');
    await s.page.locator('.pl-big-play').click({ timeout: 5000 });
    const o = await outcome(s.page.mainFrame(), s.t0, { pastTime: 4, click: false });
    assert.is(o.kind, 'plays', describe(o));
    const height = await s.page.evaluate(() => document.querySelector<HTMLVideoElement>('video.pl-video')!.videoHeight);
    assert.ok(height > 240, `a ${height}p frame shows, not the failing rendition's`);
    assert.equal(await jsErrors(s), []);
  } finally {
    await finish(s);
  }
});

test('media master playlist × a single stall (times: 1) → the content still plays', async () => {
  const s = await start('?movie_id=1', { faults: [{ match: '/media/hls/master.m3u8', stall: true, times: 1 }] });
  try {
    await expectOutcome(s, ['plays']);
  } finally {
    await finish(s);
  }
});

test('the first audio fragment cut half-way once the film was asked to play (its first bytes in the element): the content plays on from the engine', async () => {
  // The page appends a first fragment as it arrives and lets the film be asked to play once the init
  // segments are in (early-media.ts); a fragment cut after that is given up on, hls.js starts afresh
  // (a new MediaSource pauses the element) and the film is still meant to play.
  const cut = /^\/media\/hls\/audio\/[^/]+\/seg_000\.m4s/;
  const s = await start('?movie_id=1&auto_play=1', { faults: [{ match: cut, delay: 1500, body: 'truncate', times: 1 }] });
  try {
    await expectOutcome(s, ['plays'], { click: false });
    const asked = srv().requests.filter((r) => cut.test(r.path)).map((r) => `${r.time} ${r.path}`);
    assert.ok(asked.length >= 2, `the cut fragment asked again, by the engine: ${asked.join(', ')}`);
  } finally {
    await finish(s);
  }
});

// seg_003 covers 12–16 s on every video rendition. Playback starts, seeks to 11 s, and from the
// moment it reaches 11.5 s it must pass 16.5 s or show the generic screen within 20 s.
for (const [fname, f] of MEDIA_FAULTS) {
  test(`media mid-film segment (seg_003, 12–16 s, every video rendition) × ${fname} → playback passes it or the generic screen`, async () => {
    const s = await start('?movie_id=1', { faults: [{ match: /^\/media\/hls\/video\/[^/]+\/seg_003\.m4s/, ...f }] });
    try {
      const first = await outcome(s.page.mainFrame(), s.t0);
      assert.ok(first.kind === 'plays' || first.kind === 'generic', `before the faulty segment: ${describe(first)}`);
      if (first.kind === 'plays') {
        await s.page.evaluate(() => (document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime = 11));
        const reached = await outcome(s.page.mainFrame(), Date.now(), { pastTime: 11.5 });
        assert.ok(reached.kind === 'plays' || reached.kind === 'generic', `on the way to 11.5 s after the seek to 11 s: ${describe(reached)}`);
        if (reached.kind === 'plays') {
          const past = await outcome(s.page.mainFrame(), Date.now(), { pastTime: 16.5, click: false });
          assert.ok(
            past.kind === 'plays' || past.kind === 'generic',
            `from 11.5 s: expected the video past 16.5 s or the generic screen within 20 s; saw ${describe(past)}`,
          );
        } else if (reached.kind === 'generic') assert.match(reached.text!, GENERIC);
      }
      assert.equal(await jsErrors(s), []);
    } finally {
      await finish(s);
    }
  });
}

// The element's own failure: a broken box appended to the video SourceBuffer makes the element fail to
// decode (MEDIA_ERR_DECODE) while its MediaSource stays open, which hls.js only logs, and Chromium
// pauses it. The engine recovers it as a media error: the film plays on from where it was.
test('the element fails to decode mid-film (its video SourceBuffer given a broken box) → the film plays on', async () => {
  const s = await start('?movie_id=1', {
    init: [
      () => {
        const add = MediaSource.prototype.addSourceBuffer;
        MediaSource.prototype.addSourceBuffer = function (this: MediaSource, type: string) {
          const sb = add.call(this, type);
          if (type.startsWith('video/')) (window as unknown as { __videoBuffer: SourceBuffer }).__videoBuffer = sb;
          return sb;
        };
      },
    ],
  });
  try {
    const first = await outcome(s.page.mainFrame(), s.t0, { pastTime: 2 });
    assert.is(first.kind, 'plays', describe(first));
    const at = await s.page.evaluate(async () => {
      const video = document.querySelector<HTMLVideoElement>('video.pl-video')!;
      const sb = (window as unknown as { __videoBuffer: SourceBuffer }).__videoBuffer;
      const within = (ms: number, p: Promise<unknown>) => Promise.race([p, new Promise((r) => setTimeout(r, ms))]);
      if (sb.updating) await within(5000, new Promise((r) => sb.addEventListener('updateend', r, { once: true })));
      // Read in the capture phase, before the player's own listener recovers the element (a new source clears its error).
      let code: number | undefined;
      const failed = new Promise((r) => window.addEventListener('error', (e) => e.target === video && r((code = video.error?.code)), true));
      const time = video.currentTime;
      // A box of 2 bytes (its header alone takes 8): the parser fails at once rather than waiting for more.
      sb.appendBuffer(new Uint8Array([0, 0, 0, 2, 0x6d, 0x6f, 0x6f, 0x66, 0, 0, 0, 0]));
      await within(5000, failed);
      return { time, code };
    });
    assert.is(at.code, 3, 'the broken box made the element fail');
    const after = await outcome(s.page.mainFrame(), Date.now(), { pastTime: at.time + 3, click: false });
    assert.is(after.kind, 'plays', `after the element failed at ${at.time.toFixed(2)} s: ${describe(after)}`);
    assert.ok(after.currentTime >= at.time - 1, `from where it was (${at.time.toFixed(2)} s), not the start: ${describe(after)}`);
    assert.equal(await jsErrors(s), []);
  } finally {
    await finish(s);
  }
});

// ---------------------------------------------------------------------------------------------
// Film 4's master descriptor × {404, stall, garbage} → 'Ошибка в загрузке: {address}'

for (const [fname, f] of [
  ['404', { status: 404 }],
  ['stall', { stall: true }],
  ['garbage', { body: 'garbage' }],
] as Array<[string, Partial<Fault>]>) {
  test(`descriptor (film 4) × ${fname} → 'Ошибка в загрузке: {address}'`, async () => {
    const s = await start('?movie_id=4', { faults: [{ match: '/media/film-4/descriptor.json', ...f }] });
    try {
      await expectOutcome(s, ['load-failed'], { loadFailedAddress: `${srv().url}/media/film-4/descriptor.json` });
    } finally {
      await finish(s);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Ads on: the ad list, the VAST and the ad media × {500, stall, garbage, empty}: the content plays.

const ADS = { env_ad_list_url: '/ad-list.json?pre=nonskippable&mid=' };
const adTargets: Array<{ name: string; match: string; contentType: string }> = [
  { name: 'ad list', match: '/ad-list.json', contentType: 'application/json' },
  { name: 'VAST', match: '/ads/vast/', contentType: 'application/xml' },
  { name: 'ad media', match: '/media/ads/ad.mp4', contentType: 'video/mp4' },
];

for (const t of adTargets) {
  for (const [fname, o] of [
    ['500', { faults: [{ match: t.match, status: 500 }] }],
    ['stall', { faults: [{ match: t.match, stall: true }] }],
    ['garbage', { faults: [{ match: t.match, body: 'garbage' }] }],
    ['empty 200', { routes: [[(u: URL) => u.pathname.startsWith(t.match), emptyOk(t.contentType)]] }],
  ] as Array<[string, StartOptions]>) {
    test(`ads on: ${t.name} × ${fname} → the content still plays`, async () => {
      const s = await start('?movie_id=1&auto_play=1', { ...o, globals: ADS });
      try {
        await expectOutcome(s, ['plays'], { click: false });
      } finally {
        await finish(s);
      }
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The device refuses storage: localStorage, sessionStorage and document.cookie throw.

test('storage and cookies throwing (localStorage getter, document.cookie) → the film still plays', async () => {
  const s = await start('?movie_id=1', {
    init: [
      () => {
        const deny = () => {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        };
        for (const name of ['localStorage', 'sessionStorage']) Object.defineProperty(window, name, { get: deny, configurable: true });
        Object.defineProperty(Document.prototype, 'cookie', { get: deny, set: deny, configurable: true });
      },
    ],
  });
  try {
    const ok = await s.page.evaluate(() => {
      try {
        void localStorage;
        return 'localStorage readable';
      } catch {
        try {
          void document.cookie;
          return 'cookie readable';
        } catch {
          return 'denied';
        }
      }
    });
    assert.is(ok, 'denied', 'the trap is in place');
    await expectOutcome(s, ['plays']);
  } finally {
    await finish(s);
  }
});

// ---------------------------------------------------------------------------------------------
// Hostile messages on the demo partner page: garbage and huge strings from the parent, objects with
// throwing getters, pause commands from foreign windows. Nothing throws; only the parent's pause acts.

test('hostile parent messages: garbage, huge strings, throwing getters, a foreign pause → nothing throws; only the parent pause acts', async () => {
  const s = await start('', { path: '/' });
  try {
    await s.page.waitForSelector('#player');
    const frame = s.page.frame({ name: 'player' })!;
    await expectOutcome(s, ['plays'], { f: frame });
    const video = () => frame.evaluate(() => {
      const v = document.querySelector<HTMLVideoElement>('video.pl-video')!;
      return { t: v.currentTime, paused: v.paused };
    });
    // From the parent: garbage, huge strings, prototype-pollution attempts, non-pause commands.
    await s.page.evaluate(() => {
      const w = (document.getElementById('player') as HTMLIFrameElement).contentWindow!;
      const garbage: unknown[] = [
        null, undefined, 0, -1, NaN, Infinity, true, '', 'pause', '"pause"', '{', '{"actionType":', 'null', '[]',
        '{"actionType":"play"}', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}',
        'x'.repeat(4_000_000), '['.repeat(300_000), `{"actionType":"${'p'.repeat(2_000_000)}"}`,
        [], [{ actionType: 'pause' }], {}, { actionType: null }, { actionType: 42 }, { actionType: {} }, { actionType: 'play' },
        { actionType: 'seek', time: 1e308 }, { protocol: 'embed-player', version: 1, type: 'pause' },
        JSON.parse('{"__proto__":{"polluted":1}}'), { constructor: { prototype: { polluted: 1 } } },
        new Date(), new Map([[1, 2]]), new Set([1]), new ArrayBuffer(1 << 20), /re/g, new Error('boom'),
      ];
      for (const g of garbage) {
        w.postMessage(g, location.origin);
        w.postMessage(g, '*');
      }
    });
    // Events whose data throws on every read, as if from the parent (synthetic, source = parent).
    await s.page.evaluate(() => {
      const w = (document.getElementById('player') as HTMLIFrameElement).contentWindow!;
      const thrower = () => {
        throw new Error('hostile getter');
      };
      const datas: unknown[] = [
        Object.defineProperty({}, 'actionType', { get: thrower, enumerable: true }),
        new Proxy({}, { get: thrower, has: thrower, ownKeys: thrower, getPrototypeOf: thrower, getOwnPropertyDescriptor: thrower }),
        { actionType: { toString: thrower, valueOf: thrower, [Symbol.toPrimitive]: thrower } },
        Object.defineProperty({ toJSON: thrower }, 'then', { get: thrower }),
      ];
      for (const data of datas) w.dispatchEvent(new MessageEvent('message', { data, origin: location.origin, source: window }));
      // A pause whose source is not the parent (synthetic, no source).
      w.dispatchEvent(new MessageEvent('message', { data: { actionType: 'pause' }, origin: location.origin, source: null }));
    });
    // A pause from a foreign window: a sibling frame on the partner page, and the player's own window.
    await s.page.evaluate(async () => {
      const f = document.createElement('iframe');
      f.name = 'sibling';
      document.body.append(f);
      await new Promise((r) => setTimeout(r, 100));
    });
    const sibling = s.page.frame({ name: 'sibling' })!;
    await sibling.evaluate(() => {
      const player = window.parent.frames[0 as number] === window ? window.parent.frames[1] : window.parent.frames[0];
      player.postMessage({ actionType: 'pause' }, '*');
      player.postMessage('{"actionType":"pause"}', '*');
    });
    await frame.evaluate(() => {
      window.postMessage({ actionType: 'pause' }, '*');
      window.postMessage('{"actionType":"pause"}', '*');
    });
    const before = await video();
    await s.page.waitForTimeout(1500);
    const after = await video();
    assert.ok(!after.paused && after.t > before.t + 0.5, `the film stopped after hostile/foreign messages (${before.t.toFixed(2)} → ${after.t.toFixed(2)} s, paused ${after.paused})`);
    assert.is(await frame.evaluate(() => (Object.prototype as unknown as Record<string, unknown>).polluted), undefined, 'Object.prototype polluted');
    assert.equal(await jsErrors(s), [], 'uncaught errors or unhandled rejections after the hostile messages');
    // The parent's own pause acts.
    await s.page.click('#send-pause');
    await frame.waitForFunction(() => document.querySelector<HTMLVideoElement>('video.pl-video')!.paused, null, { timeout: 3000 });
    assert.equal(await jsErrors(s), []);
  } finally {
    await finish(s);
  }
});

// ---------------------------------------------------------------------------------------------
// Leaving the page mid-playback keeps the position: episodesTimeProgress for film 1's episode
// (101), read by reopening the player in the same browser context.

async function savedProgress(page: Page): Promise<number | undefined> {
  return page.evaluate(() => {
    try {
      const all = JSON.parse(localStorage.getItem('episodesTimeProgress') ?? '{}') as Record<string, unknown>;
      const v = all['101'];
      if (typeof v === 'number') return v;
      if (v && typeof v === 'object') return Math.max(...Object.values(v as Record<string, number>).filter((x) => typeof x === 'number'));
      return undefined;
    } catch {
      return undefined;
    }
  });
}

for (const [leaveAt, how] of [
  [7, 'navigating away'],
  [13, 'closing the tab'],
] as const) {
  test(`leaving at ${leaveAt} s of playback (${how}) and reopening: the position is saved within 1 s`, async () => {
    const s = await start('?movie_id=1');
    try {
      await expectOutcome(s, ['plays']);
      await s.page.waitForFunction((t) => document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime >= t, leaveAt, { timeout: 20000 });
      const leftAt = await s.page.evaluate(() => document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime);
      if (how === 'navigating away') await s.page.goto('about:blank');
      else {
        const closed = new Promise((r) => s.page.once('close', r));
        await s.page.close({ runBeforeUnload: true });
        await closed;
      }
      const again = await s.p.context.newPage();
      await again.goto(s.url, { waitUntil: 'domcontentloaded' });
      const saved = await savedProgress(again);
      assert.ok(
        saved !== undefined && saved >= leaveAt - 1 && saved <= leftAt + 1,
        `left at ${leftAt.toFixed(2)} s; episodesTimeProgress[101] on reopening: ${saved} (expected ≥ ${leaveAt - 1})`,
      );
    } finally {
      await finish(s);
    }
  });
}

uvuTest.run();
