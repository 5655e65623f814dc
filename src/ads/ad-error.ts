/** SPEC §8 ad error codes and messages. */
export interface AdError {
  code: number;
  message: string;
}

const adError = (code: number, message: string): AdError => ({ code, message });

export const AdErrors = {
  parse: adError(100, 'Failed parsing xml'),
  load: adError(900, 'Failed load VAST'),
  /** VAST 303: no VAST response after one or more wrappers (the chain is too deep or empty). */
  wrapper: adError(303, 'Failed load VAST'),
  timeout: adError(350, 'Failed load VAST'),
  empty: adError(901, 'Empty vast'),
  noMedia: adError(401, 'Not found mediaFiles in VAST'),
  unsupported: adError(403, 'Not found supported mediaFile'),
  unknown: adError(900, 'Unknown error'),
  mediaFile: (url: string) => adError(405, `Media file error: ${url}`),
  mediaTimeout: (url: string) => adError(402, `Media file error: ${url}`),
  cantPlay: (details: string) => adError(450, `Video cant play: ${details}`),
  vpaid: (details?: string) => adError(901, details || 'Unknown error'),
};

export const isAdError = (e: unknown): e is AdError =>
  typeof e === 'object' && e !== null && typeof (e as AdError).code === 'number' && typeof (e as AdError).message === 'string';
