// Stands in for the build's `virtual:widgets` module under tsx (tsconfig paths); the build's own
// plugin resolves it first, so this file never reaches the bundle.
export const widgetFiles: Record<string, string> = {};
