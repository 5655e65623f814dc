// The partner SDK protocol (docs/embedding.md "Partner SDK"), shared by the player (features/remote.ts) and the
// SDK (embed/): pure constants and a reader that never throws. It imports nothing, so the SDK bundle
// takes nothing of the player with it.

export const PROTOCOL = 'embed-player';
export const PROTOCOL_VERSION = 1;

/** What the SDK may call; getters answer at once, commands when the player confirms them. */
export const METHODS = [
  'play',
  'pause',
  'seek',
  'setVolume',
  'mute',
  'unmute',
  'selectEpisode',
  'getCurrentTime',
  'getDuration',
  'getPaused',
  'getVolume',
  'getMuted',
  'getEpisode',
  'getQualities',
  'setQuality',
  'getAudioTracks',
  'setAudioTrack',
  'getSubtitles',
  'setSubtitles',
  'getPlaybackRate',
  'setPlaybackRate',
  'getSeasons',
  'getEpisodes',
] as const;

/** Events the player streams to an SDK that said hello (the SPEC's own messages come as they always did). */
export const EVENTS = [
  'play',
  'pause',
  'ended',
  'timeupdate',
  'volumechange',
  'qualityChanged',
  'audioTrackChanged',
  'subtitlesChanged',
  'playbackRateChanged',
  'adStart',
  'adSkipped',
  'adClick',
  'adEnd',
  'error',
  'introSkipped',
  'creditsReached',
] as const;

/** A request's failure, as the SDK's promise rejects with it. */
export interface RemoteError {
  code: string;
  message: string;
}

export const fail = (code: string, message: string): RemoteError => ({ code, message });

/** One message of either direction, read: only the fields the protocol knows, each of the right type. */
export interface Message {
  type: string;
  /** Request and reply id (a positive integer). */
  id?: number;
  method?: string;
  params?: unknown;
  payload?: unknown;
}

const MAX_TEXT = 64 * 1024;

/**
 * An envelope of ours (`protocol`, `version`, a string `type`) or undefined: anything else, oversized
 * JSON, objects whose getters throw and ids that are not small positive integers are ignored.
 */
export function readMessage(data: unknown): Message | undefined {
  try {
    let value = data;
    if (typeof value === 'string') {
      if (value.length > MAX_TEXT || value[0] !== '{') return undefined;
      value = JSON.parse(value);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const m = value as Record<string, unknown>;
    if (m.protocol !== PROTOCOL || m.version !== PROTOCOL_VERSION || typeof m.type !== 'string') return undefined;
    const id = m.id;
    const message: Message = { type: m.type, payload: m.payload, params: m.params };
    if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) message.id = id;
    if (typeof m.method === 'string') message.method = m.method;
    return message;
  } catch {
    return undefined;
  }
}
