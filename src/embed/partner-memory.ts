// Partner memory (docs/embedding.md "Partner memory"): the partner's page keeps the viewer's memory in its
// own first-party storage, under one key, hands it to the frame in the frame's address and keeps it current
// from the frame's messages. Where the browser blocks the frame's own storage, that record is what the
// player remembers with. Shared by createPlayer({ memory: 'partner' }) and the plain-iframe helper.
import { readMessage } from '../core/embed-protocol';
import { MEMORY_HASH, MEMORY_MESSAGE, PARTNER_BYTES, PARTNER_KEY, capRecord, mergeRecords, parseRecord, type MemoryRecord } from '../core/memory-protocol';
import type { partnerMemory as PartnerMemory } from './embed';

const warn = (...what: unknown[]) => console.warn('[embed] partner memory:', ...what);

/**
 * The record on the partner's page; none when storage throws (blocked, sandboxed: a failed write says
 * so, once) or holds no JSON object.
 */
function stored(): MemoryRecord | undefined {
  let text: string | null = null;
  try {
    text = localStorage.getItem(PARTNER_KEY);
  } catch {}
  const record = parseRecord(text);
  if (text && !record) warn('the stored record is malformed, ignored');
  return record;
}

/**
 * `src` with the stored record, capped, as its fragment (`#memory=<encodeURIComponent(JSON)>`), `{}`
 * when there is none: the fragment's presence is what tells the frame to use the partner's record.
 * A fragment `src` already had is replaced.
 */
export function withMemory(src: string): string {
  const record = stored();
  let json = '{}';
  try {
    // Whatever the page stored, the frame gets made: a record too deep to serialise counts as none.
    if (record) json = JSON.stringify(capRecord(record));
  } catch {}
  return `${src.split('#')[0]}#${MEMORY_HASH}=${encodeURIComponent(json)}`;
}

/**
 * Stores each record the frame posts (an `embed-player` envelope of type MEMORY_MESSAGE) merged into
 * the stored one: only from `origin` and from the window of `frame()` (not another player's frame on
 * the same page), payload a JSON object of at most 2 × PARTNER_BYTES. Merging keeps each episode's
 * newest progress, so two tabs of the partner's site writing in turn lose neither's latest place.
 * Returns the function that stops listening.
 */
export function listenMemory(frame: () => { contentWindow: Window | null } | null, origin: string): () => void {
  let failed = false;
  const onMessage = (e: MessageEvent) => {
    const win = frame()?.contentWindow;
    if (!win || e.source !== win || e.origin !== origin) return;
    const m = readMessage(e.data);
    if (m?.type !== MEMORY_MESSAGE) return;
    const p = m.payload;
    let incoming: MemoryRecord | undefined;
    try {
      const json = p && typeof p === 'object' && !Array.isArray(p) ? JSON.stringify(p) : '';
      // Parsed again from its JSON: a plain copy, nothing of the sender's object is read twice.
      incoming = json.length <= 2 * PARTNER_BYTES ? parseRecord(json) : undefined;
    } catch {}
    if (!incoming) return warn('a record from the player is not a JSON object or too large, ignored');
    try {
      localStorage.setItem(PARTNER_KEY, JSON.stringify(capRecord(mergeRecords(stored() ?? {}, incoming))));
    } catch (err) {
      // A full or blocked storage fails every save alike: once is enough to say so.
      if (!failed) warn('the record could not be stored', err);
      failed = true;
    }
  };
  addEventListener('message', onMessage);
  return () => removeEventListener('message', onMessage);
}

/** The plain-iframe helper: points `iframe` at `src` with the partner's record and keeps the record current. */
export const partnerMemory: typeof PartnerMemory = (iframe, src) => {
  const url = new URL(src, document.baseURI).href;
  const stop = listenMemory(() => iframe, new URL(url).origin);
  iframe.src = withMemory(url);
  return stop;
};
