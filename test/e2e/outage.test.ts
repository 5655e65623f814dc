// Smoke checks of a link that goes out for a while after the first frame (a tunnel: no byte from
// anywhere, then the bytes come back) and of a fatal network error while the server still answers: the
// film goes on by itself, well past where it stopped, with no error screen and no reload of the page
// (docs/architecture.md "Every wait has an end"). How soon it goes on is the playback policy's rule,
// proven on a virtual clock by its scenario tests: the waits here are wide. Film 5 (32 min) so a seek
// lands past what is buffered.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { clickPlay, open, poll, srv, waitForTime } from './harness';

const OUTAGE_MS = 40000;
/** Where the film is sent once the link is out: nothing is buffered there. */
const SEEK_TO_S = 900;
/** How far past where it stopped the film must play to count as going on. */
const PLAYS_ON_S = 10;
/** How long the film may take to play that far once the server answers again (the player's own deadlines are about 10 s each). */
const RESUME_WITHIN_MS = 90000;

test.after.each(() => srv().clearFaults());

/** Film 5 playing past its first second, the HTTP cache off: it lists the same segments again and again, so a seek could play from the cache. */
async function playFilm5() {
  const p = await open('?movie_id=5');
  try {
    const cdp = await p.context.newCDPSession(p.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await clickPlay(p.page);
    await waitForTime(p.page, 1, 60000);
    return p;
  } catch (err) {
    await p.close();
    throw err;
  }
}

/** What the viewer sees: the film's position, whether it is paused, the spinner, the error screen; and whether the page is the one the test marked (a reload would have dropped the mark). */
const state = (page: Page) =>
  page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('video.pl-video')!;
    return {
      time: v.currentTime,
      paused: v.paused,
      spinner: !!document.querySelector('.pl-spinner'),
      error: document.querySelector('.pl-error')?.textContent ?? '',
      samePage: (window as unknown as { __marked?: boolean }).__marked === true,
    };
  });

/** Marks the page (a reload would drop the mark) and sends the film where nothing is buffered. */
async function markAndSeek(page: Page) {
  await page.evaluate((t) => {
    (window as unknown as { __marked: boolean }).__marked = true;
    document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime = t;
  }, SEEK_TO_S);
}

/** Waits, without a click or a reload, for the film to play well past where it stopped; an error screen ends the wait. */
async function playsOn(page: Page, stoppedAt: number): Promise<void> {
  const until = stoppedAt + PLAYS_ON_S;
  const after = await poll(
    async () => `the film playing past ${until.toFixed(0)} s (it stopped at ${stoppedAt.toFixed(1)} s): ${JSON.stringify(await state(page))}`,
    async () => {
      const s = await state(page);
      assert.is(s.error, '', `no error screen after the server answered again: ${JSON.stringify(s)}`);
      return s.time > until && !s.paused ? s : undefined;
    },
    { timeout: RESUME_WITHIN_MS, interval: 500 },
  );
  assert.ok(after.samePage, `the same page, not reloaded: ${JSON.stringify(after)}`);
}

test('a 40 s outage of the whole link after the first frame: no error screen, and the film goes on by itself well past where it stopped', async () => {
  const p = await playFilm5();
  try {
    // Every request from now on is accepted and never answered: the playlists, the fragments, the probe.
    srv().setFaults([{ match: /^\//, stall: true }]);
    await markAndSeek(p.page);
    const outageEnds = Date.now() + OUTAGE_MS;
    let spinner = false;
    let stoppedAt = SEEK_TO_S;
    while (Date.now() < outageEnds) {
      const s = await state(p.page);
      assert.is(s.error, '', `no error screen during the outage (at ${Math.round((OUTAGE_MS - (outageEnds - Date.now())) / 1000)} s): ${JSON.stringify(s)}`);
      spinner ||= s.spinner;
      stoppedAt = s.time;
      await new Promise((r) => setTimeout(r, 1000));
    }
    // The outage was one: nothing was buffered where the film was sent, so it stopped there.
    assert.ok(stoppedAt < SEEK_TO_S + 4, `the film stopped while the link was out (at ${stoppedAt.toFixed(1)} s, sent to ${SEEK_TO_S} s)`);
    assert.ok(spinner, 'the spinner showed while waiting');
    srv().clearFaults();
    await playsOn(p.page, stoppedAt);
  } finally {
    await p.close();
  }
});

test('a fatal network error while playing, the server answering again: no error screen, and the film goes on by itself well past where it stopped', async () => {
  const p = await playFilm5();
  try {
    // Every fragment asked for fails, so hls.js's retries end in a fatal network error; the player then
    // asks whether the server answers (a HEAD of the master playlist, docs/architecture.md "Every wait
    // has an end"): that request is the sign the faults may go.
    srv().clearRequests();
    srv().setFaults([{ match: /\.m4s$/, status: 500, method: 'GET' }]);
    await markAndSeek(p.page);
    await poll('the player asking whether the server answers (a HEAD) after its fragments failed', () => srv().requests.find((r) => r.method === 'HEAD'), { timeout: 60000, interval: 250 });
    srv().clearFaults();
    await playsOn(p.page, SEEK_TO_S);
  } finally {
    await p.close();
  }
});

test.run();
