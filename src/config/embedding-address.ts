/**
 * The address of the page that embeds the player, sent as `domain` to the availability check.
 * ancestorOrigins cannot be forged by the frame's own navigation, so it wins when it disagrees with
 * the referrer; the referrer is used when it agrees because it also carries the path.
 */
export function embeddingAddress(env: {
  inFrame: boolean;
  ancestorOrigins?: ArrayLike<string>;
  referrer: string;
  href: string;
}): string {
  if (!env.inFrame) return env.href;
  const ancestor = env.ancestorOrigins && env.ancestorOrigins.length ? env.ancestorOrigins[0] : undefined;
  const ref = originOf(env.referrer) ? env.referrer : undefined;
  if (ancestor && ref) return originOf(ref) === ancestor ? ref : ancestor;
  return ancestor || ref || env.href;
}

export function originOf(url: string): string | undefined {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? undefined : o;
  } catch {
    return undefined;
  }
}
