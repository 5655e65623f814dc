declare module 'virtual:widgets' {
  /** Hashed file name of each lazy piece, written by build.mjs. */
  export const widgetFiles: Record<string, string>;
  /** The stylesheet of each lazy piece that has one. */
  export const widgetCss: Record<string, string>;
}
declare const __DEV__: boolean;
declare module '*.css';
