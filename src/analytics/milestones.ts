/** SPEC §9 progress milestones, percent. */
export const MILESTONES = [10, 25, 50, 75, 95, 100] as const;

/**
 * Which milestones playback crossed. A milestone counts when watched through (from below it to at
 * or past it in one played step), once per video: seeking past it does not count, and seeking back
 * and crossing it again does not count twice. 100 is reached at the end.
 */
export function createMilestones() {
  const fired = new Set<number>();
  return {
    /** Percent positions before and after a played step; answers the milestones newly crossed. */
    played(fromPct: number, toPct: number): number[] {
      const hit = MILESTONES.filter((m) => m < 100 && !fired.has(m) && fromPct < m && toPct >= m);
      hit.forEach((m) => fired.add(m));
      return hit;
    },
    /** The end of the video: 100, once. */
    ended(): number[] {
      if (fired.has(100)) return [];
      fired.add(100);
      return [100];
    },
    reset(): void {
      fired.clear();
    },
  };
}
