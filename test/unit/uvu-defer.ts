// Imported first by index.ts, before anything loads uvu: suites are only queued, and index.ts runs
// them once every file has been imported. Left to itself uvu starts on the first timer tick, and a
// file whose imports wait (build.mjs reads the piece registry with a top-level await) queues its
// suites after that: uvu then starts a second run over the whole queue, concurrently with the first.
const g = globalThis as { UVU_DEFER?: number; UVU_QUEUE?: unknown[][] };
g.UVU_DEFER = 1;
g.UVU_QUEUE = [[null]];
