import { AdErrors } from './ad-error';
import type { MediaFile } from './vast-parse';

export const isVpaid = (f: MediaFile) => /^vpaid$/i.test(f.apiFramework ?? '') && /javascript/i.test(f.type);

/** The player's size in CSS pixels and the measured bandwidth in kbps (0: not known). */
export interface MediaTarget {
  width: number;
  height: number;
  kbps: number;
}

/**
 * SPEC §5 with IMA's habit: among the files the video element can play (a VPAID 2.0 script counts:
 * the bridge runs it; another apiFramework on a video file does not matter), those whose bitrate the
 * bandwidth carries come first, then the one whose size is closest to the player's; the document's
 * order breaks ties. No valid file at all is 401, valid ones that cannot play are 403.
 */
export function pickMediaFile(files: MediaFile[], canPlay: (type: string) => boolean, target?: MediaTarget): MediaFile {
  if (!files.length) throw AdErrors.noMedia;
  const playable = files.filter((f) => isVpaid(f) || (!/javascript/i.test(f.type) && canPlay(f.type)));
  if (!playable.length) throw AdErrors.unsupported;
  if (!target) return playable[0];
  const area = Math.max(1, target.width * target.height);
  const tooFast = (f: MediaFile) => (target.kbps > 0 && (f.bitrate ?? 0) > target.kbps ? 1 : 0);
  // Size distance as a ratio: twice too large is as far as half too small.
  const far = (f: MediaFile) => Math.abs(Math.log(Math.max(1, f.width * f.height) / area));
  // A file the bandwidth cannot carry loses to any that it can; among those, the lightest wins.
  const score = (f: MediaFile) => (tooFast(f) ? 1e6 + (f.bitrate ?? 0) : far(f));
  return playable.reduce((best, f) => (score(f) < score(best) - 1e-9 ? f : best));
}
