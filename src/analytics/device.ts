export type DeviceType = 'tablet' | 'mobile' | 'desktop';

/**
 * SPEC §7 device_type from the user agent. iPadOS reports itself as a Mac, so a "Mac" with a touch
 * screen is a tablet; Android without "Mobile" is a tablet by Google's own convention.
 */
export function deviceType(ua: string, maxTouchPoints = 0): DeviceType {
  if (/iPad|Tablet|PlayBook|Silk|Kindle/i.test(ua)) return 'tablet';
  if (/Android/i.test(ua)) return /Mobile/i.test(ua) ? 'mobile' : 'tablet';
  if (/Macintosh/i.test(ua) && maxTouchPoints > 1) return 'tablet';
  if (/Mobi|iPhone|iPod|Windows Phone|Opera Mini|IEMobile/i.test(ua)) return 'mobile';
  return 'desktop';
}
