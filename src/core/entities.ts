// Entities of SPEC §3, as the catalogue sends them. Fields the player does not read are left out.
export interface Content {
  id: number;
  title: string;
  posterUrl?: string | null;
  contentType?: { slug: string } | null;
  kinopoiskId?: number | string | null;
  year?: number | null;
  countries?: Array<{ slug: string }> | null;
  languages?: Array<{ code: string }> | null;
  rating?: {
    kinopoisk?: { value?: number | null } | null;
    imdb?: { value?: number | null; url?: string | null } | null;
  } | null;
  hasMultipleEpisodes?: boolean;
}

export interface EpisodeVariant {
  id: number;
  title: string;
  filepath: string;
}

export interface Episode {
  id: number;
  contentId: number;
  title: string;
  description?: string | null;
  duration?: number | null;
  posterPath?: string | null;
  order: number;
  isCompleted?: boolean;
  season?: { id: number; order: number } | null;
  m3u8MasterFilePath: string;
  episodeVariants?: EpisodeVariant[] | null;
  /**
   * Intro and credits markers, not in SPEC's data: passed on as the catalogue sent them and read by the
   * lazy pieces that use them (content/markers.ts), so the critical path carries no reader for them.
   */
  markers?: unknown;
}

export interface Season {
  id: number;
  order: number;
  title?: string;
}


export interface DescriptorSource {
  label: string;
  link: string;
  isDefault: boolean;
}

export interface DescriptorSubtitle {
  label: string;
  src: string;
  language: string;
}

export interface Descriptor {
  sources: DescriptorSource[];
  subtitles: DescriptorSubtitle[];
}
