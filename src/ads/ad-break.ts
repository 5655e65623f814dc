import type { AdHistoryItem } from '../core/bus';
import { AdErrors, isAdError } from './ad-error';
import { type Outcome, type PodPlace, type SessionContext, playAd } from './ad-session';
import { type MediaTarget, rankMediaFiles } from './media-file';
import { createPixels } from './pixels';
import { type FetchText, loadVast, resolveAd } from './vast-load';
import type { VastDoc, VastFailure } from './vast-parse';

type AdType = AdHistoryItem['type'];

const canPlayType = (type: string) => {
  try {
    return document.createElement('video').canPlayType(type);
  } catch {
    return '';
  }
};

/** The player's size and the browser's bandwidth estimate, for the media file choice. */
function mediaTarget(root: HTMLElement | null): MediaTarget {
  const downlink = (navigator as { connection?: { downlink?: number } }).connection?.downlink;
  return {
    width: root?.clientWidth || globalThis.innerWidth || 640,
    height: root?.clientHeight || globalThis.innerHeight || 360,
    kbps: typeof downlink === 'number' && downlink > 0 ? downlink * 1000 : 0,
  };
}

/**
 * Ad breaks (SPEC §4): the tags of a break in turn, each tag's ads (a pod, a buffet), each ad's
 * media files in turn. Whatever happens, a break ends with the ad loader 'stopped' unless the
 * runner was destroyed (`life`).
 */
export function createBreaks(ctx: SessionContext, fetchText: FetchText, root: () => HTMLElement | null, life: AbortSignal) {
  const { store, bus, report } = ctx;
  let position = 0;
  let breakCtl: AbortController | undefined;

  async function run(type: AdType, tags: string[]): Promise<void> {
    if (!tags.length) return;
    const ctl = (breakCtl = new AbortController());
    store.adState.value = 'load';
    bus.emit('ad:init', { type });
    for (const tag of tags) {
      if (ctl.signal.aborted || store.error.peek()) break;
      const outcome = await playTag(type, tag, ctl.signal);
      // SPEC §4: skipped or completed moves on to the next tag; stop and error end all ads. A tag
      // that fails to load is skipped over (a waterfall), after its error pixel fired.
      if (outcome === 'stopped' || outcome === 'error') break;
    }
    if (breakCtl !== ctl) return;
    breakCtl = undefined;
    ctx.shown.value = false;
    if (!life.aborted) store.adState.value = 'stopped';
  }

  /** A VAST that failed to load or resolve: its code to the Error URLs it names, unless the break stopped. */
  function loadFailed(err: unknown, abort: AbortSignal): Outcome {
    if (abort.aborted) return 'stopped';
    const f = err as VastFailure;
    report(isAdError(f) ? f : AdErrors.unknown, f?.errorUrls ?? []);
    return 'load-error';
  }

  /**
   * One tag of the break: a single ad, a pod (ads with `sequence`, in order) or a buffet. A pod ad
   * or the single ad that fails before it shows (wrapper, no linear, media) is replaced by the next
   * stand-alone ad of the answer, as IMA does; a pod ad without a replacement is left out.
   */
  async function playTag(type: AdType, tag: string, abort: AbortSignal): Promise<Outcome> {
    store.adState.value = 'load';
    let res;
    try {
      res = await loadVast(tag, abort, fetchText);
    } catch (err) {
      return loadFailed(err, abort);
    }
    const pod = res.ads.filter((a) => a.sequence !== undefined).sort((a, b) => a.sequence! - b.sequence!);
    const buffet = res.ads.filter((a) => a.sequence === undefined);
    const slots = pod.length ? pod : buffet.splice(0, 1);
    let outcome: Outcome = 'load-error';
    for (let i = 0; i < slots.length; i++) {
      for (let ad: VastDoc | undefined = slots[i]; ad; ad = buffet.shift()) {
        if (abort.aborted || store.error.peek()) return 'stopped';
        outcome = await playOne(type, tag, ad, abort, { index: i + 1, size: slots.length });
        if (outcome !== 'load-error') break;
      }
      if (outcome === 'stopped' || outcome === 'error') break;
    }
    return outcome;
  }

  /** One ad: its media files in turn until one loads; only the last one's failure is reported. */
  async function playOne(type: AdType, tag: string, ad: VastDoc, abort: AbortSignal, pod: PodPlace): Promise<Outcome> {
    store.adState.value = 'load';
    let vast;
    try {
      vast = await resolveAd(ad, abort, fetchText);
    } catch (err) {
      return loadFailed(err, abort);
    }
    const pixels = createPixels(vast.pixels);
    let files;
    try {
      files = rankMediaFiles(vast.doc.mediaFiles, canPlayType, mediaTarget(root()));
    } catch (err) {
      const e = isAdError(err) ? err : AdErrors.unknown;
      pixels.error(e.code);
      report(e, []);
      return 'load-error';
    }
    const duration = store.duration.peek();
    const item: AdHistoryItem = {
      id: vast.doc.adId || tag,
      type,
      position: ++position,
      duration: vast.doc.duration ?? 0,
      perc: duration > 0 ? Math.round((store.currentTime.peek() / duration) * 100) : 0,
    };
    let outcome: Outcome = 'error';
    for (const [i, file] of files.entries()) {
      outcome = await playAd(ctx, { item, pixels, file, doc: vast.doc, abort, pod, lastFile: i === files.length - 1 });
      if (outcome !== 'next-file') break;
    }
    return outcome;
  }

  return {
    run,
    /** A break is loading or playing. */
    active: () => !!breakCtl,
    /** Ends the current break's loading and playing (the runner ends the ad on screen). */
    abort: () => breakCtl?.abort(),
  };
}
