// Icons of the next-episode and share buttons (inline SVG, CSP-safe, like core/icons.tsx).
export const NextIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d="M6 6v12l8.5-6zm10 0v12h2V6z" />
  </svg>
);
export const ShareIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d="M18 16a3 3 0 0 0-2.2 1l-7-4a3 3 0 0 0 0-2l7-4A3 3 0 1 0 15 5l-7 4a3 3 0 1 0 0 6l7 4a3 3 0 1 0 3-3z" />
  </svg>
);
