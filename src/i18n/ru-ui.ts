// The lazy interface's strings (controls, menu): apart from ru.ts so that they stay off the critical
// path (a module shared with the entry is bundled whole into the entry's chunk).

/** Viewer-visible strings of the controls widget, exactly as SPEC writes them where it does. */
export const ruUi = {
  back10: 'Назад на 10 секунд',
  forward10: 'Вперёд на 10 секунд',
  settings: 'Настройки',
  subtitles: 'Субтитры',
  pip: 'Картинка в картинке',
  cast: 'Трансляция на устройство',
  airplay: 'AirPlay',
  close: 'Закрыть',
  back: 'Назад',
  quality: 'Качество',
  rate: 'Скорость',
  rateNormal: 'Обычная',
  audio: 'Озвучка',
  gain: 'Усиление звука',
  subsOff: 'Выкл.',
  episodes: 'Серии',
  seasons: 'Сезоны',
  variants: 'Версии серии',
  season: (n: number) => `${n} сезон`,
  episode: (n: number, title: string) => (title ? `${n} серия. ${title}` : `${n} серия`),
  seekedTo: (time: string) => `Перемотано на ${time}`,
  currentTime: 'Текущее время',
  duration: 'Длительность',
  castUnavailable: 'Cast not available.',
  menu: 'Меню настроек',
} as const;
