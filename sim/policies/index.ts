// The policies the command line runs, by the name it takes; 'optimal' is not a policy (it knows the
// whole trace) and the runner calls sim/optimal.ts for it.
import type { PolicyFactory } from '../types';
import { bolaE } from './bola-e';
import { dynamic } from './dynamic';
import { floor } from './floor';
import { hlsjs } from './hlsjs';
import { player } from './player';
import { throughput } from './throughput';

export const policies: Record<string, PolicyFactory> = {
  player,
  hlsjs,
  throughput,
  'bola-e': bolaE,
  dynamic,
  floor,
};

export const OPTIMAL = 'optimal';

/** Every name `--policies` accepts, in the tables' order. */
export const POLICY_NAMES = [...Object.keys(policies), OPTIMAL];
