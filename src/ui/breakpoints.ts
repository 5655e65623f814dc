/**
 * SPEC §2 narrow breakpoint 'sm' (640 px, as in Tailwind): below it the mobile layout and, on a
 * share, the native share sheet. One value, so a viewer never gets the mobile layout with the
 * desktop share popup.
 */
export const NARROW = '(max-width: 639.98px)';
