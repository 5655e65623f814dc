import { originOf } from '../config/embedding-address';
import { PROTOCOL, PROTOCOL_VERSION } from '../core/embed-protocol';
import type { MemoryRecord } from '../core/memory-protocol';

// The parent-page protocol (docs/embedding.md "Parent page messages"): one versioned envelope for everything the
// player posts, and a strict reader for what the parent sends.

/** SPEC §7 messages to the parent window, and the partner SDK's (docs/embedding.md "Partner SDK"). */
export interface OutgoingPayloads {
  enterFullScreen: Record<string, never>;
  exitFullScreen: Record<string, never>;
  timeProgressChanged: { currentTime: number; duration: number };
  episodeVariantChanged: { episodeVariant: unknown };
  episodeChanged: { episode: unknown };
  /** The player can take SDK requests (sent once, when the messenger starts). */
  ready: unknown;
  /** The answer to the request with the same `id`. */
  reply: unknown;
  /** An SDK event `{ name, data }`, only to a page that said hello. */
  event: unknown;
  /** The viewer's memory for the partner's store (features/partner-memory.ts), only to a known origin. */
  memory: MemoryRecord;
}

export interface Envelope<K extends keyof OutgoingPayloads = keyof OutgoingPayloads> {
  protocol: typeof PROTOCOL;
  version: typeof PROTOCOL_VERSION;
  type: K;
  /** The movie_id the player was opened with, so a page with several players can tell them apart. */
  contentId: number | null;
  /** A reply's request id. */
  id?: number;
  payload: OutgoingPayloads[K];
}

export function envelope<K extends keyof OutgoingPayloads>(
  type: K,
  payload: OutgoingPayloads[K],
  contentId: number | null,
  id?: number,
): Envelope<K> {
  const e: Envelope<K> = { protocol: PROTOCOL, version: PROTOCOL_VERSION, type, contentId, payload };
  if (id) e.id = id;
  return e;
}

export interface ParentCommand {
  actionType: 'pause';
}

const MAX_TEXT = 1024;

/**
 * A command from the parent, or undefined for anything else: bad JSON, unknown shapes, unknown
 * actions, oversized strings and objects whose fields throw are all ignored, never thrown.
 * Accepts the object itself or its JSON text, bare or inside our envelope.
 */
export function parseCommand(data: unknown): ParentCommand | undefined {
  let value = data;
  if (typeof value === 'string') {
    if (value.length > MAX_TEXT) return undefined;
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  try {
    const msg = value as { actionType?: unknown; protocol?: unknown };
    if (!Object.prototype.hasOwnProperty.call(msg, 'actionType')) return undefined;
    if (msg.protocol !== undefined && msg.protocol !== PROTOCOL) return undefined;
    return msg.actionType === 'pause' ? { actionType: 'pause' } : undefined;
  } catch {
    return undefined;
  }
}

/** Where to post: the embedding page's origin when the browser tells us, else undefined. */
export function parentOrigin(env: { ancestorOrigins?: ArrayLike<string>; referrer: string }): string | undefined {
  const ancestor = env.ancestorOrigins && env.ancestorOrigins.length ? env.ancestorOrigins[0] : undefined;
  return ancestor && ancestor !== 'null' ? ancestor : originOf(env.referrer);
}
