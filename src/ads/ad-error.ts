/** SPEC §8 ad error codes and messages; where SPEC is silent, IAB VAST 4 codes. */
export interface AdError {
  code: number;
  message: string;
}

const adError = (code: number, message: string): AdError => ({ code, message });
const LOAD = 'Failed load VAST';

export const AdErrors = {
  parse: adError(100, 'Failed parsing xml'),
  /** Well-formed XML that is not VAST (or an Ad with neither InLine nor Wrapper). */
  schema: adError(101, 'Not a VAST document'),
  /** VAST 1.0 (<VideoAdServingTemplate>) or a version this player does not know. */
  version: adError(102, 'VAST version not supported'),
  /** NonLinear or companion ads only: skipped, the ad server told. */
  nonLinear: adError(201, 'Not found linear ad in VAST'),
  /** A Wrapper without a usable VASTAdTagURI. */
  wrapper: adError(300, LOAD),
  /** The wrapper's target failed or timed out. */
  wrapperLoad: adError(301, LOAD),
  wrapperLimit: adError(302, LOAD),
  /** No ad in the answer, at the top or after wrappers. */
  empty: adError(303, 'Empty vast'),
  load: adError(900, LOAD),
  timeout: adError(350, LOAD),
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
