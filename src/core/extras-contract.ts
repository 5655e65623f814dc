// What the lazy pieces `extras` and `cues` hand the media: picture-in-picture, cast, AirPlay, audio
// gain and the descriptor's subtitle files, none of which the first frame needs.

export interface CueBinding {
  /** Shows one of the descriptor's files (an external track id) or none (-1). */
  showExternal(id: number, subs: Array<{ label: string; src: string; language: string }>): void;
  /** A new source: the old files go. */
  reset(): void;
  dispose(): void;
}

export interface Extras {
  /** Shows one of the descriptor's subtitle files (an external track id) or none (-1). */
  showSubtitles(id: number): void;
  /** A new source: the old subtitle files go. */
  resetSubtitles(): void;
  /** Audio gain (1 = untouched), through the lazy `audio-gain` piece. */
  setGain(gain: number): void;
  togglePip(): void;
  /** Picture-in-picture back to the content from an ad that held it. */
  takePip(): Promise<void>;
  /** false: the browser offers no cast. */
  cast(): Promise<boolean>;
  airplay(): void;
  dispose(): void;
}
