/** The ad overlay's strings (SPEC §2); they ship with the lazy ads piece. */
export const ruAds = {
  skip: 'Пропустить',
  mediaTitle: 'Объявление',
  overlayLabel: 'Реклама',
  clickThroughLabel: 'Перейти на сайт рекламодателя',
} as const;
