import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deviceType } from '../../../src/analytics/device';
import { buildFields } from '../../../src/analytics/fields';
import { MILESTONES, createMilestones } from '../../../src/analytics/milestones';
import { bandwidthKBps, networkType } from '../../../src/analytics/network';
import type { Content, Episode } from '../../../src/core/entities';

test('network class thresholds in kB/s (SPEC §9)', () => {
  assert.is(networkType(1), 'gprs');
  assert.is(networkType(49.9), 'gprs');
  assert.is(networkType(50), '2g');
  assert.is(networkType(299), '2g');
  assert.is(networkType(300), '3g');
  assert.is(networkType(999), '3g');
  assert.is(networkType(1000), '4g');
  assert.is(networkType(3999), '4g');
  assert.is(networkType(4000), 'wifi');
  assert.is(networkType(1e6), 'wifi');
  assert.is(networkType(undefined), undefined);
  assert.is(networkType(0), undefined);
  assert.is(networkType(NaN), undefined);
  assert.is(bandwidthKBps(800_000, 10), 100, "the engine's bits/s win");
  assert.is(bandwidthKBps(0, 10), 1250, 'else the browser downlink (Mb/s)');
  assert.is(bandwidthKBps(undefined, undefined), undefined);
});

test('device type from the user agent', () => {
  const ua = {
    iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    ipad: 'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    ipadOs: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15',
    androidPhone: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36',
    androidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 Chrome/120 Safari/537.36',
    desktop: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36',
  };
  assert.is(deviceType(ua.iphone, 5), 'mobile');
  assert.is(deviceType(ua.ipad, 5), 'tablet');
  assert.is(deviceType(ua.ipadOs, 5), 'tablet');
  assert.is(deviceType(ua.ipadOs, 0), 'desktop', 'a real Mac');
  assert.is(deviceType(ua.androidPhone, 5), 'mobile');
  assert.is(deviceType(ua.androidTablet, 5), 'tablet');
  assert.is(deviceType(ua.desktop), 'desktop');
  assert.is(deviceType(''), 'desktop');
});

const content: Content = {
  id: 2,
  title: 'Сериал',
  posterUrl: '/p.jpg',
  contentType: { slug: 'series' },
  kinopoiskId: 1002,
  year: 2023,
  countries: [{ slug: 'ru' }, { slug: 'by' }],
  languages: [{ code: 'ru' }],
  rating: { kinopoisk: { value: 7.8 }, imdb: { value: 7.1, url: 'https://www.imdb.com/title/tt0000002/' } },
  hasMultipleEpisodes: true,
};
const episode: Episode = { id: 205, contentId: 2, title: 'E', order: 2, season: { id: 22, order: 2 }, m3u8MasterFilePath: '/m.m3u8' };

test('the analytics field builder: every SPEC §7 field', () => {
  const f = buildFields({
    content,
    episode,
    poster: 'https://h/p.jpg',
    duration: 599.6,
    currentTime: 12.345,
    playbackRate: 1.5,
    realPlayed: 10.4,
    videoPlayed: 15.6,
    height: 720,
    audioLanguage: 'en',
    deviceType: 'tablet',
    userId: 'u-1',
    ads: [{ id: 'a1', type: 'preroll', position: 1, duration: 15.2, perc: 0 }],
    bandwidthKBps: 500,
  });
  assert.equal(f, {
    video_id: 2,
    video_title: 'Сериал',
    duration: 600,
    player_type: 'embedded',
    video_category: 'series',
    video_thumbnail: 'https://h/p.jpg',
    kinopoisk_raiting: 7.8,
    kinopoisk_id: 1002,
    IMDb_raiting: 7.1,
    IMDb_id: 'tt0000002',
    year: 2023,
    countries: 'ru,by',
    current_time: 12.3,
    playback_rate: 1.5,
    real_time_played_sec: 10,
    video_time_played_sec: 16,
    video_quality: '720p',
    season: 2,
    episode: 2,
    language: 'en',
    device_type: 'tablet',
    user_id: 'u-1',
    isTrailer: '0',
    ad_id: ['a1'],
    ad_type: ['preroll'],
    ad_duration_sec: [15],
    ad_position_perc: [0],
    ad_position: [1],
    network_type: '3g',
  });
});

test('the field builder with nothing known yet: same keys, empty values', () => {
  const f = buildFields({
    content: null,
    episode: null,
    poster: '',
    duration: 0,
    currentTime: 0,
    playbackRate: 1,
    realPlayed: 0,
    videoPlayed: 0,
    height: 0,
    audioLanguage: '',
    deviceType: 'desktop',
    ads: [],
  });
  assert.is(Object.keys(f).length, 29);
  assert.is(f.video_id, '');
  assert.is(f.season, '');
  assert.is(f.video_quality, '');
  assert.is(f.network_type, '');
  assert.is(f.user_id, '');
  assert.equal(f.ad_id, []);
  const film = buildFields({ content: { ...content, hasMultipleEpisodes: false }, episode, poster: '', duration: 1, currentTime: 0, playbackRate: 1, realPlayed: 0, videoPlayed: 0, height: 0, audioLanguage: '', deviceType: 'desktop', ads: [] });
  assert.is(film.season, '', 'a film has no season');
  assert.is(film.language, 'ru', 'the content language when the track has none');
});

test('milestones: each once, by playback only, also after seeks; 100 at the end', () => {
  assert.equal([...MILESTONES], [10, 25, 50, 75, 95, 100]);
  const m = createMilestones();
  assert.equal(m.played(0, 9.9), []);
  assert.equal(m.played(9.9, 10), [10]);
  assert.equal(m.played(10, 11), [], 'once');
  assert.equal(m.played(5, 12), [], 'after seeking back, crossing again does not count');
  assert.equal(m.played(24, 51), [25, 50], 'a long step crosses two');
  assert.equal(m.played(96, 99.9), [], '75 and 95 were never played through');
  assert.equal(m.played(74, 75), [75]);
  assert.equal(m.played(94.9, 95.2), [95]);
  assert.equal(m.ended(), [100]);
  assert.equal(m.ended(), []);
  m.reset();
  assert.equal(m.played(0, 10), [10], 'a new video starts over');
});

test.run();
