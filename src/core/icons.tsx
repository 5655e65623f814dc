/** @jsxRuntime classic */
/** @jsx h */
// Inline SVG icons: no requests, no font, and CSP-safe. The controls' and the ad overlay's share
// media-icons.tsx, and the controls' own are in ui/; the frame on the critical path draws its big play
// button's itself (ui/player.ts, plain DOM). Classic JSX (Preact's h).
import { h } from 'preact';
export const icon = (d: string) => () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d={d} />
  </svg>
);

export const PlayIcon = icon('M8 5v14l11-7z');
