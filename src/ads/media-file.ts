import { AdErrors } from './ad-error';
import type { MediaFile } from './vast-parse';

export const isVpaid = (f: MediaFile) => /^vpaid$/i.test(f.apiFramework ?? '') && /javascript/i.test(f.type);

/**
 * SPEC §5: the first media file whose type the video element can play (a VPAID 2.0 script counts:
 * the bridge runs it). No valid file at all is 401, valid ones that cannot play are 403.
 */
export function pickMediaFile(files: MediaFile[], canPlay: (type: string) => boolean): MediaFile {
  if (!files.length) throw AdErrors.noMedia;
  const f = files.find((file) => isVpaid(file) || (!file.apiFramework && canPlay(file.type)));
  if (!f) throw AdErrors.unsupported;
  return f;
}
