// SPEC §8: each error screen the viewer can see, with its exact text, and the reload button's recovery.
import { test } from './journey';
import * as assert from 'uvu/assert';
import { play, srv, video, within } from './harness';

const BLOCKED =
  'Извините, данный контент недоступен в вашей стране. Если вы используете VPN, мы рекомендуем отключить его или сменить страну.';
const GENERIC = /^К сожалению, произошла ошибка, попробуйте перезагрузите страницу\. Идентификатор ошибки: [0-9a-f]{32}$/;

const errorText = async (query: string) => {
  let text: string | null = null;
  await within(query, async (tab) => {
    await tab.waitForSelector('.pl-error');
    text = await tab.text('.pl-error__text');
  });
  return text;
};

test('blocked video: the placeholder plays behind the blocked text, no button', async () => {
  await within('?movie_id=3', async (tab) => {
    await tab.click('.pl-big-play');
    await tab.waitForSelector('.pl-error');
    assert.is((await tab.text('.pl-error__text'))?.trim(), BLOCKED);
    assert.match((await video(tab)).src, /\/player\/placeholder\.mp4$/);
    assert.is(await tab.count('.pl-error button'), 0);
  });
});

test('descriptor failure, 404 and missing movie_id each show their text', async () => {
  assert.is(await errorText('?movie_id=6'), `Ошибка в загрузке: ${srv().url}/media/film-6/descriptor.json`);
  assert.is(await errorText('?movie_id=999'), 'Контент не доступен');
  assert.is(await errorText(''), 'Пропущен movie_id в запросе');
  assert.is(await errorText('?movie_id=abc'), 'Пропущен movie_id в запросе');
});

test('any other error: the generic text with its id and Перезагрузить страницу, which brings the film back', async () => {
  srv().setFaults([{ match: '/catalog-api/contents/1', status: 500 }]);
  try {
    await within('?movie_id=1', async (tab) => {
      await tab.waitForSelector('.pl-error');
      assert.match((await tab.text('.pl-error__text'))!, GENERIC);
      assert.is(await tab.text('.pl-error__button'), 'Перезагрузить страницу');
      srv().clearFaults();
      await tab.click('.pl-error__button');
      await play(tab, 1);
      assert.is(await tab.count('.pl-error'), 0);
    });
  } finally {
    srv().clearFaults();
  }
});

test.run();
