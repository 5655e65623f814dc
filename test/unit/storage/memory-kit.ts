// The viewer's memory as a test sees it: what the frame's localStorage holds (the backend, read past
// the page's record), and a fresh page (the record opened again on the next read).
import type { MemoryRecord } from '../../../src/core/memory-protocol';

/** The next read opens the memory again, as a new page would. */
export const freshMemory = (): void => {
  delete (globalThis as { __playerMemory?: unknown }).__playerMemory;
};

/** The parsed value localStorage holds under `key` (undefined when none). */
export function readStored(key: keyof MemoryRecord | string): unknown {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(key);
  } catch {
    // Storage the test made throw holds nothing.
  }
  return raw === null ? undefined : JSON.parse(raw);
}

/** Puts `value` under `key` in localStorage, as a page left it, and opens the memory again. */
export function writeStored(key: keyof MemoryRecord | string, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
  freshMemory();
}
