// The policies the command line runs, by the name it takes; 'optimal' is not a policy (it knows the
// whole trace) and the runner calls sim/optimal.ts for it.
import type { PolicyFactory } from '../types';
import { player } from './player';

export const policies: Record<string, PolicyFactory> = {
  player,
};

export const OPTIMAL = 'optimal';

/** Every name `--policies` accepts, in the tables' order. */
export const POLICY_NAMES = [...Object.keys(policies), OPTIMAL];
