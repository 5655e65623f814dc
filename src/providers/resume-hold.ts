import type { Fragment } from 'hls.js';
import type { Policy } from '../playback/policy';
import { ahead } from './policy-abr';

/** The rate of the fragments on their way is read over the last RATE_WINDOW_MS (the link coming back shows within it); under MIN_WINDOW_MS of samples, the policy's estimate. */
const RATE_WINDOW_MS = 2000;
const MIN_WINDOW_MS = 500;
const TICK_MS = 250;

/**
 * The bytes a fragment lacks: of its Content-Length once known, else of the one before it of its kind
 * at its level's rate (a scene's fragments weigh alike; `bitrate` of a level index, 0 where unknown);
 * once it is in, its next one's (`more`: the film goes on), else 0.
 */
export function leftOf(frag: Fragment | undefined, before: Fragment | undefined, bitrate: (level: number) => number, more = false): number {
  const stats = frag?.stats;
  if (!stats) return 0;
  // In (or dropped) and the film goes on (`more`): its next is still to come, about its size; canplay
  // can come before hls.js asks for it, and nothing on its way would mean no hold and another stop.
  if (stats.loading.end > 0 || stats.aborted) return more ? (stats.aborted ? before : frag)?.stats.total || 0 : 0;
  if (stats.total > 0) return Math.max(0, stats.total - stats.loaded);
  const last = before ? before.stats.total || before.stats.loaded : 0;
  const scale = before && bitrate(before.level) > 0 ? bitrate(frag!.level) / bitrate(before.level) : 1;
  return Math.max(0, last * (scale > 0 ? scale : 1) - stats.loaded);
}

export interface ResumeHold {
  /** A video or audio fragment began to load (hls.js's FRAG_LOADING). */
  loading(frag: Fragment): void;
  /** The element can play again (canplay, playing): whether it is held (its rate at 0, the stall's spinner kept). */
  holds(): boolean;
  stop(): void;
}

/**
 * The hold after a stall, as the element sees it: whether to hold is the playback policy's decision
 * (`Policy.mayPlay`, src/playback/policy.ts), told the stall, the seconds buffered, the bytes the video
 * and audio fragments on their way still lack and the rate they arrive at. It is held at playbackRate
 * 0: not paused (no pause for the viewer, the SDK or autoplay to see), not advancing. `released(true)`
 * when it plays again; `released(false)` when the viewer paused meanwhile. A seek ends it quietly (the
 * seek has its own wait), as does another source. No policy yet (no levels): no hold.
 */
export function resumeHold(video: HTMLVideoElement, policy: () => Policy | undefined, bitrate: (level: number) => number, released: (playing: boolean) => void): ResumeHold {
  // By kind (main, audio): the fragment loading, the one before it, and the bytes of those before.
  const loads = new Map<string, { frag: Fragment; before?: Fragment; done: number }>();
  // The film has moved on since its source or the last seek (`at`: where it stood at the last
  // timeupdate): a 'waiting' then is a stall, not a start's or a seek's wait.
  let moved = false;
  let at = NaN;
  let stalledAt = 0;
  let heldAt = 0;
  let rate = 1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const samples: Array<[number, number]> = [];

  const bytesIn = () => [...loads.values()].reduce((sum, l) => sum + l.done + l.frag.stats.loaded, 0);
  // The film goes on past what is buffered (a second to spare for a short last fragment).
  const more = () => !(video.currentTime + ahead(video) >= video.duration - 1);
  const leftBytes = () => [...loads].reduce((sum, [kind, l]) => sum + leftOf(l.frag, l.before, kind === 'main' ? bitrate : () => 0, more()), 0);
  const bitsPerS = (now: number) => {
    const [t, bytes] = samples[0] ?? [now, 0];
    return now - t >= MIN_WINDOW_MS ? ((bytesIn() - bytes) * 8000) / (now - t) : undefined;
  };
  const quiet = () => {
    clearTimeout(timer);
    timer = undefined;
    samples.length = 0;
    stalledAt = 0;
  };
  const release = (restore: boolean, playing?: boolean) => {
    const held = heldAt > 0;
    heldAt = 0;
    quiet();
    if (!held) return;
    if (restore) video.playbackRate = rate;
    if (playing !== undefined) released(playing);
  };
  const restart = () => {
    moved = false;
    at = NaN;
    release(true);
  };
  const tick = () => {
    const now = performance.now();
    samples.push([now, bytesIn()]);
    while (samples.length > 1 && now - samples[1]![0] >= RATE_WINDOW_MS) samples.shift();
    timer = setTimeout(tick, TICK_MS);
    if (heldAt && !held(now)) release(true, true);
  };
  const held = (now: number) => {
    const p = policy();
    return !!p && !p.mayPlay({ t: now, bufferS: ahead(video), leftBits: 8 * leftBytes(), bitsPerS: bitsPerS(now) });
  };

  const on: Record<string, () => void> = {
    waiting: () => {
      if (!moved || video.paused || video.seeking || stalledAt || heldAt) return;
      stalledAt = performance.now();
      policy()?.media({ t: stalledAt, event: 'stall' });
      tick();
    },
    timeupdate: () => {
      const now = video.currentTime;
      if (!video.seeking && !video.paused && now > at) {
        moved = true;
        policy()?.media({ t: performance.now(), event: 'playing' });
        // Playing on without an event the hold was asked at: the stall is over.
        if (!heldAt) quiet();
      }
      at = now;
    },
    seeking: () => {
      policy()?.media({ t: performance.now(), event: 'seeking' });
      restart();
    },
    emptied: () => restart(),
    pause: () => release(true, false),
    // A speed the viewer chose while held: it plays at that speed now.
    ratechange: () => void (heldAt && video.playbackRate > 0 && release(false, true)),
  };
  for (const [name, fn] of Object.entries(on)) video.addEventListener(name, fn);

  return {
    loading(frag) {
      const last = loads.get(frag.type);
      loads.set(frag.type, { frag, before: last?.frag, done: last ? last.done + last.frag.stats.loaded : 0 });
    },
    holds() {
      if (heldAt) return true;
      if (!stalledAt || video.paused) return false;
      const now = performance.now();
      heldAt = now;
      if (!held(now)) {
        heldAt = 0;
        quiet();
        return false;
      }
      rate = video.playbackRate;
      video.playbackRate = 0;
      return true;
    },
    stop() {
      release(true);
      for (const [name, fn] of Object.entries(on)) video.removeEventListener(name, fn);
    },
  };
}
