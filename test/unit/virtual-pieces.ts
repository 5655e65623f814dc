// Stands in for the build's `virtual:pieces` module under tsx (tsconfig paths); the build's own
// plugin resolves it first, so this file never reaches the bundle. Unit tests load pieces through
// fakes handed to the player; only test/unit/core/pieces.test.ts fills these in, to test the loader.
export const pieceFiles: Record<string, string> = {};
export const pieceCss: Record<string, string> = {};
export const pieceChunks: Record<string, string[]> = {};
export const preloadedPieces: string[] = [];
