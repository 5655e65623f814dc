// Lazy pieces: the loader. Their registry is pieces.json (build.mjs and size-limit read it too) and
// the contract of each piece's module is PieceModules in player-api.ts. The loader is handed to
// whoever needs it, so tests load fakes.
import { pieceChunks, pieceCss, pieceFiles } from 'virtual:pieces';
import type { PieceLoader, PieceModules, PieceName } from './player-api';

/**
 * Imports lazy pieces from the player-asset path with ?widget=NAME (SPEC §2), once per name for every
 * caller (a failed load may be tried again). The URL must be the exact one the HTML preloads, query
 * included, or the browser downloads the module twice.
 */
export function createPieceLoader(assetBase: string, importModule = (url: string) => import(url)): PieceLoader {
  const loads = new Map<string, Promise<unknown>>();
  const link = (rel: string, href: string) => {
    const l = document.createElement('link');
    l.rel = rel;
    l.href = assetBase + href;
    document.head.appendChild(l);
    return l;
  };
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
