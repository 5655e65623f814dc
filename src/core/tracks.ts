// What the media offers to choose from (SPEC §3 "Stream data"), in provider-neutral shapes.

export interface QualityLevel {
  /** Index in the engine's level list. */
  id: number;
  width: number;
  height: number;
  bitrate: number;
  codec: string;
}

export interface MediaTrack {
  /** Index in the engine's track list. */
  id: number;
  label: string;
  language: string;
  /** Audio codec or channel hint when known ('ac-3', 'ec-3', '6'...), for SPEC §4's AC3 rule. */
  codec?: string;
  isDefault?: boolean;
}

/** Text track ids from here on are the descriptor's own subtitle files (native <track>, SPEC §3). */
export const EXTERNAL_TRACK_BASE = 1000;

/** SPEC §9: speed options 0.25 to 2 in steps of 0.25. */
export const RATES = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2];
