// What `react` means in this codebase (build.mjs alias, tsconfig paths). Components import only hooks
// from 'react', which preact/hooks provides with React's names and semantics, so they stay portable to
// React while the critical path skips preact/compat's class-component and event-name emulation
// (about 1.9 kB brotli, a tenth of the 20 kB budget).
export {
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'preact/hooks';
export { createContext, createElement, Fragment } from 'preact';
