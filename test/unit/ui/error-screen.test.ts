import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installDom } from '../dom';
import { errorScreen } from '../../../src/ui/error-screen';
import { type PlayerError, playerError } from '../../../src/core/errors';

installDom();

function show(error: PlayerError, onReset = () => {}) {
  const host = document.createElement('div');
  host.append(errorScreen(error, onReset));
  return host;
}

test('each error screen shows its exact text (SPEC §8)', () => {
  assert.is(show(playerError('movie-id-missing', 'x')).textContent, 'Пропущен movie_id в запросе');
  assert.is(show(playerError('content-not-found', 'x')).textContent, 'Контент не доступен');
  assert.is(
    show(playerError('content-blocked', 'x')).textContent,
    'Извините, данный контент недоступен в вашей стране. Если вы используете VPN, мы рекомендуем отключить его или сменить страну.',
  );
  assert.is(show(playerError('descriptor-load-failed', 'x', { address: 'https://h/d.json' })).textContent, 'Ошибка в загрузке: https://h/d.json');
});

test('the generic screen shows the event id and a reload button that resets', () => {
  const err = playerError('media-load-failed', 'x');
  let resets = 0;
  const host = show(err, () => resets++);
  const text = host.querySelector('p')!.textContent;
  assert.is(text, `К сожалению, произошла ошибка, попробуйте перезагрузите страницу. Идентификатор ошибки: ${err.data?.eventId}`);
  const button = host.querySelector('button')!;
  assert.is(button.textContent, 'Перезагрузить страницу');
  button.click();
  assert.is(resets, 1);
  assert.is(show(playerError('movie-id-missing', 'x')).querySelector('button'), null, 'only the generic screen has the button');
});

test('every fatal code without a screen of its own shows the generic screen with its event id and the reload button', () => {
  for (const code of ['content-load-failed', 'content-timeout', 'media-unsupported', 'media-load-failed'] as const) {
    const err = playerError(code, 'x');
    const host = show(err);
    assert.is(host.querySelector('[role="alert"]')!.getAttribute('data-screen'), 'generic', code);
    assert.match(host.textContent!, err.data!.eventId!);
    assert.ok(host.querySelector('button'), code);
  }
});

test.run();
