// Lazy pieces: the loader. Their registry is pieces.json (build.mjs and size-limit read it too) and
// the contract of each piece's module is PieceModules in player-api.ts. The loader is handed to
// whoever needs it, so tests load fakes.
import { pieceChunks, pieceCss, pieceFiles, preloadedPieces } from 'virtual:pieces';
import type { PieceLoader, PieceModules, PieceName } from './player-api';

/**
 * Imports lazy pieces from the player-asset path with ?widget=NAME (SPEC §2), once per name for every
 * caller (a failed load may be tried again). The URL must be the exact one preloadPieces preloads, query
 * included, or the browser downloads the module twice.
 */
const linkTo = (rel: string, href: string, as?: string) => {
  const l = document.createElement('link');
  l.rel = rel;
  l.href = href;
  if (as) l.as = as;
  document.head.appendChild(l);
  return l;
};

/**
 * Downloads the pieces pieces.json marks `preload` (hls.js) without running them: their chunks, their
 * module under the very URL the loader imports (or the browser fetches it twice), their stylesheet.
 * The bootstrap's, once the requests the first frame waits for longer are out: HTTP/1.1 hands
 * connections out in the order asked.
 */
export function preloadPieces(assetBase: string): void {
  for (const name of preloadedPieces as PieceName[]) {
    for (const chunk of pieceChunks[name] ?? []) linkTo('modulepreload', `${assetBase}chunk-${chunk}.js`);
    linkTo('modulepreload', `${assetBase}${name}-${pieceFiles[name]}.js?widget=${name}`);
    const css = pieceCss[name];
    if (css) linkTo('preload', assetBase + css, 'style');
  }
}

export function createPieceLoader(assetBase: string, importModule = (url: string) => import(url)): PieceLoader {
  const loads = new Map<string, Promise<unknown>>();
  const link = (rel: string, href: string) => linkTo(rel, assetBase + href);
  const importPiece = (name: PieceName): Promise<unknown> => {
    // The chunks it imports download with it, not one round trip later once it has arrived.
    for (const chunk of pieceChunks[name] ?? []) link('modulepreload', `chunk-${chunk}.js`);
    const mod = importModule(`${assetBase}${name}-${pieceFiles[name]}.js?widget=${name}`);
    const css = pieceCss[name];
    if (!css) return mod;
    // Its stylesheet first, so the piece never shows unstyled; a failed sheet does not block it.
    const sheet = new Promise((done) => {
      const l = link('stylesheet', css);
      l.onload = l.onerror = done;
    });
    return Promise.all([mod, sheet]).then(([m]) => m);
  };
  return <K extends PieceName>(name: K) => {
    let p = loads.get(name);
    if (!p) {
      p = importPiece(name);
      p.catch(() => loads.delete(name));
      loads.set(name, p);
    }
    return p as Promise<PieceModules[K]>;
  };
}
