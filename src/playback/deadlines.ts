/**
 * How long playback waits without progress before it gives up (DESIGN "Every wait ends"). They count
 * time without a byte, not time: a slow link that keeps delivering is waited for, however slowly; a
 * server that sends nothing is not. Single constants (not fields of TUNING) so that the entry's media
 * watchdog inlines them without carrying the policy's whole table.
 */

/** From a source set to its first data: this long without a media byte, the start has failed. */
export const START_IDLE_MS = 15000;
/** A request with no byte of its own for this long is asked again (the browser first asks the server whether it answers). */
export const IDLE_MS = 10000;
/** This long without a byte from anywhere, the link is not coming back: SPEC §8's screen. A tunnel shorter than a minute is waited out. */
export const OUTAGE_MS = 75000;
