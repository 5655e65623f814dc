import type { PlayerApi } from '../core/player-api';
import type { Episode } from '../core/entities';
import { ruUi } from '../i18n/ru-ui';

/**
 * SPEC §2 shareable address: the page address with season-N/episode-N path segments set to the
 * episode's season and episode order, the query kept as it is, and t (rounded seconds) added when a
 * time is given. Nothing is added when the episode has no season order.
 */
export function shareAddress(
  href: string,
  episode: Pick<Episode, 'order' | 'season'> | null | undefined,
  time?: number,
): string {
  const season = episode?.season?.order;
  if (!episode || typeof season !== 'number') return href;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return href;
  }
  url.pathname = url.pathname
    .replace(/(^|\/)season-\d+(?=\/|$)/g, `$1season-${season}`)
    .replace(/(^|\/)episode-\d+(?=\/|$)/g, `$1episode-${episode.order}`);
  if (time !== undefined && Number.isFinite(time) && time >= 0) {
    // The rest of the query stays byte for byte; only an older t gives way.
    const kept = url.search
      .slice(1)
      .split('&')
      .filter((p) => p && decodeKey(p) !== 't');
    url.search = [...kept, `t=${Math.round(time)}`].join('&');
  }
  return url.href;
}

function decodeKey(pair: string): string {
  const key = pair.split('=')[0];
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

export type ShareTarget = 'telegram' | 'whatsapp' | 'vk' | 'ok' | 'mymail';

/** Share pages of the five networks a Russian-speaking audience uses, every parameter encoded. */
export function socialLinks(link: string, title: string): Array<{ id: ShareTarget; href: string }> {
  const u = encodeURIComponent(link);
  const t = encodeURIComponent(title);
  return [
    { id: 'telegram', href: `https://t.me/share/url?url=${u}&text=${t}` },
    { id: 'whatsapp', href: `https://wa.me/?text=${encodeURIComponent(title ? `${title} ${link}` : link)}` },
    { id: 'vk', href: `https://vk.com/share.php?url=${u}&title=${t}` },
    { id: 'ok', href: `https://connect.ok.ru/offer?url=${u}&title=${t}` },
    { id: 'mymail', href: `https://connect.mail.ru/share?url=${u}&title=${t}` },
  ];
}

/** The title a share carries: the content and, for a series, the season and episode. */
export function shareTitle({ store }: Pick<PlayerApi, 'store'>): string {
  const content = store.content.peek();
  const episode = store.episode.peek();
  const season = content?.hasMultipleEpisodes ? episode?.season?.order : undefined;
  const line = typeof season === 'number' && episode ? `, ${ruUi.seasonEpisode(season, episode.order)}` : '';
  return (content?.title ?? '') + line;
}
