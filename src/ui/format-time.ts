/** H:MM:SS when an hour or more, else M:SS. Unknown or negative times read 0:00. */
export function formatTime(seconds: number, withHours = Number.isFinite(seconds) && seconds >= 3600): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return withHours ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}
