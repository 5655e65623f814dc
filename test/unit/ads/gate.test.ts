import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createAdGate } from '../../../src/ads/gate';
import { readEmbedConfig } from '../../../src/config/embed-config';
import { createBus } from '../../../src/core/bus';
import type { PieceLoader } from '../../../src/core/pieces';
import { createStore } from '../../../src/core/store';

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

test.run();
