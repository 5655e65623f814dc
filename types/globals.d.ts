declare module 'virtual:pieces' {
  /** Hashed file name of each lazy piece, written by build.mjs. */
  export const pieceFiles: Record<string, string>;
  /** The stylesheet of each lazy piece that has one. */
  export const pieceCss: Record<string, string>;
}
declare module '*.css';
