import type { Cause } from '../core/bus';
import type { Store } from '../core/store';
import type { Media } from '../providers/media-contract';

/** With sound first; when the browser refuses, muted with an unmute button (DESIGN "Autoplay that works"). */
export async function autoplay(media: Media, store: Store, cause: Cause = 'autoplay'): Promise<void> {
  if (await media.play(cause)) return;
  media.setMuted(true);
  store.mutedAutoplay.value = true;
  if (await media.play(cause)) return;
  store.mutedAutoplay.value = false;
  media.setMuted(false);
}
