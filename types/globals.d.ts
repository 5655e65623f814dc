declare module 'virtual:pieces' {
  /** The hash in each lazy piece's file name (NAME-HASH.js), written by build.mjs. */
  export const pieceFiles: Record<string, string>;
  /** The stylesheet of each lazy piece that has one. */
  export const pieceCss: Record<string, string>;
  /** The chunks (chunk-HASH.js) each piece imports that the HTML does not preload, by hash. */
  export const pieceChunks: Record<string, string[]>;
  /** The pieces src/core/pieces.json marks `preload`: the bootstrap downloads them at start. */
  export const preloadedPieces: string[];
}
declare module '*.css';
