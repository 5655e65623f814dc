// Lazy pieces: the loader. Their registry is pieces.json (build.mjs and size-limit read it too) and
// the contract of each piece's module is PieceModules in player-api.ts. The loader is handed to
// whoever needs it, so tests load fakes.
import { pieceChunks, pieceCss, pieceFiles, preloadedPieces } from 'virtual:pieces';
import type { PieceLoader, PieceModules, PieceName } from './player-api';

const linkTo = (rel: string, href: string, as?: string) => {
  const l = document.createElement('link');
  l.rel = rel;
  l.href = href;
  if (as) l.as = as;
  document.head.appendChild(l);
  return l;
};

/**
 * A piece's files: the chunks it imports, its module under the one URL both the preload and the
 * import use (?widget=NAME, SPEC §2; another URL, query included, and the browser downloads it
 * twice), and its stylesheet.
 */
const filesOf = (assetBase: string, name: PieceName) => ({
  chunks: (pieceChunks[name] ?? []).map((chunk) => `${assetBase}chunk-${chunk}.js`),
  module: `${assetBase}${name}-${pieceFiles[name]}.js?widget=${name}`,
  css: pieceCss[name] && assetBase + pieceCss[name],
});

/**
 * Downloads the pieces pieces.json marks `preload` (hls.js) without running them: their chunks, their
 * module, their stylesheet. The bootstrap's, once the requests the first frame waits for longer are
 * out: HTTP/1.1 hands connections out in the order asked.
 */
export function preloadPieces(assetBase: string): void {
  for (const name of preloadedPieces as PieceName[]) {
    const files = filesOf(assetBase, name);
    for (const chunk of files.chunks) linkTo('modulepreload', chunk);
    linkTo('modulepreload', files.module);
    if (files.css) linkTo('preload', files.css, 'style');
  }
}

/** Imports lazy pieces, once per name for every caller (a failed load may be tried again). */
export function createPieceLoader(assetBase: string, importModule = (url: string) => import(url)): PieceLoader {
  const loads = new Map<string, Promise<unknown>>();
  const importPiece = (name: PieceName): Promise<unknown> => {
    const files = filesOf(assetBase, name);
    // The chunks it imports download with it, not one round trip later once it has arrived.
    for (const chunk of files.chunks) linkTo('modulepreload', chunk);
    const mod = importModule(files.module);
    const css = files.css;
    if (!css) return mod;
    // Its stylesheet first, so the piece never shows unstyled; a failed sheet does not block it.
    const sheet = new Promise((done) => {
      const l = linkTo('stylesheet', css);
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
