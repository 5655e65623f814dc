import { openMemory } from '../storage/memory';
import { parentOrigin } from './envelope';
import { moveRecordTo } from '../storage/remember';

/** What the viewer clicks to start: the big play button, the bar's, the resume prompt's two. */
const STARTS = '.pl-big-play, [data-action="play"], .pl-resume button';

/**
 * The frame is of another site than its parent's, as far as it can tell: not an opaque origin (a
 * frame sandboxed without allow-same-origin, where the browser refuses the request with an error),
 * nor the parent's own host (storage is the frame's own there). The parent's origin comes from
 * ancestorOrigins, else the referrer (Firefox).
 */
function acrossSites(win: Window): boolean {
  const own = win.location;
  if (!own || win.origin === 'null') return false;
  const parent = parentOrigin({ ancestorOrigins: own.ancestorOrigins, referrer: win.document.referrer });
  try {
    return !parent || new URL(parent).hostname !== own.hostname;
  } catch {
    return true;
  }
}

type AccessDocument = Document & {
  /** Chromium: `{ localStorage: true }` asks for unpartitioned localStorage too, given in the handle. */
  requestStorageAccess?(types?: { localStorage: boolean }): Promise<{ localStorage?: Storage } | undefined>;
};

/**
 * The Storage Access API, asked once, within the viewer's first click on Play or on the resume
 * prompt, in a frame whose page is of another site (acrossSites): only the viewer's own click may cause the
 * browser's prompt, and asked later the browser refuses it for want of a gesture. Only where the
 * frame's own storage is blocked (Chromium's cross-site frames). If access comes with a storage, the
 * page's record is copied into it, which keeps every later change too. What each engine does here is
 * in docs/embedding.md "What the viewer's browser remembers".
 */
export function attachStorageAccess(win: Window = window): () => void {
  const doc = win.document as AccessDocument;
  if (typeof doc.requestStorageAccess !== 'function' || win.parent === win || !acrossSites(win)) return () => {};
  const onClick = (e: Event) => {
    if (!e.isTrusted || !(e.target as Element | null)?.closest?.(STARTS)) return;
    off();
    // The frame's own localStorage works (partitioned, as Firefox and WebKit keep it): a grant there
    // opens unpartitioned cookies only, and in Firefox costs the viewer a prompt for nothing.
    if (openMemory().backend === 'local') return;
    // Called in the click's own task: WebKit honours the gesture only there.
    doc
      .requestStorageAccess!({ localStorage: true })
      .then((handle) => {
        // Chromium's handle; reading it throws where the browser still keeps it partitioned or blocked.
        const storage = handle?.localStorage;
        if (storage && moveRecordTo(storage)) console.info('[player] storage access granted: the memory is kept there too');
      })
      .catch((err: unknown) => console.info('[player] storage access not granted', err));
  };
  const off = () => doc.removeEventListener('click', onClick, true);
  doc.addEventListener('click', onClick, true);
  return off;
}
