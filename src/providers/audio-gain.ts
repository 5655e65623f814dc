// Lazy widget "audio-gain": Web Audio gain plus a down-mix to stereo for multichannel audio
// (SPEC §4, §9). Loaded on the first gain choice only.

/** Web Audio, which the gain needs (older Safari names it webkitAudioContext). */
export const audioContextClass = (): typeof AudioContext | undefined =>
  typeof window === 'undefined'
    ? undefined
    : window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;

/**
 * Routes the element through a gain node. A media element can be routed only once, so the graph
 * lives as long as the element. A node with an explicit stereo channel count down-mixes 5.1 by the
 * standard speaker rules.
 */
export function createAudioGain(video: HTMLMediaElement): { set(gain: number): void } | undefined {
  const Ctx = audioContextClass();
  if (!Ctx) return void console.warn('[player] audio gain api not available');
  const ctx = new Ctx();
  const source = ctx.createMediaElementSource(video);
  const gain = ctx.createGain();
  gain.channelCount = 2;
  gain.channelCountMode = 'explicit';
  gain.channelInterpretation = 'speakers';
  source.connect(gain).connect(ctx.destination);
  return {
    set(value) {
      gain.gain.value = value;
      if (ctx.state === 'suspended') void ctx.resume();
    },
  };
}
