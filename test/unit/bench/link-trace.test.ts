// Mahimahi traces as the link reads them: the parser's refusals name the line, and fixed rates are traces too.
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { capacityBytes, constantTrace, meanBitsPerSecond, parseTrace, phasedTrace } from '../../../bench/link-trace';

const refusal = (text: string) => {
  try {
    parseTrace(text, 'x.down');
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

test('a trace: one line per packet, repeats counted, the last time is the period; blank lines, CRLF and spaces pass', () => {
  const trace = parseTrace('0\r\n 3\n3\n\n10\n', 'x.down');
  assert.equal(trace.times, [0, 3, 3, 10]);
  assert.is(trace.periodMs, 10);
  assert.is(trace.name, 'x.down');
  assert.is(meanBitsPerSecond(trace), (4 * 1500 * 8 * 1000) / 10);
});

test('capacityBytes: the packets in a window of the trace, over its repetitions (both ends of a wrap count)', () => {
  const trace = parseTrace('0\n3\n3\n10\n');
  assert.is(capacityBytes(trace, 0, 4), 3 * 1500);
  assert.is(capacityBytes(trace, 3, 3), 0);
  assert.is(capacityBytes(trace, 4, 10), 0);
  assert.is(capacityBytes(trace, 4, 11), 2 * 1500, 'the packet at 10 and the next repetition\'s at 0');
  assert.is(capacityBytes(trace, 0, 30), 11 * 1500, 'three repetitions, the packet at 30 past the end');
  assert.is(capacityBytes(trace, 23, 24), 2 * 1500);
  assert.is(capacityBytes(constantTrace(1.2e6), 0, 60_001), (1.2e6 * 60) / 8, 'a minute of a fixed rate, its last packet at 60 000 ms');
});

test('nasty input is refused with the file, the line and why', () => {
  assert.match(refusal(''), 'x.down: no delivery times');
  assert.match(refusal('\n \n\r\n'), 'no delivery times');
  assert.match(refusal('0\n0\n0\n'), 'x.down: every time is 0');
  assert.match(refusal('1\n2\nabc\n'), "x.down:3: 'abc' is not a whole number");
  assert.match(refusal('1\n-2\n'), "x.down:2: '-2' is not a whole number");
  assert.match(refusal('1.5\n'), 'x.down:1:');
  assert.match(refusal('1e3\n'), 'x.down:1:');
  assert.match(refusal('0x10\n'), 'x.down:1:');
  assert.match(refusal('5 6\n'), 'x.down:1:');
  assert.match(refusal('5\n6\n4\n'), 'x.down:3: 4 comes after 6');
  assert.match(refusal('99999999999999999999\n'), 'too large');
  assert.match(refusal('\u0000\u0001binary'), 'x.down:1:');
});

test('the shared real traces parse, with the mean rates their README gives', () => {
  const shared = new URL('../../../../shared/traces/', import.meta.url);
  // The traces sit beside the checkout in the workplace, not in git: a clone elsewhere has none.
  if (!existsSync(shared)) return void console.log(`  (skipped: no shared traces at ${shared.pathname})`);
  const read = (name: string) => parseTrace(readFileSync(new URL(name, shared), 'utf8'), name);
  const tmobile = read('TMobile-UMTS-driving.down');
  assert.is(Math.round(meanBitsPerSecond(tmobile) / 1e4) / 100, 2.02);
  assert.is(Math.round(tmobile.periodMs / 1000), 928);
  assert.is(Math.round(meanBitsPerSecond(read('Verizon-LTE-short.down')) / 1e4) / 100, 5.03);
});

test('a constant rate: evenly spread packets over a minute, the mean rate exact, several a ms above 12 Mb/s', () => {
  const slow = constantTrace(1.6e6);
  assert.is(slow.periodMs, 60_000);
  assert.is(slow.times.length, 8000);
  assert.is(meanBitsPerSecond(slow), 1.6e6);
  assert.equal(slow.times.slice(0, 3), [7, 15, 22]);
  assert.is(slow.times[slow.times.length - 1], 60_000);
  const fast = constantTrace(24e6);
  assert.equal(fast.times.slice(0, 4), [0, 1, 1, 2]);
  assert.is(meanBitsPerSecond(fast), 24e6);
  assert.throws(() => constantTrace(50), /below one packet a minute/);
  assert.throws(() => constantTrace(Number.NaN), /below one packet a minute/);
});

test('a phased trace: each phase at its rate, a hole carries nothing, the period the phases together', () => {
  const t = phasedTrace([
    [10_000, 1.2e6],
    [5_000, 0],
    [5_000, 120e3],
  ]);
  assert.is(t.periodMs, 20_000);
  assert.is(capacityBytes(t, 0, 10_001), (1.2e6 * 10) / 8, '10 s at 1.2 Mb/s');
  assert.is(capacityBytes(t, 10_001, 15_000), 0, 'the hole');
  assert.is(capacityBytes(t, 15_000, 20_001), (120e3 * 5) / 8, '5 s at 120 kb/s');
  assert.is(capacityBytes(t, 20_001, 30_001), (1.2e6 * 10) / 8, 'then again from the start');
  assert.throws(() => phasedTrace([[1000, 0]]), /no phase carries a packet/);
  assert.throws(() => phasedTrace([[0, 1e6]]), /expected ms > 0/);
  assert.throws(() => phasedTrace([[1000, -1]]), /bits\/s ≥ 0/);
});

test.run();
