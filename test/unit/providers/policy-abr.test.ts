// providers/policy-abr.ts on a real hls.js (hls-kit.ts: happy-dom, a virtual clock, requests from a
// table): the playback policy fills hls.js's ABR slot once the levels are known, chooses each level and
// the forward buffer hls.js reads for it, takes a level forced from outside once, and avoids a rendition whose
// playlist answers 404 while hls.js fails over to another; every decision on the bus.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ErrorDetails, ErrorTypes, Events, LoadStats, type Fragment, type default as Hls } from 'hls.js';
import { createBus } from '../../../src/core/bus';
import type { Decision } from '../../../src/playback/decisions';
import { TUNING } from '../../../src/playback/tuning';
import { loadPolicies } from '../../../src/providers/hls-load-policy';
import { policyAbr, type PolicySlot } from '../../../src/providers/policy-abr';
import { BASE, failing, requestsFor, tableHls, virtualScope } from './hls-kit';

let clock: ReturnType<typeof virtualScope>;
test.before.each(() => {
  clock = virtualScope();
});
test.after.each(() => clock.restore());

function policyHls(startLevel = 0) {
  const bus = createBus();
  const decisions: Decision[] = [];
  bus.on('playback:decision', (d) => void decisions.push(d));
  const slot: PolicySlot = {};
  const hls: Hls = tableHls({ abrController: policyAbr(bus, 800e3, slot), startLevel });
  return { hls, slot, decisions };
}

test('the policy takes the slot once the levels are known; hls.js reads the level it chooses and the forward buffer for it', async () => {
  const { hls, slot, decisions } = policyHls();
  assert.is(hls.config.maxBufferSize, 0, "the forward buffer is the policy's maxBufferLength, not a size");
  assert.is(slot.current?.(), undefined, 'no policy before the levels');
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  const policy = slot.current?.();
  assert.ok(policy, 'the policy, once the master is parsed');
  hls.config.maxBufferLength = -1;
  const level = hls.nextAutoLevel;
  assert.ok(level === 0 || level === 1, `a level: ${level}`);
  assert.is(hls.config.maxBufferLength, policy.forwardS(level), 'its forward buffer, where hls.js reads it');
  const chosen = decisions.filter((d) => d.kind === 'level').at(-1);
  assert.ok(chosen && chosen.level === level, `the level decision on the bus: ${JSON.stringify(decisions)}`);
  hls.destroy();
});

test("the policy's first frame switches hls.js from the start's retries to playback's, once: the next requests read them", async () => {
  const { hls, slot, decisions } = policyHls();
  Object.assign(hls.config, loadPolicies(TUNING.startRetries));
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  const policy = slot.current?.();
  assert.ok(policy);
  assert.equal(hls.config.fragLoadPolicy, loadPolicies(TUNING.startRetries).fragLoadPolicy, 'no frame yet: the start\'s');
  policy.media({ t: clock.now(), event: 'frame' });
  assert.equal(hls.config.manifestLoadPolicy, loadPolicies(TUNING.playRetries).manifestLoadPolicy);
  assert.equal(hls.config.playlistLoadPolicy, loadPolicies(TUNING.playRetries).playlistLoadPolicy);
  assert.equal(hls.config.fragLoadPolicy, loadPolicies(TUNING.playRetries).fragLoadPolicy);
  policy.media({ t: clock.now() + 100, event: 'playing' });
  assert.equal(
    decisions.filter((d) => d.kind === 'retries'),
    [{ kind: 'retries', t: clock.now(), retries: TUNING.playRetries, reason: 'first-frame' }],
    'one decision, on the bus',
  );
  hls.destroy();
});

test('a policy made after the first frame (the early start shown before hls.js had its levels) is told it at once: playback\'s retries', async () => {
  const { hls, slot, decisions } = policyHls();
  Object.assign(hls.config, loadPolicies(TUNING.startRetries));
  // The element as the early start leaves it: a frame shown, nothing hls.js appended yet.
  Object.defineProperty(hls, 'media', { value: { readyState: 2, currentTime: 0, paused: true, buffered: { length: 0 } } });
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  assert.is(slot.current?.()?.state(), 'playing');
  assert.equal(hls.config.fragLoadPolicy, loadPolicies(TUNING.playRetries).fragLoadPolicy);
  assert.is(decisions.filter((d) => d.kind === 'retries').length, 1);
  hls.destroy();
});

