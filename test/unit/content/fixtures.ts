import type { Episode } from '../../../src/core/entities';

export const ep = (id: number, season: number | null, order: number, extra: Partial<Episode> = {}): Episode => ({
  id,
  contentId: 2,
  title: `E${id}`,
  order,
  season: season === null ? null : { id: 20 + season, order: season },
  m3u8MasterFilePath: `/media/${id}.m3u8`,
  ...extra,
});
