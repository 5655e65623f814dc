import { AdErrors } from './ad-error';
import type { MediaFile } from './vast-parse';

export const isVpaid = (f: MediaFile) => /^vpaid$/i.test(f.apiFramework ?? '') && /javascript/i.test(f.type);

/** The player's size in CSS pixels and the measured bandwidth in kbps (0: not known). */
export interface MediaTarget {
  width: number;
  height: number;
  kbps: number;
}

/** HTMLMediaElement.canPlayType's answer: '', 'maybe' or 'probably'. */
export type CanPlay = (type: string) => string;


/** Containers every engine that says 'maybe' to them does play (the answer for a type without codecs). */
const WEB_VIDEO = /^video\/(mp4|webm|ogg|x-m4v)$/i;

/**
 * How much the engine's answer is worth: 0 for a VPAID script (the bridge runs it) or 'probably',
 * 1 for 'maybe' to MP4/WebM/Ogg, 2 for any other 'maybe' (WebKit says it to FLV and cannot play it),
 * undefined for a file it cannot play at all.
 */
function confidence(f: MediaFile, canPlay: CanPlay): number | undefined {
  if (isVpaid(f)) return 0;
  if (/javascript/i.test(f.type)) return undefined;
  // The codecs may only raise the answer: ad servers write them loosely ('H.264'), and a file whose
  // codec the engine lacks fails to load and is followed by the next one anyway.
  const answer = (f.codec && canPlay(`${f.type}; codecs="${f.codec}"`)) || canPlay(f.type);
  if (answer === 'probably') return 0;
  if (answer === 'maybe') return WEB_VIDEO.test(f.type) ? 1 : 2;
  return undefined;
}

/**
 * SPEC §5 with IMA's habit, every file worth a try in the order to try them (the next one when a file
 * fails to load): a type only guessed at ('maybe' to FLV) after every web video type, then the files
 * whose bitrate the bandwidth carries, then the size closest to the player's, then 'probably' before
 * 'maybe', the document's order last. No valid file at all is 401, valid ones none can play are 403.
 */
export function rankMediaFiles(files: MediaFile[], canPlay: CanPlay, target?: MediaTarget): MediaFile[] {
  if (!files.length) throw AdErrors.noMedia;
  const candidates = files.flatMap((file, index) => {
    const c = confidence(file, canPlay);
    return c === undefined ? [] : [{ file, index, c }];
  });
  if (!candidates.length) throw AdErrors.unsupported;
  const area = target ? Math.max(1, target.width * target.height) : 1;
  const tooFast = (f: MediaFile) => (target && target.kbps > 0 && (f.bitrate ?? 0) > target.kbps ? 1 : 0);
  // Size distance as a ratio: twice too large is as far as half too small. A file the bandwidth
  // cannot carry loses to any that it can; among those, the lightest wins.
  const fit = (f: MediaFile) => (!target ? 0 : tooFast(f) ? 1e6 + (f.bitrate ?? 0) : Math.abs(Math.log(Math.max(1, f.width * f.height) / area)));
  const key = (x: (typeof candidates)[number]) => [Math.max(x.c, 1), fit(x.file), x.c, x.index];
  const before = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > 1e-9) return a[i] - b[i];
    return 0;
  };
  return candidates.sort((a, b) => before(key(a), key(b))).map((x) => x.file);
}
