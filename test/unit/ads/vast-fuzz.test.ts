// Seeded fuzzing of the VAST parser: documents of the reference ad server, mutated (byte flips,
// truncation, duplication, deep nesting, DOCTYPE/entities, bad time strings, javascript:/data:/
// vbscript: URLs in every URL element). Every outcome must be typed, carry only http(s) URLs, and
// come back promptly. Bounded by a document count and a time budget so it fits `npm test`.
import { Window } from 'happy-dom';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the server is plain JS with JSDoc types
import { VAST } from '../../../server/ads.mjs';
import { type VastFailure, type VastResponse, isFailure, parseVast } from '../../../src/ads/vast-parse';

const window = new Window();
const g = globalThis as Record<string, unknown>;
const O = 'http://ads.test';
const BASE = `${O}/ads/vast/tag.xml`;
const SEED = 0x5eed1234;
const MAX_DOCS = 1500;
/** The whole run stops generating past this (the machine may be loaded: a bound, not a goal). */
const BUDGET_MS = 3000;
/** Per document: generous, hundreds of times what a document takes; a stall or a quadratic path is far above it. */
const PER_DOC_MS = 2000;
const CODES = new Set([100, 101, 102, 303]);

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UNSAFE = ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<b>x</b>', 'DATA:video/mp4;base64,AAAA', 'vbscript:msgbox(1)', 'VBScript:x', 'file:///etc/passwd', 'about:blank', 'blob:http://ads.test/x'];
const BAD_TIMES = ['', '5', '00:00', '99:99:99', '-00:00:01', '00:00:05.', '1e9:00:00', '00:00:00.0000001', 'NaN', '101%', '-5%', '%', '00:00:02'.repeat(50), '\u0000'];
const NOISE = ['<', '>', '&', '"', "'", '/', '\u0000', '\u0001', '\uFFFF', '\uD800', 'Я', ']]>', '<!--', '&#0;', '&#x110000;', '&amp;', '\n'];

type Mutation = (s: string, r: () => number) => string;
const pick = <T,>(r: () => number, xs: T[]): T => xs[Math.floor(r() * xs.length)];
const at = (s: string, r: () => number) => Math.floor(r() * (s.length + 1));

const mutations: Record<string, Mutation> = {
  flip(s, r) {
    const chars = s.split('');
    for (let n = 1 + Math.floor(r() * 8); n > 0; n--) chars[Math.floor(r() * chars.length)] = r() < 0.5 ? pick(r, NOISE) : String.fromCharCode(Math.floor(r() * 0x3000));
    return chars.join('');
  },
  truncate: (s, r) => s.slice(0, at(s, r)),
  duplicate(s, r) {
    const a = at(s, r);
    const b = Math.min(s.length, a + Math.floor(r() * 2000));
    const part = s.slice(a, b);
    return s.slice(0, b) + part.repeat(1 + Math.floor(r() * 20)) + s.slice(b);
  },
  nest(s, r) {
    const depth = pick(r, [10, 63, 64, 65, 200, 5000, 40000]);
    const name = pick(r, ['Extensions', 'a', 'Расширение', 'Ad']);
    const inner = `${`<${name}>`.repeat(depth)}x${`</${name}>`.repeat(depth)}`;
    const i = s.indexOf('</InLine>');
    return i < 0 ? inner : s.slice(0, i) + inner + s.slice(i);
  },
  doctype(s, r) {
    const dt = pick(r, [
      '<!DOCTYPE VAST [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>',
      '<!DOCTYPE VAST SYSTEM "http://evil.test/x.dtd">',
      '<!doctype vast [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
      '<!ENTITY x "y">',
    ]);
    const i = s.indexOf('<VAST');
    const doc = i < 0 ? dt + s : s.slice(0, i) + dt + s.slice(i);
    return r() < 0.5 ? doc.replace('<AdTitle>', '<AdTitle>&b;&x;') : doc;
  },
  times(s, r) {
    return s
      .replace(/skipoffset="[^"]*"/g, () => `skipoffset="${pick(r, BAD_TIMES)}"`)
      .replace(/offset="[^"]*"/g, () => `offset="${pick(r, BAD_TIMES)}"`)
      .replace(/<Duration>[^<]*<\/Duration>/g, () => `<Duration>${pick(r, BAD_TIMES).replace(/[<&]/g, '')}</Duration>`);
  },
  urls(s, r) {
    // Every URL element (CDATA or text) gets an unsafe URL, with or without CDATA.
    return s
      .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, () => (r() < 0.5 ? `<![CDATA[${pick(r, UNSAFE)}]]>` : pick(r, UNSAFE).replace(/&/g, '&amp;').replace(/</g, '&lt;')))
      .replace(/<URL>[^<]*<\/URL>/g, () => `<URL>${pick(r, UNSAFE).replace(/</g, '&lt;')}</URL>`);
  },
};

const fixtures = (): string[] => Object.values(VAST as Record<string, (o: string) => string>).map((make) => make(O));

