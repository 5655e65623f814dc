import type { Store } from '../core/store';
import type { Media } from '../providers/media';

/** With sound first; when the browser refuses, muted with an unmute button (DESIGN "Autoplay that works"). */
export async function autoplay(media: Media, store: Store): Promise<void> {
  if (await media.play('autoplay')) return;
  media.setMuted(true);
  store.mutedAutoplay.value = true;
  if (await media.play('autoplay')) return;
  store.mutedAutoplay.value = false;
  media.setMuted(false);
}
