/** @jsxRuntime classic */
/** @jsx h */
// Inline SVG icons: no requests, no font, and CSP-safe. Only the big play button's is on the critical
// path; the controls' and the ad overlay's share media-icons.tsx, and the controls' own are in ui/.
// Classic JSX (Preact's h), like ui/player.tsx.
import { h } from 'preact';
export const icon = (d: string) => () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d={d} />
  </svg>
);

export const PlayIcon = icon('M8 5v14l11-7z');
