import { MEMORY_MESSAGE, capRecord } from '../core/memory-protocol';
import type { PlayerParts } from '../core/player-api';
import { openMemory } from '../storage/memory';
import { shareRecord } from '../storage/remember';
import { envelope, parentOrigin } from './envelope';

/**
 * The partner's store (SDK `memory: 'partner'`, docs/embedding.md "Partner memory"): after every change
 * the whole record, capped, goes to the parent, and only to its own origin: a page whose origin the
 * browser does not tell gets nothing (a record is the viewer's, never posted to '*'). Changes made in
 * one task go as one message, even while the page is going away (a microtask still runs in pagehide).
 */
export function attachPartnerMemory({ config }: Pick<PlayerParts, 'config'>, win: Window = window): () => void {
  if (!openMemory().partner) return () => {};
  const parent = win.parent;
  const origin = parentOrigin({ ancestorOrigins: win.location.ancestorOrigins, referrer: win.document.referrer });
  if (!parent || parent === win || !origin) {
    console.warn("[player] the partner keeps the viewer's memory, but its origin is unknown: nothing is sent to it");
    return () => {};
  }
  let queued = false;
  shareRecord((record) => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      try {
        parent.postMessage(envelope(MEMORY_MESSAGE, capRecord(record), config.movieId ?? null), origin);
      } catch (err) {
        console.warn('[player] the memory did not reach the partner', err);
      }
    });
  });
  return () => shareRecord(undefined);
}
