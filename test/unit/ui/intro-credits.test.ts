// The skip button's and the credits countdown's logic on the player's clock: the video's time in the
// store, set here by hand (a virtual clock: no timer, no wait).
import { signal } from '@preact/signals-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type PlayerEvents, createBus } from '../../../src/core/bus';
import type { Episode } from '../../../src/core/entities';
import type { Requests } from '../../../src/core/requests';
import { createStore } from '../../../src/core/store';
import { COUNTDOWN_S, SKIP_SHOWN_S, watchIntroCredits } from '../../../src/ui/intro-credits';
import { quiet } from '../fakes';

const MARKERS = { introStart: 2, introEnd: 17, creditsStart: 48 };
const episode = (id: number, order: number, markers: unknown = MARKERS): Episode => ({
  id,
  contentId: 2,
  title: `E${order}`,
  order,
  season: { id: 21, order: 1 },
  duration: 60,
  m3u8MasterFilePath: '/m.m3u8',
  markers,
});

function setup(list: Episode[] = [episode(1, 1), episode(2, 2)], at = 0) {
  const store = createStore();
  const bus = createBus();
  const asked: string[] = [];
  const requests = {
    seek: (t: number) => asked.push(`seek ${t}`),
    playNext: () => {
      asked.push('next');
      const i = store.episodes.peek().findIndex((e) => e.id === store.episode.peek()?.id);
      const next = store.nextEpisode.peek();
      if (!next || i < 0) return false;
      // As the controller does: the episode first, the new source's reset later.
      store.episode.value = next;
      return true;
    },
  } as unknown as Requests;
  const events: Array<[keyof PlayerEvents, unknown]> = [];
  for (const name of ['ui:skip-intro', 'ui:credits', 'ui:credits-next'] as const) bus.on(name, (p) => events.push([name, p]));
  store.episodes.value = list;
  store.episode.value = list[at];
  store.duration.value = 60;
  store.started.value = true;
  const controls = signal(false);
  const marks = watchIntroCredits({ store, bus, requests }, controls);
  const time = (t: number) => (store.currentTime.value = t);
  return { store, bus, asked, events, controls, marks, time };
}

test('the skip button: from the intro start, for 5 s of it by itself, then only with the controls; gone after the intro', () => {
  const s = setup();
  s.time(1.9);
  assert.is(s.marks.skipShown.value, false, 'before the intro');
  s.time(2);
  assert.is(s.marks.skipShown.value, true, 'at the intro start');
  s.time(2 + SKIP_SHOWN_S - 0.1);
  assert.is(s.marks.skipShown.value, true);
  s.time(2 + SKIP_SHOWN_S);
  assert.is(s.marks.skipShown.value, false, '5 s after it appeared');
  s.controls.value = true;
  assert.is(s.marks.skipShown.value, true, 'the controls shown bring it back');
  s.time(16.9);
  assert.is(s.marks.skipShown.value, true);
  s.time(17);
  assert.is(s.marks.skipShown.value, false, 'after the intro, controls or not');
  s.controls.value = false;
  s.time(10);
  assert.is(s.marks.skipShown.value, true, 'a seek back into the intro shows it again, for 5 s from there');
  s.time(14.9);
  assert.is(s.marks.skipShown.value, true);
  s.time(15);
  assert.is(s.marks.skipShown.value, false);
  s.marks.dispose();
});

test('skipping asks for a seek to the intro end, tells the bus once, and hides the button at once', () => {
  const s = setup();
  s.time(4.25);
  s.marks.skipIntro();
  assert.equal(s.asked, ['seek 17']);
  assert.equal(s.events, [['ui:skip-intro', { from: 4.25, to: 17 }]]);
  assert.is(s.marks.skipShown.value, false);
  s.time(4.5);
  s.marks.skipIntro();
  assert.equal(s.asked, ['seek 17'], 'a second press before the seek lands asks nothing');
  s.time(17);
  s.time(3);
  assert.is(s.marks.skipShown.value, true, 'back in the intro later: offered again');
  s.marks.dispose();
});

test('never during an ad, before the start, under an error; no intro marker: no button', () => {
  const s = setup();
  s.time(5);
  s.store.adState.value = 'ready';
  assert.is(s.marks.skipShown.value, false, 'an ad is ready');
  s.store.adState.value = 'stopped';
  s.store.currentAd.value = { id: 'a', type: 'midroll', position: 1, duration: 6, perc: 8 };
  assert.is(s.marks.skipShown.value, false, 'an ad shows');
  s.marks.skipIntro();
  assert.equal(s.asked, [], 'no skip asked during an ad');
  s.store.currentAd.value = null;
  assert.is(s.marks.skipShown.value, true);
  s.store.started.value = false;
  assert.is(s.marks.skipShown.value, false, 'not started');
  s.marks.dispose();
  const none = setup([episode(1, 1, null)]);
  none.time(5);
  assert.is(none.marks.skipShown.value, false);
  assert.is(none.marks.hasCredits.value, false);
  none.marks.dispose();
});