test('a level forced from outside (hls.js after an error, an abandon) is the next fragment\'s, then the policy chooses again', async () => {
  const { hls } = policyHls();
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  hls.nextAutoLevel = 1;
  assert.is(hls.nextAutoLevel, 1, 'forced');
  assert.is(hls.nextAutoLevel, 1, 'until a main fragment loads');
  hls.nextLoadLevel = 1;
  // The fragment in flight dropped by hls.js's stream controller: the next one is loaded at level 1.
  hls.stopLoad();
  hls.startLoad(0);
  await clock.advance(300);
  assert.ok(requestsFor('v1-0.m4s').length >= 1, 'loaded at the forced level');
  assert.is(hls.nextAutoLevel, 0, 'then the policy\'s own choice (the lowest: nothing measured beyond the estimate)');
  hls.destroy();
});

test('a main fragment the loader times out is asked again at the lowest level, as the policy decides, not at the level its estimate would plan', async () => {
  const { hls, slot, decisions } = policyHls();
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  // The 720p's playlist in, then hls.js's own loading stopped: the fragment's load is told here.
  hls.nextLoadLevel = 1;
  hls.stopLoad();
  hls.startLoad(0);
  await clock.advance(300);
  hls.stopLoad();
  const policy = slot.current?.();
  assert.ok(policy);
  // A fast link measured: the plan's own choice is the 720p.
  policy.loaded({ t: clock.now(), level: 1, bits: 50e6, requestT: clock.now() - 200, firstByteT: clock.now() - 100, endT: clock.now() });
  assert.is(hls.nextAutoLevel, 1, "the plan's level on this estimate");
  const frag = hls.levels[1].details!.fragments[0];
  hls.trigger(Events.FRAG_LOADING, { frag, targetBufferTime: 0 });
  // As hls.js reports the watched loader's timeout (watched-loader.ts), which it then retries at nextAutoLevel.
  hls.trigger(Events.ERROR, { type: ErrorTypes.NETWORK_ERROR, details: ErrorDetails.FRAG_LOAD_TIMEOUT, fatal: false, frag, error: new Error('timed out') });
  assert.equal(decisions.filter((d) => d.kind === 'abandon'), [{ kind: 'abandon', t: clock.now(), from: 1, to: 0, reason: 'idle' }], 'one decision, on the bus');
  assert.is(hls.nextAutoLevel, 0, 'the retry at 240p');
  hls.destroy();
});

test('the lowest rendition\'s playlist answers 404: the policy avoids it, hls.js fails over and loads on from the next', async () => {
  const { hls, decisions } = policyHls();
  failing.add('v0.m3u8');
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(2000);
  const avoided = decisions.find((d) => d.kind === 'avoid');
  assert.ok(avoided && avoided.level === 0, `the 240p avoided: ${JSON.stringify(decisions)}`);
  assert.ok(requestsFor('v1.m3u8').length >= 1, 'hls.js asks for the 720p playlist');
  assert.ok(requestsFor('v1-0.m4s').length >= 1, 'and its first fragment');
  assert.is(hls.nextAutoLevel, 1, 'the policy chooses the rendition that answers');
  hls.destroy();
});

/** The adapter's own check runs on the page's setInterval: here the virtual clock's, as hls.js's timers. */
async function onVirtualIntervals(run: () => Promise<void>) {
  const { setInterval: ownSet, clearInterval: ownClear } = globalThis;
  const scope = (globalThis as unknown as { self: typeof globalThis }).self;
  Object.assign(globalThis, { setInterval: scope.setInterval, clearInterval: scope.clearInterval });
  try {
    await run();
  } finally {
    Object.assign(globalThis, { setInterval: ownSet, clearInterval: ownClear });
  }
}

test('a fragment whose link falls into a trickle is weighed between its bytes, not only just after one: given up when it will not land in time', () =>
  onVirtualIntervals(() => trickle(false)));

test('an audio fragment and an init segment loading beside the main fragment leave its watch on: it is still given up in time', () =>
  onVirtualIntervals(() => trickle(true)));

/**
 * hls.js loading the 720p's first fragment, playing from a buffer that ends `bufferEndS` into the film (one
 * second of film a second): hls.js's own loading is stopped (it has no media to append to), and the fragment
 * is loaded as hls.js reports one, with its bytes written by the test as its loader records them.
 */
