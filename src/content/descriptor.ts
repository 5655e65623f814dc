import type { Descriptor, DescriptorSource, DescriptorSubtitle } from '../core/entities';

// Lazy piece "descriptor": loaded together with a master descriptor, which only some titles have.

/**
 * Validates a descriptor and resolves its links: links starting with http are kept, others are
 * prefixed with the origin of the descriptor address. Throws on a shape the player cannot use.
 */
export function readDescriptor(raw: unknown, descriptorUrl: string): Descriptor {
  const doc = raw as { sources?: unknown; subtitles?: unknown } | null;
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.sources)) throw new Error('descriptor without sources');
  const origin = new URL(descriptorUrl).origin;
  const link = (s: string) => (s.startsWith('http') ? s : origin + (s.startsWith('/') ? s : '/' + s));
  const sources: DescriptorSource[] = doc.sources
    .filter((s): s is DescriptorSource => !!s && typeof s.link === 'string' && s.link.trim() !== '')
    .map((s) => ({ label: String(s.label ?? ''), link: link(s.link.trim()), isDefault: s.isDefault === true }));
  if (!sources.length) throw new Error('descriptor without usable sources');
  const subtitles: DescriptorSubtitle[] = (Array.isArray(doc.subtitles) ? doc.subtitles : [])
    .filter((s): s is DescriptorSubtitle => !!s && typeof s.src === 'string' && s.src.trim() !== '')
    .map((s) => ({ label: String(s.label ?? ''), src: link(s.src.trim()), language: String(s.language ?? '') }));
  return { sources, subtitles };
}

/** SPEC §4 initial audio choice: the saved label, else the source flagged default, else the first. */
export function chooseSource(sources: readonly DescriptorSource[], savedLabel?: string): DescriptorSource | undefined {
  return (
    (savedLabel !== undefined ? sources.find((s) => s.label === savedLabel) : undefined) ??
    sources.find((s) => s.isDefault) ??
    sources[0]
  );
}
