import { effect } from '@preact/signals-core';
import { SUBTITLES_KEY, readSubtitleStyle } from '../core/memory-protocol';
import type { PlayerParts } from '../core/player-api';
import { recall } from '../storage/memory';
import { remember } from '../storage/remember';

/**
 * The subtitle style, remembered on the device: the remembered one shows unless the viewer already
 * chose (the interface may be here first), and each choice is saved. A malformed remembered field
 * reads as the default; what was only read is not written back.
 */
export function attachSubtitleStyleMemory({ store }: PlayerParts): () => void {
  let written: string | undefined;
  if (!store.subtitleStyle.peek()) {
    const saved = recall(SUBTITLES_KEY);
    if (saved !== undefined) store.subtitleStyle.value = readSubtitleStyle(saved);
    written = JSON.stringify(store.subtitleStyle.peek());
  }
  return effect(() => {
    const style = store.subtitleStyle.value;
    const json = JSON.stringify(style);
    if (!style || json === written) return;
    written = json;
    remember(SUBTITLES_KEY, style);
  });
}
