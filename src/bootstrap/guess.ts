import type { MediaTraffic, Prefetched } from '../core/player-api';
import { fetchAhead, offerGuess } from '../providers/start-guess';
import type { StartMemory } from '../storage/start-memory';

/**
 * A returning viewer (issue 26): asks at once for what this device's engine asked for first last time,
 * before the catalogue has answered: `start`'s master and playlists and, when this visit starts where
 * that one did (`startAt`), its init segments and first fragments. Only bytes: what plays is still the
 * catalogue's and the availability's to say (SPEC §4); the entry's prefetch keeps or drops them.
 */
export function startGuess(start: StartMemory, startAt: number): void {
  const drop = new AbortController();
  const traffic: MediaTraffic = { last: 0, open: new Map() };
  const got = new Map<string, Promise<Prefetched | undefined>>();
  const ask = (url: string, binary: boolean) => got.has(url) || got.set(url, fetchAhead(url, binary, traffic, drop.signal));
  for (const url of [start.master, ...start.playlists]) ask(url, false);
  for (const url of start.at === startAt ? start.segments : []) ask(url, true);
  offerGuess({ start, drop, got, traffic });
}
