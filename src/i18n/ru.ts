// Every viewer-visible string, exactly as SPEC writes it (§2, §8, §9).
export const ru = {
  missingMovieId: 'Пропущен movie_id в запросе',
  notFound: 'Контент не доступен',
  blocked:
    'Извините, данный контент недоступен в вашей стране. Если вы используете VPN, мы рекомендуем отключить его или сменить страну.',
  loadFailed: 'Ошибка в загрузке: ',
  generic: 'К сожалению, произошла ошибка, попробуйте перезагрузите страницу. Идентификатор ошибки: ',
  reload: 'Перезагрузить страницу',
  play: 'Смотреть',
  playLabel: 'Воспроизвести',
  pauseLabel: 'Пауза',
  muteLabel: 'Выключить звук',
  unmuteLabel: 'Включить звук',
  volumeLabel: 'Громкость',
  seekLabel: 'Перемотка',
  fullscreenLabel: 'Во весь экран',
  exitFullscreenLabel: 'Выйти из полноэкранного режима',
  loadingLabel: 'Загрузка',
  playerLabel: 'Видеоплеер',
  seasonEpisode: (season: number, episode: number) => `${season} сезон, ${episode} серия`,
  resumeAt: (time: string) => `Вы остановились на ${time}`,
  resumeContinue: 'Продолжить просмотр',
  resumeRestart: 'Начать сначала',
  nextEpisode: 'Следующий эпизод',
  episodeNumber: (episode: number) => `${episode} серия`,
  share: 'Поделиться',
  shareWithTime: 'Поделиться с тайм кодом:',
  shareLink: 'Ссылка',
  copy: 'Копировать',
  copied: 'Скопировано',
  close: 'Закрыть',
  shareTargets: { telegram: 'Telegram', whatsapp: 'WhatsApp', vk: 'ВКонтакте', ok: 'Одноклассники', mymail: 'Мой Мир' },
} as const;

/** The ad overlay's strings (SPEC §2); a separate export so they ship with the lazy ads piece. */
export const ruAds = {
  skip: 'Пропустить',
  mediaTitle: 'Объявление',
  overlayLabel: 'Реклама',
  clickThroughLabel: 'Перейти на сайт рекламодателя',
} as const;
