// Lazy piece "features": behaviour on bus events, each attach(parts) => dispose. Preloaded by the
// HTML and never waited for; it needs nothing of the interface, so a failed controls piece costs no
// saved progress, no binge and no parent message.
import type { PlayerParts } from '../core/player-api';
import { attachAudioMemory } from './audio-memory';
import { attachBinge } from './binge';
import { attachMessenger } from './messenger';
import { attachPartnerMemory } from './partner-memory';
import { attachProgressMemory } from './progress-memory';
import { attachStartMemory } from './start-memory';
import { attachStorageAccess } from './storage-access';
import { attachSubtitleStyleMemory } from './subtitle-style-memory';
import { attachVariantMemory } from './variant-memory';
import { attachVolumeMemory } from './volume-memory';

export function attachFeatures(parts: PlayerParts): () => void {
  const messenger = attachMessenger(parts);
  const offs = [
    () => messenger.dispose(),
    attachProgressMemory(parts, (currentTime, duration) => messenger.post('timeProgressChanged', { currentTime, duration })),
    attachVolumeMemory(parts),
    attachAudioMemory(parts),
    attachVariantMemory(parts),
    attachSubtitleStyleMemory(parts),
    attachStartMemory(parts),
    attachBinge(parts),
    attachPartnerMemory(parts),
    attachStorageAccess(),
  ];
  return () => offs.forEach((off) => off());
}