async function fragmentInFlight(bufferEndS: number) {
  const { hls, decisions } = policyHls();
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  hls.nextAutoLevel = hls.nextLoadLevel = 1;
  hls.stopLoad();
  hls.startLoad(0);
  await clock.advance(300);
  hls.stopLoad();
  const fragment = hls.levels[1].details!.fragments[0];
  const flight = { hls, decisions, fragment, t0: clock.now(), aborted: 0 };
  Object.assign(fragment, { stats: new LoadStats(), abortRequests: () => void flight.aborted++ });
  fragment.stats.loading.start = flight.t0;
  const buffered = { length: 1, start: () => 0, end: () => bufferEndS };
  Object.defineProperty(hls, 'media', { value: { readyState: 4, paused: false, buffered, get currentTime() { return (clock.now() - flight.t0) / 1000; } } });
  hls.trigger(Events.FRAG_LOADING, { frag: fragment, targetBufferTime: 0 });
  return flight;
}

async function trickle(beside: boolean) {
  const flight = await fragmentInFlight(30);
  const { hls, decisions, fragment, t0 } = flight;
  // Half the fragment in its first second, then a byte every 9 s: its rate since the request falls below what
  // the buffer needs at 15 s (the rest takes as long as the time so far, and 30 − 15 s is left).
  const bytesAt = (s: number) => (s < 1 ? 0 : 300_000 + 1000 * Math.floor((s - 1) / 9));
  while (!flight.aborted && clock.now() - t0 < 20_000) {
    await clock.advance(100);
    if (beside && clock.now() - t0 === 5000) {
      // As hls.js tells them: the audio's next fragment, and the next level's init segment.
      hls.trigger(Events.FRAG_LOADING, { frag: { type: 'audio', sn: 3, level: 0, stats: new LoadStats() } as unknown as Fragment, targetBufferTime: 0 });
      hls.trigger(Events.FRAG_LOADING, { frag: fragment.initSegment!, targetBufferTime: 0 });
    }
    const loaded = bytesAt((clock.now() - t0) / 1000);
    if (loaded && !fragment.stats.loading.first) fragment.stats.loading.first = clock.now();
    [fragment.stats.loaded, fragment.stats.total] = [loaded, 600_000];
  }
  const abandon = decisions.find((d) => d.kind === 'abandon');
  assert.ok(abandon && abandon.kind === 'abandon', `given up: ${JSON.stringify(decisions)}`);
  assert.is(abandon.reason, 'slow');
  assert.is(abandon.to, 0, 'restarted at 240p, whose segment lands in time');
  const atS = (abandon.t - t0) / 1000;
  assert.ok(atS >= 15 && atS <= 16, `at the first check after 15 s, 5 s into a 9 s gap between bytes: ${atS}`);
  assert.is(flight.aborted, 1, 'its request aborted');
  assert.is(hls.nextAutoLevel, 0, 'the next fragment at 240p');
  hls.destroy();
}

test('a freeze while a fragment arrives in time: the late check judges nothing, the bytes that came meanwhile keep it', () =>
  onVirtualIntervals(async () => {
    // Playing from a buffer that ends 9 s in; the fragment's 600 kB come at 100 kB/s: in by 6 s.
    const flight = await fragmentInFlight(9);
    const { hls, decisions, fragment, t0 } = flight;
    const arrive = () => {
      const loaded = Math.min(600_000, Math.max(0, 100 * (clock.now() - t0 - 200)));
      if (loaded && !fragment.stats.loading.first) fragment.stats.loading.first = clock.now();
      [fragment.stats.loaded, fragment.stats.total] = [loaded, 600_000];
    };
    while (clock.now() - t0 < 2000) {
      await clock.advance(100);
      arrive();
    }
    // The page does not run for 3 s: at its overdue check the rate since the request looks like a third of
    // the link's, and the rest as if it came after the buffer ran out.
    clock.freeze(3000);
    await clock.advance(0);
    arrive();
    while (clock.now() - t0 < 7000) {
      await clock.advance(100);
      arrive();
    }
    assert.equal(decisions.filter((d) => d.kind === 'abandon'), [], 'kept');
    assert.is(flight.aborted, 0);
    hls.destroy();
  }));

test.run();
