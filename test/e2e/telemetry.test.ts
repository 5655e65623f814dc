import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { analyticsCalls, clickPlay, open, poll, srv, waitForTime } from './harness';

const GENERIC = /^К сожалению, произошла ошибка, попробуйте перезагрузите страницу\. Идентификатор ошибки: ([0-9a-f]{32})$/;
const dsn = () => srv().url.replace('http://', 'http://publickey@') + '/1';

/** The event id on the generic error screen. */
async function screenEventId(page: import('playwright-core').Page): Promise<string> {
  await page.waitForSelector('.pl-error[data-screen="generic"]', { timeout: 30000 });
  const text = (await page.textContent('.pl-error__text')) ?? '';
  const m = GENERIC.exec(text);
  assert.ok(m, `generic screen text: ${text}`);
  return m![1];
}

function ingested(eventId: string, timeout = 20000) {
  return poll(
    () => `the ingest to receive ${eventId}; got ${srv().sentryEvents.map((e) => e.event.event_id)}`,
    () => srv().sentryEvents.find((e) => e.event.event_id === eventId),
    { timeout },
  );
}

test('movie 1: videoplayer_play, progress milestones and pause reach the page function with the SPEC §7 fields', async () => {
  const p = await open('?movie_id=1&user_id=u-42', { captureAnalytics: 'gtag' });
  try {
    await clickPlay(p.page);
    await waitForTime(p.page, 0.5);
    // Four times faster, so the 10 % and 25 % marks of the 60 s film are watched through quickly.
    await p.page.evaluate(() => (document.querySelector('video')!.playbackRate = 4));
    await waitForTime(p.page, 16, 30000);
    // Paused at the media, as any control would end up doing: what is under test is the event.
    await p.page.evaluate(() => document.querySelector('video')!.pause());
    await p.page.waitForFunction(() =>
      ((window as unknown as { __analytics: unknown[][] }).__analytics ?? []).some((c) => c[1] === 'videoplayer_pause'),
    );
    const calls = await analyticsCalls(p.page);
    const names = calls.map((c) => c.name);
    assert.is(names[0], 'videoplayer_play', 'the play before analytics loaded is replayed first');
    const progress = calls.filter((c) => c.name === 'videoplayer_progress').map((c) => c.fields.video_percent);
    assert.equal(progress, [10, 25]);
    const play = calls[0].fields;
    assert.equal(
      {
        video_id: play.video_id,
        video_title: play.video_title,
        player_type: play.player_type,
        video_category: play.video_category,
        kinopoisk_id: play.kinopoisk_id,
        kinopoisk_raiting: play.kinopoisk_raiting,
        IMDb_id: play.IMDb_id,
        IMDb_raiting: play.IMDb_raiting,
        year: play.year,
        countries: play.countries,
        isTrailer: play.isTrailer,
        device_type: play.device_type,
        user_id: play.user_id,
        play_cause: play.play_cause,
        current_time: play.current_time,
      },
      {
        video_id: 1,
        video_title: 'Тестовый фильм',
        player_type: 'embedded',
        video_category: 'film',
        kinopoisk_id: 1001,
        kinopoisk_raiting: 7.8,
        IMDb_id: 'tt0000001',
        IMDb_raiting: 7.5,
        year: 2024,
        countries: 'ru',
        isTrailer: '0',
        device_type: 'desktop',
        user_id: 'u-42',
        play_cause: 'user',
        current_time: 0,
      },
    );
    const pause = calls.find((c) => c.name === 'videoplayer_pause')!.fields;
    assert.is(pause.duration, 60);
    assert.ok((pause.current_time as number) >= 16, `current_time ${pause.current_time}`);
    assert.is(pause.playback_rate, 4);
    assert.ok((pause.video_time_played_sec as number) >= 15, `video time ${pause.video_time_played_sec}`);
    assert.ok((pause.real_time_played_sec as number) <= (pause.video_time_played_sec as number) / 2, 'at 4x real time is a fraction');
    assert.match(String(pause.video_quality), /^\d+p$/);
    assert.match(String(pause.network_type), /^(gprs|2g|3g|4g|wifi)$/);
    assert.is(pause.language, 'ru');
    assert.equal(pause.ad_id, []);
    assert.equal(p.errors, []);
    assert.equal(p.csp, []);
  } finally {
    await p.close();
  }
});

test('a forced fatal error: the generic screen shows the id of the event the ingest received; reload reports again', async () => {
  srv().sentryEvents.length = 0;
  srv().setFaults([{ match: '/catalog-api/contents/1', status: 500 }]);
  const p = await open('?movie_id=1', { globals: { sentry_dsn: dsn(), sentry_project_label: 'player-e2e' } });
  try {
    const id = await screenEventId(p.page);
    const { event, project, key } = await ingested(id);
    assert.is(project, '1');
    assert.is(key, 'publickey');
    assert.is(event.environment, 'production');
    assert.is(event.tags?.project, 'player-e2e');
    assert.is(event.tags?.error_type, 'content');
    assert.is(event.contexts?.http?.status, 500);
    assert.is(event.contexts?.http?.body, '{"error":"injected fault"}', 'HTTP errors carry the response body');
    assert.is(event.exception?.values?.[0]?.type, 'HttpError');
    // The way out SPEC gives: the same failure again is a new event, still received (no dedupe).
    await p.page.click('.pl-error__button');
    await p.page.waitForFunction((old) => !document.querySelector('.pl-error__text')?.textContent?.includes(old), id);
    const again = await screenEventId(p.page);
    assert.is.not(again, id);
    await ingested(again);
    assert.equal(p.csp, [], 'the same-origin ingest is allowed by the player CSP');
  } finally {
    srv().clearFaults();
    await p.close();
  }
});

