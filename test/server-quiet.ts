// Shared by the e2e tests' and the engine journeys' harnesses.

/** The request logs of the run's servers (each cleared in place, so these references stay good). */
const logs: Array<ReadonlyArray<{ time: number }>> = [];

/** Adds a server's request log to those `serversQuiet` waits on: the run's main server and every extra one. */
export function watchRequests(log: ReadonlyArray<{ time: number }>): void {
  logs.push(log);
}

/** How long the servers must have logged no request before a closed page counts as gone. */
const QUIET_MS = 150;
/** At most this long (another page still open keeps a server busy). */
const QUIET_CAP_MS = 2000;

/**
 * Resolves once no server `watchRequests` was given has had a request for QUIET_MS, or after
 * QUIET_CAP_MS. A closed page's last requests can reach a server after the page's close resolves (the
 * browser had them on the wire; the server handles them on a later turn): they would land in the next
 * test's log, after its `clearRequests()`, as requests that test's page never made, and a test looking
 * for a request could pass on one its own page never made.
 */
export async function serversQuiet(): Promise<void> {
  const cap = Date.now() + QUIET_CAP_MS;
  for (;;) {
    const last = Math.max(0, ...logs.map((log) => log.at(-1)?.time ?? 0));
    const wait = Math.min(last + QUIET_MS, cap) - Date.now();
    if (wait <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