test('the credits countdown: 10 s of video from the credits marker, in whole seconds, then the next episode', () => {
  const s = setup();
  s.time(47.9);
  assert.is(s.marks.countdown.value, null);
  assert.is(s.marks.hasCredits.value, true);
  s.time(48);
  assert.is(s.marks.inCredits.value, true);
  assert.is(s.marks.countdown.value, COUNTDOWN_S);
  assert.equal(s.events.map(([n]) => n), ['ui:credits']);
  assert.equal(s.events[0][1], { episode: s.store.episodes.peek()[0], next: s.store.episodes.peek()[1] });
  s.time(48.2);
  assert.is(s.marks.countdown.value, 10, 'rounded up');
  s.time(51);
  assert.is(s.marks.countdown.value, 7);
  s.store.paused.value = true;
  assert.is(s.marks.countdown.value, 7, 'paused, the video stands still and so does the countdown');
  s.time(57.9);
  assert.is(s.marks.countdown.value, 1);
  assert.equal(s.asked, []);
  s.time(58);
  assert.equal(s.asked, ['next'], 'the countdown ran out');
  assert.equal(s.events.map(([n]) => n), ['ui:credits', 'ui:credits-next']);
  assert.equal(s.events[1][1], { next: s.store.episodes.peek()[1] });
  assert.is(s.store.episode.value?.id, 2);
  assert.is(s.marks.countdown.value, null, "the new episode is not in its credits: the old one's time does not count for it");
  assert.equal(s.events.length, 2, 'no credits reached for the new episode at the old time');
  // The new source resets the store: the new episode's own intro and credits apply from then on.
  s.store.started.value = false;
  s.time(0);
  s.store.started.value = true;
  s.time(2);
  assert.is(s.marks.skipShown.value, true);
  s.time(48);
  assert.equal(s.events.map(([n]) => n), ['ui:credits', 'ui:credits-next', 'ui:credits'], 'the last episode reaches its credits too');
  assert.is(s.marks.countdown.value, null, 'no next episode: nothing counts');
  s.time(59);
  assert.equal(s.asked, ['next'], 'and nothing moves on');
  s.marks.dispose();
});

test('a seek into the credits counts from where it landed; a seek back out stops it; reached once per episode', () => {
  const s = setup();
  s.time(55);
  assert.is(s.marks.countdown.value, 10);
  s.time(30);
  assert.is(s.marks.countdown.value, null);
  s.time(50);
  assert.is(s.marks.countdown.value, 10);
  assert.equal(s.events.filter(([n]) => n === 'ui:credits').length, 1);
  s.marks.dispose();
});

test("'Смотреть титры' (dismiss): no countdown, nothing moves on for this episode; the next episode counts again", () => {
  const s = setup([episode(1, 1), episode(2, 2), episode(3, 3)]);
  s.time(49);
  s.marks.dismiss();
  assert.is(s.marks.dismissed.value, true);
  assert.is(s.marks.countdown.value, null);
  s.time(59.5);
  assert.equal(s.asked, []);
  // The episode ends: SPEC §4's own move on (features/binge.ts) takes over; here, another episode.
  s.store.episode.value = s.store.episodes.peek()[1];
  s.bus.emit('content:episode-changed', { episode: s.store.episode.value });
  s.store.started.value = false;
  s.time(0);
  s.store.started.value = true;
  assert.is(s.marks.dismissed.value, false);
  s.time(48);
  assert.is(s.marks.countdown.value, 10);
  s.marks.dispose();
});

test('content that is not available never moves on; no next episode: nothing happens but the credits reached', () => {
  const s = setup();
  s.store.isAvailable.value = false;
  s.time(48);
  s.time(59);
  assert.is(s.marks.countdown.value, null);
  assert.equal(s.asked, []);
  assert.equal(s.events, [['ui:credits', { episode: s.store.episodes.peek()[0], next: null }]]);
  s.marks.dispose();
});

test('markers past the media (a shorter variant) do not apply; malformed ones never break anything', async () => {
  const s = setup();
  s.store.duration.value = 10;
  s.time(5);
  assert.is(s.marks.skipShown.value, false, 'the intro ends past a 10 s media');
  assert.is(s.marks.hasCredits.value, false);
  s.marks.dispose();
  await quiet(() => {
    const bad = setup([episode(1, 1, { introStart: 'x', creditsStart: -1 }), episode(2, 2)]);
    bad.time(5);
    bad.time(58);
    assert.is(bad.marks.skipShown.value, false);
    assert.is(bad.marks.countdown.value, null);
    assert.equal(bad.asked, []);
    bad.marks.dispose();
  });
});

test('after dispose nothing is told or asked', () => {
  const s = setup();
  s.marks.dispose();
  s.time(48);
  s.time(59);
  assert.equal(s.events, []);
  assert.equal(s.asked, []);
});

test.run();