/** Every string in a parse result that stands for a URL. */
function urlsOf(r: VastResponse | VastFailure): string[] {
  if (isFailure(r)) return r.errorUrls;
  const out = [...r.errors];
  for (const a of r.ads) {
    out.push(...a.impressions, ...a.errors, ...a.clickTracking, ...a.tracking.map((t) => t.url), ...a.mediaFiles.map((m) => m.url));
    if (a.clickThrough !== undefined) out.push(a.clickThrough);
    if (a.wrapperUrl) out.push(a.wrapperUrl);
  }
  return out;
}

function checkOutcome(r: unknown, label: string): void {
  assert.ok(r && typeof r === 'object', `${label}: an object`);
  const res = r as VastResponse | VastFailure;
  if (isFailure(res)) {
    assert.ok(CODES.has(res.code), `${label}: code ${res.code}`);
    assert.type(res.message, 'string');
    assert.ok(Array.isArray(res.errorUrls), label);
  } else {
    assert.ok(Array.isArray(res.ads) && res.ads.length > 0 && Array.isArray(res.errors), `${label}: ads`);
    for (const a of res.ads) {
      assert.type(a.adId, 'string');
      assert.type(a.linear, 'boolean');
      for (const m of a.mediaFiles) assert.ok(m.width >= 0 && m.height >= 0 && !!m.type, `${label}: media file`);
      if (a.duration !== undefined) assert.ok(Number.isFinite(a.duration) && a.duration >= 0, `${label}: duration ${a.duration}`);
      if (a.skipOffset && 'seconds' in a.skipOffset) assert.ok(Number.isFinite(a.skipOffset.seconds), label);
      for (const t of a.tracking) if (t.offset && 'percent' in t.offset) assert.ok(t.offset.percent >= 0 && t.offset.percent <= 100, label);
    }
  }
  for (const u of urlsOf(res)) {
    const p = new URL(u).protocol;
    assert.ok(p === 'http:' || p === 'https:', `${label}: unsafe URL survived: ${u}`);
  }
}

test('fuzz: mutated documents always end in a typed outcome, promptly, with only http(s) URLs', () => {
  g.DOMParser = window.DOMParser;
  const r = rng(SEED);
  const seeds = fixtures();
  const names = Object.keys(mutations);
  const seen: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  const t0 = performance.now();
  let worst = 0;
  let n = 0;
  for (; n < MAX_DOCS && performance.now() - t0 < BUDGET_MS; n++) {
    let doc = pick(r, seeds);
    // One to three mutations stacked; every tenth document is a pure unsafe-URL one, so it parses.
    const steps = n % 10 === 0 ? ['urls'] : Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(r, names));
    for (const m of steps) {
      doc = mutations[m](doc, r);
      seen[m] = (seen[m] ?? 0) + 1;
    }
    const label = `doc ${n} (seed ${SEED}, ${steps.join('+')})`;
    const start = performance.now();
    let res: unknown;
    try {
      res = parseVast(doc, r() < 0.5 ? BASE : undefined);
    } catch (err) {
      assert.unreachable(`${label}: parseVast threw ${String(err)}`);
    }
    worst = Math.max(worst, performance.now() - start);
    checkOutcome(res, label);
    const key = isFailure(res as VastResponse | VastFailure) ? String((res as VastFailure).code) : 'ads';
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  }
  console.log(`vast fuzz: ${n} documents, outcomes ${JSON.stringify(outcomes)}, slowest ${Math.round(worst)} ms`);
  assert.ok(worst < PER_DOC_MS, `slowest document ${Math.round(worst)} ms`);
  assert.ok(n >= 100, `only ${n} documents in the budget`);
  for (const m of names) assert.ok(seen[m] > 0, `mutation ${m} ran`);
  assert.ok(outcomes.ads > 0 && outcomes['100'] > 0, `both readable and refused documents: ${JSON.stringify(outcomes)}`);
});

test('the unsafe-URL mutation alone keeps documents readable and strips every URL', () => {
  g.DOMParser = window.DOMParser;
  const r = rng(SEED + 1);
  for (const doc of fixtures()) {
    const res = parseVast(mutations.urls(doc, r), BASE);
    checkOutcome(res, 'urls');
    if (!isFailure(res)) assert.equal(urlsOf(res), [], 'no URL survives');
  }
});

test('without DOMParser (a worker, plain Node) parseVast still answers, typed', () => {
  const saved = g.DOMParser;
  delete g.DOMParser;
  try {
    const res = parseVast(fixtures()[0], BASE);
    assert.ok(isFailure(res));
    assert.is((res as VastFailure).code, 100);
  } finally {
    g.DOMParser = saved;
  }
});

test('deep nesting past the cap is refused before any parser sees it (no RangeError)', () => {
  g.DOMParser = window.DOMParser;
  for (const depth of [65, 10000, 60000]) {
    const doc = `<VAST version="4.0"><Ad><InLine>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</InLine></Ad></VAST>`;
    const res = parseVast(doc);
    assert.ok(isFailure(res) && res.code === 100, String(depth));
  }
});

test.run();
