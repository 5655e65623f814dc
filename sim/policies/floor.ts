// The feasibility bound, not a player: always the lowest level, no forward-buffer cap, no abandon, each
// segment asked as soon as the last is in and played as soon as it is in. Every segment then lands at
// the earliest any policy could land it (the lowest level's segments are the smallest, and the link is
// never idle), so its wait (start plus stalls) is the least any policy, causal or not, can have on the
// trace, and its rebuffer ratio the least of any that starts as soon as its first segment is in.
import type { PolicyFactory } from '../types';

export const floor: PolicyFactory = () => ({
  choose: () => 0,
  bufferTargetS: () => Infinity,
  onDownload() {},
});