test('a streaming network error is retried once after 5 s, then reported with its data', async () => {
  srv().sentryEvents.length = 0;
  srv().clearRequests();
  srv().setFaults([{ match: '/media/hls/master.m3u8', status: 500 }]);
  const p = await open('?movie_id=1', { globals: { sentry_dsn: dsn() } });
  try {
    const id = await screenEventId(p.page);
    const loads = srv().requests.filter((r) => r.path === '/media/hls/master.m3u8' && r.method === 'GET').map((r) => r.time);
    const gaps = loads.slice(1).map((t, i) => t - loads[i]);
    assert.ok(loads.length >= 2, `master requested ${loads.length} times`);
    assert.is(gaps.filter((g) => g >= 4900).length, 1, `exactly one wait of 5 s between attempts: ${gaps}`);
    const { event } = await ingested(id);
    assert.is(event.contexts?.player?.category, 'media');
    assert.is(event.contexts?.player?.code, 'media-load-failed');
    assert.is(event.contexts?.stream?.data?.details, 'manifestLoadError', 'the streaming error data is attached');
    assert.is(event.contexts?.stream?.data?.type, 'networkError');
  } finally {
    srv().clearFaults();
    await p.close();
  }
});

test('an expired token: the four parallel catalogue calls wait for one refresh and carry the new token', async () => {
  srv().refreshes.length = 0;
  srv().clearRequests();
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const expired = `${b64({ alg: 'HS256' })}.${b64({ sub: 'viewer-1', exp: Math.floor(Date.now() / 1000) - 60 })}.sig`;
  srv().sentryEvents.length = 0;
  srv().setFaults([{ match: '/catalog-api/contents/1/seasons', status: 500 }]);
  const p = await open('?movie_id=1', { cookies: { authToken: expired, refreshToken: 'refresh-secret-7f3a' }, globals: { sentry_dsn: dsn() } });
  try {
    const id = await screenEventId(p.page);
    assert.is(srv().refreshes.length, 1, 'exactly one refresh');
    assert.is(srv().refreshes[0].accessToken, expired);
    assert.is(srv().refreshes[0].refreshToken, 'refresh-secret-7f3a');
    const fresh = srv().refreshes[0].token;
    const calls = srv().requests.filter((r) => r.path.startsWith('/catalog-api/') && r.method === 'GET');
    assert.is(calls.length, 4, 'content, seasons, episodes, availability');
    for (const c of calls) assert.is(c.headers.authorization, `Bearer ${fresh}`, c.path);
    const cookie = (await p.context.cookies()).find((c) => c.name === 'authToken')!;
    assert.is(cookie.value, fresh);
    assert.is(cookie.path, '/');
    assert.ok(Math.abs(cookie.expires - (Date.now() / 1000 + 3600)) < 120, 'the cookie expires with the token');
    // The report of that failure carries neither token nor cookie.
    const { event } = await ingested(id);
    const sent = JSON.stringify(event);
    for (const secret of [fresh, expired, 'refresh-secret-7f3a']) assert.not.ok(sent.includes(secret), 'a token reached the report');
  } finally {
    srv().clearFaults();
    await p.close();
  }
});

test('device_fp is set after the first frame and later requests carry it as X-Session-Context', async () => {
  srv().clearRequests();
  const p = await open('?movie_id=1');
  try {
    await p.page.waitForSelector('.pl-big-play');
    const before = srv().requests.find((r) => r.path === '/catalog-api/contents/1')!;
    assert.is(before.headers['x-session-context'], '', 'no fingerprint yet: the header is empty');
    assert.is((await p.context.cookies()).find((c) => c.name === 'device_fp'), undefined, 'nothing before the first frame');
    await clickPlay(p.page);
    await waitForTime(p.page, 0.5);
    await p.page.waitForFunction(() => document.cookie.includes('device_fp='), undefined, { timeout: 15000 });
    const cookie = (await p.context.cookies()).find((c) => c.name === 'device_fp')!;
    assert.match(cookie.value, /^[0-9a-f]{32}$/);
    assert.is(cookie.path, '/');
    const year = Date.now() / 1000 + 31_536_000;
    assert.ok(Math.abs(cookie.expires - year) < 120, `expires in a year (${cookie.expires})`);
    srv().clearRequests();
    await p.page.reload();
    await p.page.waitForSelector('.pl-big-play');
    for (const path of ['/catalog-api/contents/1', '/catalog-api/contents/1/seasons', '/catalog-api/episodes']) {
      const r = srv().requests.find((x) => x.path === path)!;
      assert.is(r.headers['x-session-context'], cookie.value, path);
    }
    assert.equal(p.csp, []);
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test.run();
