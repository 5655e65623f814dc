import { useComputed, useSignal } from '@preact/signals';
import { useRef } from 'react';
import type { PlayerApi } from '../core/player-api';
import { formatTime } from './format-time';
import { type Thumbnail, parseThumbnails, thumbnailFinder } from './thumbnails';
import { ruUi } from '../i18n/ru-ui';

type Finder = ReturnType<typeof thumbnailFinder>;

const KEY_STEP_S = 5;

/** The progress slider: buffered range, seeking, and a hover preview (time plus thumbnail). */
export function Progress({ player }: { player: PlayerApi }) {
  const { store, requests } = player;
  const scrub = useSignal<number | null>(null);
  const hover = useSignal<{ x: number; time: number; thumb?: Thumbnail } | null>(null);
  const finder = useRef<{ url: string; find?: Finder }>();
  const shown = useComputed(() => scrub.value ?? store.currentTime.value);
  const valueText = useComputed(() => `${formatTime(shown.value)} / ${formatTime(store.duration.value)}`);
  const playedPct = useComputed(() => pct(shown.value, store.duration.value));
  const bufferedPct = useComputed(() => pct(store.bufferedEnd.value, store.duration.value));

  // Thumbnails are fetched on the first hover only: most viewers never scrub.
  const loadThumbnails = () => {
    const url = store.thumbnailsUrl.value;
    if (!url || finder.current?.url === url) return;
    const entry: { url: string; find?: Finder } = { url };
    finder.current = entry;
    fetch(url)
      .then((r) => (r.ok ? r.text() : ''))
      .then((text) => {
        entry.find = thumbnailFinder(parseThumbnails(text, url));
        const h = hover.peek();
        if (h) hover.value = { ...h, thumb: entry.find.at(h.time) };
      })
      .catch((err) => console.warn('[player] thumbnails failed to load', err));
  };

  const onMove = (e: PointerEvent) => {
    const el = e.currentTarget as HTMLElement;
    const rect = el.getBoundingClientRect();
    const d = store.duration.value;
    if (!(d > 0) || rect.width <= 0) return;
    const x = Math.max(0, Math.min(rect.width, e.clientX - rect.left));
    const time = (x / rect.width) * d;
    loadThumbnails();
    hover.value = { x, time, thumb: finder.current?.find?.at(time) };
  };

  const h = hover.value;
  return (
    <div
      class="pl-progress"
      style={{ '--played': playedPct.value, '--buffered': bufferedPct.value } as never}
      onPointerMove={onMove}
      onPointerLeave={() => (hover.value = null)}
    >
      <input
        class="pl-progress__input"
        type="range"
        min={0}
        max={store.duration.value || 0}
        step={0.1}
        value={shown}
        aria-label={ruUi.seekLabel}
        aria-valuetext={valueText}
        onKeyDown={(e) => {
          // SPEC §9 key step 5: the native 0.1 s step of the slider would be useless from the keyboard.
          if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
          e.preventDefault();
          requests.seekBy(e.key === 'ArrowLeft' ? -KEY_STEP_S : KEY_STEP_S);
        }}
        onInput={(e) => (scrub.value = Number((e.target as HTMLInputElement).value))}
        onChange={(e) => {
          requests.seek(Number((e.target as HTMLInputElement).value));
          scrub.value = null;
        }}
      />
      {h && (
        <div class="pl-preview" style={{ left: `${h.x}px` }} aria-hidden="true">
          {h.thumb && h.thumb.width > 0 && (
            <div
              class="pl-preview__thumb"
              style={{
                width: `${h.thumb.width}px`,
                height: `${h.thumb.height}px`,
                backgroundImage: `url("${h.thumb.url}")`,
                backgroundPosition: `-${h.thumb.x}px -${h.thumb.y}px`,
              }}
            />
          )}
          <span class="pl-preview__time">{formatTime(h.time)}</span>
        </div>
      )}
    </div>
  );
}

const pct = (part: number, whole: number) => (whole > 0 ? `${Math.min(100, (part / whole) * 100)}%` : '0%');
