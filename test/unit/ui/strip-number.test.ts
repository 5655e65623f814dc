import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stripNumberPrefix } from '../../../src/ui/strip-number';

test("SPEC §5: a leading 'number. ' prefix is stripped; anything else stays", () => {
  assert.is(stripNumberPrefix('3. Встреча'), 'Встреча');
  assert.is(stripNumberPrefix('  12.  Финал'), 'Финал');
  assert.is(stripNumberPrefix('Встреча'), 'Встреча');
  assert.is(stripNumberPrefix('1984.'), '1984.', 'a title that is only a number');
  assert.is(stripNumberPrefix('2.5 часа'), '2.5 часа', 'a decimal is not a prefix');
  assert.is(stripNumberPrefix('3.Встреча'), '3.Встреча', 'no space, no prefix');
  assert.is(stripNumberPrefix('Глава 3. Встреча'), 'Глава 3. Встреча', 'only at the start');
  assert.is(stripNumberPrefix(''), '');
});

test.run();
