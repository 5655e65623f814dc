declare module 'virtual:widgets' {
  /** Hashed file name of each lazy piece, written by build.mjs. */
  export const widgetFiles: Record<string, string>;
}
declare const __DEV__: boolean;
declare module '*.css';
