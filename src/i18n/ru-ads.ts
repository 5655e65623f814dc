/** The ad overlay's strings (SPEC §2); they ship with the lazy ads piece. */
export const ruAds = {
  skip: 'Пропустить',
  mediaTitle: 'Объявление',
  overlayLabel: 'Реклама',
  clickThroughLabel: 'Перейти на сайт рекламодателя',
  /** The ad's place in its pod (SPEC §2 overlay). */
  podPosition: (index: number, size: number) => `Реклама ${index} из ${size}`,
} as const;
