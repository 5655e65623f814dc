// What the player remembers on the device, the binge flow and the
// parent-page protocol. None of it is needed for the first frame; the few storage reads that are
// (volume, mute, episode variant, audio label) live in the controller.
import { attachMessenger } from '../messenger/messenger';
import { attachAudioMemory } from '../storage/audio-memory';
import { attachProgressSaver } from '../storage/progress-saver';
import { attachVolumeMemory } from '../storage/volume-memory';
import { VARIANTS_KEY, readMap, writeStored } from '../storage/local';
import { attachBinge } from './binge';
import type { PlayerParts } from './memory-types';

export function attachMemory(parts: PlayerParts): () => void {
  const messenger = attachMessenger(parts);
  const offs = [
    () => messenger.dispose(),
    attachProgressSaver(parts, (currentTime, duration) => messenger.post('timeProgressChanged', { currentTime, duration })),
    attachVolumeMemory(parts),
    attachAudioMemory(parts),
    attachBinge(parts),
    // SPEC §3 episodeVariants: content id → the variant the viewer chose.
    parts.bus.on('content:variant-changed', ({ episode, variant }) =>
      writeStored(VARIANTS_KEY, { ...readMap(VARIANTS_KEY), [episode.contentId]: variant.id }),
    ),
  ];
  return () => offs.forEach((off) => off());
}
