import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AD_LOAD_CAP_MS, createAdGate } from '../../../src/ads/gate';
import { readEmbedConfig } from '../../../src/config/embed-config';
import type { AdsHost } from '../../../src/core/ads-contract';
import { createBus } from '../../../src/core/bus';
import type { PieceLoader } from '../../../src/core/player-api';
import { createStore } from '../../../src/core/store';
import { fakeClock } from '../fakes';

const config = (globals: Record<string, unknown>) =>
  readEmbedConfig({ datasets: [], globals, search: '?movie_id=1', scriptUrl: 'http://127.0.0.1:9/player/main.js' });

/** A loader whose ads piece never arrives (the gate must not need it to decide). */
const never: PieceLoader = () => new Promise(() => {});
/** A loader whose pieces all fail, as a missing or blocked file does. */
const failing: PieceLoader = (name) => Promise.reject(new Error(`piece ${name} failed`));

async function withWarnings(fn: (warnings: string[]) => Promise<void>) {
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
  try {
    await fn(warnings);
  } finally {
    console.warn = warn;
  }
}

test('no ad list URL: SPEC §8 message logged, the loader stops at once and the content is released', () =>
  withWarnings(async (warnings) => {
    const store = createStore();
    let released = 0;
    const gate = createAdGate(store, createBus(), config({}), never, { onReady: () => {}, onStopped: () => released++ });
    assert.is(store.adState.value, 'stopped');
    assert.is(released, 1);
    assert.not.ok(gate.holds());
    assert.ok(warnings.some((w) => w.includes('ENV_AD_LIST_URL is not defined')));
    gate.destroy();
  }));

test('with an ad list URL it holds the content in load and ready, pauses on ready, releases on stopped', () =>
  withWarnings(async (warnings) => {
    const store = createStore();
    const calls: string[] = [];
    const gate = createAdGate(store, createBus(), config({ env_ad_list_url: '/ad-list.json' }), never, {
      onReady: () => calls.push('ready'),
      onStopped: () => calls.push('stopped'),
    });
    assert.is(store.adState.value, 'load');
    assert.ok(gate.holds());
    store.adState.value = 'ready';
    assert.ok(gate.holds());
    store.adState.value = 'stopped';
    assert.not.ok(gate.holds());
    assert.equal(calls, ['ready', 'stopped']);
    assert.equal(warnings, []);
    gate.destroy();
  }));

test('the ads piece failing to load releases the content (never a stuck gate)', () =>
  withWarnings(async (warnings) => {
    const store = createStore();
    let released = 0;
    const gate = createAdGate(store, createBus(), config({ env_ad_list_url: '/ad-list.json' }), failing, { onReady: () => {}, onStopped: () => released++ });
    assert.is(store.adState.value, 'load');
    for (let i = 0; i < 50 && store.adState.value === 'load'; i++) await new Promise((r) => setTimeout(r, 10));
    assert.is(store.adState.value, 'stopped');
    assert.is(released, 1);
    assert.ok(warnings.some((w) => w.includes('ads failed to load')));
    gate.destroy();
  }));

test('a loaded ads piece runs with the host (ad list, VPAID page on the asset path, the content pip); destroy ends it', () =>
  withWarnings(async () => {
    const store = createStore();
    const bus = createBus();
    const hosts: AdsHost[] = [];
    let destroyed = 0;
    const handle = { Overlay: () => null, togglePlay: () => {}, toggleVolume: () => {}, destroy: () => void destroyed++ };
    const takeContentPip = async () => {};
    const load: PieceLoader = (name) =>
      name === 'ads' ? Promise.resolve({ runAds: (host: AdsHost) => (hosts.push(host), handle) } as never) : new Promise(() => {});
    const gate = createAdGate(store, bus, config({ env_ad_list_url: 'https://ads.example/list.json' }), load, { onReady: () => {}, onStopped: () => {}, takeContentPip });
    await new Promise((r) => setTimeout(r, 0));
    assert.is(hosts.length, 1);
    assert.equal([hosts[0].adListUrl, hosts[0].vpaidFrameUrl], ['https://ads.example/list.json', 'http://127.0.0.1:9/player/vpaid.html']);
    assert.is(hosts[0].store, store);
    assert.is(hosts[0].bus, bus);
    assert.is(hosts[0].takeContentPip, takeContentPip);
    assert.is(gate.handle.value, handle);
    gate.destroy();
    assert.is(destroyed, 1);
  }));

test('a stalled ad server never holds the content past the cap; the cap starts over on each load', () =>
  withWarnings(async () => {
    const clock = fakeClock().install();
    try {
      const store = createStore();
      let released = 0;
      const gate = createAdGate(store, createBus(), config({ env_ad_list_url: '/ad-list.json' }), never, { onReady: () => {}, onStopped: () => released++ });
      clock.advance(AD_LOAD_CAP_MS - 1);
      assert.is(store.adState.value, 'load');
      clock.advance(1);
      assert.is(store.adState.value, 'stopped');
      assert.is(released, 1);
      store.adState.value = 'load';
      clock.advance(AD_LOAD_CAP_MS - 1);
      assert.is(store.adState.value, 'load', 'a mid-roll load has its own cap');
      store.adState.value = 'ready';
      clock.advance(AD_LOAD_CAP_MS * 3);
      assert.is(store.adState.value, 'ready', 'an ad that is ready is not cut');
      gate.destroy();
      assert.is(clock.pending(), 0);
    } finally {
      clock.restore();
    }
  }));

test('an ads piece arriving after the loader gave up (stopped) is not run', () =>
  withWarnings(async () => {
    const store = createStore();
    let arrive!: (m: unknown) => void;
    const load: PieceLoader = () => new Promise((r) => (arrive = r as never));
    let runs = 0;
    const gate = createAdGate(store, createBus(), config({ env_ad_list_url: '/ad-list.json' }), load, { onReady: () => {}, onStopped: () => {} });
    store.adState.value = 'stopped';
    arrive({ runAds: () => (runs++, {}) });
    await new Promise((r) => setTimeout(r, 0));
    assert.is(runs, 0);
    assert.is(gate.handle.value, undefined);
    gate.destroy();
  }));

test.run();
