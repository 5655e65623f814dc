// What each settings page lists, read from the store (SPEC §2, §4, §9).
import type { PlayerApi } from '../../core/player-api';
import { audioContextClass } from '../../providers/audio-gain';
import { audioChoiceTracks } from '../../content/audio-choice';
import { RATES } from '../../core/tracks';
import { ruUi } from '../../i18n/ru-ui';
import { stripNumberPrefix } from '../strip-number';
import { GAINS, bitrateLabel, gainLabel, heightLabel, qualityLabel, rateLabel } from './labels';
import type { MenuPage, MenuState } from './menu-state';
import { pickSubtitleStyle, subtitleStyleGroups } from './subtitle-style-items';

export interface MenuItem {
  /** data-menu-item: the value picked (tests and the menu_click analytics read it). */
  value: string;
  label: string;
  detail?: string;
  checked?: boolean;
  /** Entries of main open a page instead of picking. */
  opens?: MenuPage;
}

export interface MenuGroup {
  label?: string;
  items: MenuItem[];
}

type Store = PlayerApi['store'];

export const pageTitle: Record<MenuPage, string> = {
  main: ruUi.settings,
  quality: ruUi.quality,
  'playback-rate': ruUi.rate,
  'audio-tracks': ruUi.audio,
  subs: ruUi.subtitles,
  episodes: ruUi.episodes,
  seasons: ruUi.seasons,
  'variants-episode': ruUi.variants,
};

/**
 * Audio choices: the descriptor's sources when it has several (SPEC §4), else the stream's tracks by
 * the same rule as the initial choice (those labelled AC3 dropped, preferred languages first), plus
 * the one playing if the rule dropped it; all of them when it drops every one.
 */
function audioChoices(store: Store, langOrder: string[] = []): MenuItem[] {
  const sources = store.descriptor.value?.sources ?? [];
  if (sources.length > 1)
    return sources.map((s, i) => ({ value: String(i), label: s.label, checked: s.link === store.sourceUrl.value }));
  const playing = store.audioTrack.value;
  return audioChoiceTracks(store.audioTracks.value, playing, langOrder).map((t) => ({ value: String(t.id), label: t.label, checked: t.id === playing }));
}

function currentQualityLabel(store: Store): string {
  const levels = store.qualities.value;
  const height = (id: number) => levels.find((l) => l.id === id)?.height;
  return qualityLabel(store.quality.value, height(store.level.value), height(store.quality.value));
}

const gainSupported = () => !!audioContextClass();

function mainItems(store: Store, langOrder: string[]): MenuItem[] {
  const items: MenuItem[] = [];
  const entry = (page: MenuPage, detail?: string) => items.push({ value: page, label: pageTitle[page], detail, opens: page });
  const content = store.content.value;
  const episode = store.episode.value;
  if (content?.hasMultipleEpisodes && store.seasons.value.length > 1) entry('seasons');
  if (content?.hasMultipleEpisodes && store.episodes.value.length > 1) entry('episodes', episode ? ruUi.episode(episode.order, '') : undefined);
  const variants = episode?.episodeVariants ?? [];
  if (variants.length > 1) entry('variants-episode', variants.find((v) => v.id === store.activeVariantId.value)?.title);
  if (store.qualities.value.length) entry('quality', currentQualityLabel(store));
  entry('playback-rate', rateLabel(store.playbackRate.value));
  const audio = audioChoices(store, langOrder);
  if (audio.length > 1 || gainSupported()) entry('audio-tracks', audio.find((a) => a.checked)?.label);
  if (store.textTracks.value.length)
    entry('subs', store.textTracks.value.find((t) => t.id === store.textTrack.value)?.label ?? ruUi.subsOff);
  return items;
}

export function pageGroups(page: MenuPage, state: MenuState, store: Store, langOrder: string[] = []): MenuGroup[] {
  switch (page) {
    case 'main':
      return [{ items: mainItems(store, langOrder) }];
    case 'quality': {
      const levels = [...store.qualities.value].sort((a, b) => b.height - a.height || b.bitrate - a.bitrate);
      const playing = levels.find((l) => l.id === store.level.value)?.height;
      return [
        {
          items: [
            { value: '-1', label: qualityLabel(-1, playing), checked: store.quality.value < 0 },
            ...levels.map((l) => ({
              value: String(l.id),
              label: heightLabel(l.height),
              detail: bitrateLabel(l.bitrate),
              checked: l.id === store.quality.value,
            })),
          ],
        },
      ];
    }
    case 'playback-rate':
      return [{ items: RATES.map((r) => ({ value: String(r), label: rateLabel(r), checked: r === store.playbackRate.value })) }];
    case 'audio-tracks': {
      const groups: MenuGroup[] = [{ items: audioChoices(store, langOrder) }];
      if (gainSupported())
        groups.push({
          label: ruUi.gain,
          items: GAINS.map((g) => ({ value: `gain:${g}`, label: gainLabel(g), checked: g === store.gain.value })),
        });
      return groups;
    }
    case 'subs':
      return [
        {
          items: [
            { value: '-1', label: ruUi.subsOff, checked: store.textTrack.value < 0 },
            ...store.textTracks.value.map((t) => ({ value: String(t.id), label: t.label, checked: t.id === store.textTrack.value })),
          ],
        },
        ...subtitleStyleGroups(store),
      ];
    case 'episodes': {
      const current = store.episode.value;
      const season = state.season ?? current?.season?.order;
      const list = store.episodes.value.filter((e) => season === undefined || e.season?.order === season);
      return [{ items: list.map((e) => ({ value: String(e.id), label: ruUi.episode(e.order, stripNumberPrefix(e.title ?? '')), checked: e.id === current?.id })) }];
    }
    case 'seasons': {
      const current = store.episode.value?.season?.order;
      const seasons = [...store.seasons.value].sort((a, b) => a.order - b.order);
      return [{ items: seasons.map((s) => ({ value: String(s.order), label: s.title || ruUi.season(s.order), checked: s.order === current })) }];
    }
    case 'variants-episode':
      return [
        {
          items: (store.episode.value?.episodeVariants ?? []).map((v) => ({
            value: String(v.id),
            label: v.title,
            checked: v.id === store.activeVariantId.value,
          })),
        },
      ];
  }
}

/** Carries out a pick; returns the next menu action (a season opens its episodes, the rest close). */
export function pick(player: PlayerApi, page: MenuPage, value: string): { type: 'pick' } | { type: 'open'; page: MenuPage; parent: MenuPage; season: number } {
  const { store, requests } = player;
  const n = Number(value);
  switch (page) {
    case 'quality':
      requests.setQuality(n);
      break;
    case 'playback-rate':
      requests.setPlaybackRate(n);
      break;
    case 'audio-tracks':
      if (value.startsWith('gain:')) requests.setAudioGain(Number(value.slice(5)));
      else requests.setAudioTrack(n);
      break;
    case 'subs':
      if (!pickSubtitleStyle(store, value)) requests.setTextTrack(n);
      break;
    case 'episodes': {
      const episode = store.episodes.value.find((e) => e.id === n);
      if (episode && episode.id !== store.episode.value?.id) requests.selectEpisode(episode);
      break;
    }
    case 'seasons':
      return { type: 'open', page: 'episodes', parent: 'seasons', season: n };
    case 'variants-episode':
      if (n !== store.activeVariantId.value) requests.selectVariant(n);
      break;
  }
  return { type: 'pick' };
}
