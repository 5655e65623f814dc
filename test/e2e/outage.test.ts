// A link that goes out for a while after the first frame (a tunnel): no byte from anywhere, then the
// bytes come back. The viewer sees the spinner over the last frame, never the error screen, and the film
// goes on by itself (docs/architecture.md "Every wait has an end"). And a fatal network error while the
// server still answers: the engine is restarted and the film goes on. Film 5 (32 min) so a seek lands
// past what is buffered.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clickPlay, open, poll, srv, waitForTime } from './harness';

const OUTAGE_MS = 40000;

test.after.each(() => srv().clearFaults());

/** Film 5 playing past its first second, the HTTP cache off: it lists the same segments again and again, so a seek could play from the cache. */
async function playFilm5() {
  const p = await open('?movie_id=5');
  try {
    const cdp = await p.context.newCDPSession(p.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await clickPlay(p.page);
    await waitForTime(p.page, 1);
    return p;
  } catch (err) {
    await p.close();
    throw err;
  }
}

test('a 40 s outage of the whole link after the first frame: spinner, no error screen, playback resumes by itself', async () => {
  const p = await playFilm5();
  try {
    // Every request from now on is accepted and never answered: the playlists, the fragments, the probe.
    srv().setFaults([{ match: /^\//, stall: true }]);
    await p.page.evaluate(() => (document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime = 900));
    const outageEnds = Date.now() + OUTAGE_MS;
    const seen = { spinner: false };
    while (Date.now() < outageEnds) {
      const state = await p.page.evaluate(() => ({
        error: document.querySelector('.pl-error')?.textContent ?? '',
        spinner: !!document.querySelector('.pl-spinner'),
        time: document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime,
      }));
      assert.is(state.error, '', `no error screen during the outage (at ${Math.round((OUTAGE_MS - (outageEnds - Date.now())) / 1000)} s)`);
      seen.spinner ||= state.spinner;
      assert.ok(state.time < 904, 'nothing plays past the buffered point while the link is out');
      await new Promise((r) => setTimeout(r, 1000));
    }
    assert.ok(seen.spinner, 'the spinner showed while waiting');
    srv().clearFaults();
    await poll(
      async () => `playback past 902 s after the link came back; error: ${await p.page.evaluate(() => document.querySelector('.pl-error')?.textContent ?? '')}`,
      () => p.page.evaluate(() => document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime > 902),
      { timeout: 30000, interval: 500 },
    );
    assert.is(await p.page.evaluate(() => document.querySelector('.pl-error')?.textContent ?? ''), '');
  } finally {
    await p.close();
  }
});

test('a fatal network error while playing, the server answering again: the engine restarts and the film plays on from where it was', async () => {
  const p = await playFilm5();
  try {
    const firstSrc = await p.page.evaluate(() => document.querySelector<HTMLVideoElement>('video.pl-video')!.currentSrc);
    // Every fragment asked for fails, so hls.js's retries end in a fatal network error; the watchdog's
    // probe (a HEAD of the master playlist) is answered: the link is up, and the engine is restarted
    // 5 s later (providers/hls-engine.ts). The faults are gone by then.
    srv().clearRequests();
    srv().setFaults([{ match: /\.m4s$/, status: 500, method: 'GET' }]);
    await p.page.evaluate(() => (document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime = 900));
    await poll('the watchdog’s probe after a fatal fragment error', () => srv().requests.find((r) => r.method === 'HEAD'), { timeout: 60000, interval: 250 });
    srv().clearFaults();
    const state = () =>
      p.page.evaluate(() => {
        const v = document.querySelector<HTMLVideoElement>('video.pl-video')!;
        return { src: v.currentSrc, time: v.currentTime, paused: v.paused, error: document.querySelector('.pl-error')?.textContent ?? '' };
      });
    const after = await poll(
      async () => `playback past 902 s on a new source: ${JSON.stringify(await state())}`,
      async () => {
        const s = await state();
        return s.src !== firstSrc && s.time > 902 && !s.paused ? s : undefined;
      },
      { timeout: 30000, interval: 500 },
    );
    assert.is(after.error, '', 'no error screen');
  } finally {
    await p.close();
  }
});

test.run();
