// The viewer-visible strings of the critical path (the player frame, the spinner, SPEC §8 screens),
// exactly as SPEC writes them. The lazy pieces' strings are in ru-ui.ts and ru-ads.ts, so that they
// stay off the critical path (a module shared with the entry is bundled whole into its chunk).
export const ru = {
  missingMovieId: 'Пропущен movie_id в запросе',
  notFound: 'Контент не доступен',
  blocked:
    'Извините, данный контент недоступен в вашей стране. Если вы используете VPN, мы рекомендуем отключить его или сменить страну.',
  loadFailed: 'Ошибка в загрузке: ',
  generic: 'К сожалению, произошла ошибка, попробуйте перезагрузите страницу. Идентификатор ошибки: ',
  reload: 'Перезагрузить страницу',
  playLabel: 'Воспроизвести',
  unmuteLabel: 'Включить звук',
  loadingLabel: 'Загрузка',
  playerLabel: 'Видеоплеер',
} as const;
