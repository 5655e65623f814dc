import type { Store } from '../core/store';
import { stripNumberPrefix } from './strip-number';
import { ruUi } from '../i18n/ru-ui';

/** SPEC §2 title overlay: the content title and, for series, 'N сезон, N серия' and the episode title. */
export function Title({ store }: { store: Store }) {
  const content = store.content.value;
  const episode = store.episode.value;
  if (!content) return null;
  const season = content.hasMultipleEpisodes && episode?.season ? episode.season.order : undefined;
  // An episode offered in several variants names the one playing.
  const variants = episode?.episodeVariants ?? [];
  const variant = variants.length > 1 ? variants.find((v) => v.id === store.activeVariantId.value) : undefined;
  return (
    <div class="pl-title">
      <div class="pl-title__name">{content.title}</div>
      {season !== undefined && episode && (
        <div class="pl-title__episode">
          {ruUi.seasonEpisode(season, episode.order)}
          {episode.title && episode.title !== content.title ? ` · ${stripNumberPrefix(episode.title)}` : ''}
        </div>
      )}
      {variant && <div class="pl-title__variant">{variant.title}</div>}
    </div>
  );
}
