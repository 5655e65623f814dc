// Typed calls of the catalogue service, base path /catalog-api (SPEC §7). Every call is its own
// export so the player bundle carries only the ones it imports (test/unit/api/tree-shaking.test.ts
// checks it). Payloads SPEC does not show are typed `unknown` and passed through.
import { type Query, call, qs, seg } from './call';
import { requestJson } from './http';

const S = '/catalog-api';
type Signal = AbortSignal | undefined;
type Id = string | number;
const get = <T>(base: string, path: string, signal?: Signal) => call<T>(base, S, 'GET', path, undefined, signal);
const post = <T>(base: string, path: string, body?: unknown, signal?: Signal) => call<T>(base, S, 'POST', path, body, signal);
const del = <T>(base: string, path: string, signal?: Signal) => call<T>(base, S, 'DELETE', path, undefined, signal);

// What the player calls (SPEC §4: together, in parallel). Written out rather than through `get`
// because they are on the critical path, where every byte counts; ids are integers from the config.
// The answers are `unknown` until content/validate.ts has read them.
const player = <T>(base: string, path: string, signal?: Signal) =>
  requestJson<T>(`${base}/catalog-api${path}`, { signal, secure: base });
export const getContent = (base: string, id: number, signal?: Signal) => player<unknown>(base, `/contents/${id}`, signal);
export const getSeasons = (base: string, id: number, signal?: Signal) => player<unknown>(base, `/contents/${id}/seasons`, signal);
export const getEpisodes = (base: string, id: number, signal?: Signal) => player<unknown>(base, `/episodes?content-id=${id}`, signal);
/** `domain` is the embedding page's address. */
export const getAvailability = (base: string, id: number, domain: string, signal?: Signal) =>
  player<unknown>(base, `/contents/${id}/available?domain=${encodeURIComponent(domain)}`, signal);

// Media proxy
export const getProxyMedia = <T = unknown>(base: string, a: Id, b: Id, signal?: Signal) =>
  get<T>(base, `/proxy/${seg(a)}/${seg(b)}/index.mp4`, signal);
export const headProxyMedia = <T = unknown>(base: string, a: Id, b: Id, signal?: Signal) =>
  call<T>(base, S, 'HEAD', `/proxy/${seg(a)}/${seg(b)}/index.mp4`, undefined, signal);

// Reviews
const review = (c: Id, r: Id) => `/v2/contents/${seg(c)}/reviews/${seg(r)}`;
export const getReview = <T = unknown>(base: string, contentId: Id, reviewId: Id, signal?: Signal) =>
  get<T>(base, review(contentId, reviewId), signal);
export const updateReview = <T = unknown>(base: string, contentId: Id, reviewId: Id, body: unknown, signal?: Signal) =>
  call<T>(base, S, 'PUT', review(contentId, reviewId), body, signal);
export const deleteReview = <T = unknown>(base: string, contentId: Id, reviewId: Id, signal?: Signal) =>
  del<T>(base, review(contentId, reviewId), signal);
export const voteReview = <T = unknown>(base: string, contentId: Id, reviewId: Id, body: unknown, signal?: Signal) =>
  post<T>(base, `${review(contentId, reviewId)}/vote`, body, signal);
export const createReview = <T = unknown>(base: string, contentId: Id, body: unknown, signal?: Signal) =>
  post<T>(base, `/v2/contents/${seg(contentId)}/reviews/create`, body, signal);
export const listReviews = <T = unknown>(base: string, contentId: Id, body: unknown, signal?: Signal) =>
  post<T>(base, `/v2/contents/${seg(contentId)}/reviews`, body, signal);

// Listings
export const listCategoryContentsV2 = <T = unknown>(base: string, type: Id, slug: string, body: unknown, signal?: Signal) =>
  post<T>(base, `/v2/types/${seg(type)}/categories/${seg(slug)}/contents`, body, signal);
export const filterCategoryContentsV2 = <T = unknown>(base: string, type: Id, slug: string, body: unknown, signal?: Signal) =>
  post<T>(base, `/v2/types/filter-v2/${seg(type)}/categories/${seg(slug)}/contents`, body, signal);
export const listPlaylistContentsV2 = <T = unknown>(base: string, id: Id, body: unknown, signal?: Signal) =>
  post<T>(base, `/v2/playlists/${seg(id)}/contents`, body, signal);
export const listPlaylistsV2 = <T = unknown>(base: string, body: unknown, signal?: Signal) => post<T>(base, '/v2/playlists', body, signal);
export const searchContentsWithFilter = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  post<T>(base, '/v2/contents/search-with-filter', body, signal);
export const searchContents = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  post<T>(base, '/v2/contents/search', body, signal);
export const listHistoryV2 = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  post<T>(base, '/v2/contents/history', body, signal);
export const listContentsV2 = <T = unknown>(base: string, body: unknown, signal?: Signal) => post<T>(base, '/v2/contents', body, signal);
export const getCategoryFiltersV2 = <T = unknown>(base: string, id: Id, signal?: Signal) =>
  get<T>(base, `/v2/categories/filters/${seg(id)}`, signal);

// Types
export const listTypeCategoryContents = <T = unknown>(base: string, type: Id, slug: string, body: unknown, signal?: Signal) =>
  post<T>(base, `/types/${seg(type)}/categories/${seg(slug)}/contents`, body, signal);
export const getType = <T = unknown>(base: string, id: Id, signal?: Signal) => get<T>(base, `/types/${seg(id)}`, signal);
export const getTypeBySlug = <T = unknown>(base: string, slug: string, signal?: Signal) =>
  get<T>(base, `/types/by-slug/${seg(slug)}`, signal);
export const listTypes = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/types', signal);

// Playlists
export const addToPlaylist = <T = unknown>(base: string, id: Id, contentId: Id, body?: unknown, signal?: Signal) =>
  post<T>(base, `/playlists/${seg(id)}/contents/${seg(contentId)}`, body, signal);
export const listPlaylistContents = <T = unknown>(base: string, id: Id, body: unknown, signal?: Signal) =>
  post<T>(base, `/playlists/${seg(id)}/contents`, body, signal);
export const updatePlaylist = <T = unknown>(base: string, id: Id, body: unknown, signal?: Signal) =>
  post<T>(base, `/playlists/${seg(id)}`, body, signal);
export const createPlaylist = <T = unknown>(base: string, body: unknown, signal?: Signal) => post<T>(base, '/playlists/new', body, signal);
export const getPlaylistBySlug = <T = unknown>(base: string, slug: string, body?: unknown, signal?: Signal) =>
  post<T>(base, `/playlists/by-slug/${seg(slug)}`, body, signal);

// Persons
export const listPersonsOfType = <T = unknown>(base: string, slug: string, body: unknown, signal?: Signal) =>
  post<T>(base, `/person-types/${seg(slug)}/persons`, body, signal);
export const listPersonTypes = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/person-types', signal);
export const listPersonContents = <T = unknown>(base: string, id: Id, signal?: Signal) =>
  get<T>(base, `/persons/${seg(id)}/contents`, signal);

// Episodes
export const listFreshEpisodes = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  post<T>(base, '/episodes/fresh', body, signal);
export const getEpisodeResource = <T = unknown>(base: string, id: Id, signal?: Signal) =>
  get<T>(base, `/episodes/${seg(id)}/resource`, signal);

export const listCountries = <T = unknown>(base: string, body: unknown, signal?: Signal) => post<T>(base, '/countries', body, signal);

// Contents
export const addContentHistory = <T = unknown>(base: string, id: Id, body: unknown, signal?: Signal) =>
  post<T>(base, `/contents/${seg(id)}/history`, body, signal);
/** Saves the viewer's position in an episode on the server. */
export const postTimeProgress = <T = unknown>(base: string, id: Id, episodeId: Id, body: unknown, signal?: Signal) =>
  post<T>(base, `/contents/${seg(id)}/episodes/${seg(episodeId)}/time-progress`, body, signal);
export const markEpisodeCompleted = <T = unknown>(base: string, id: Id, episodeId: Id, body?: unknown, signal?: Signal) =>
  post<T>(base, `/contents/${seg(id)}/episodes/${seg(episodeId)}/completed`, body, signal);
export const unmarkEpisodeCompleted = <T = unknown>(base: string, id: Id, episodeId: Id, signal?: Signal) =>
  del<T>(base, `/contents/${seg(id)}/episodes/${seg(episodeId)}/completed`, signal);
export const searchHistory = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  post<T>(base, '/contents/history/search', body, signal);
export const listHistory = <T = unknown>(base: string, body: unknown, signal?: Signal) => post<T>(base, '/contents/history', body, signal);
export const addFavorite = <T = unknown>(base: string, id: Id, body?: unknown, signal?: Signal) =>
  post<T>(base, `/contents/favorites/${seg(id)}`, body, signal);
export const removeFavorite = <T = unknown>(base: string, id: Id, signal?: Signal) => del<T>(base, `/contents/favorites/${seg(id)}`, signal);
export const listFavorites = <T = unknown>(base: string, body: unknown, signal?: Signal) =>
  post<T>(base, '/contents/favorites', body, signal);
export const listContents = <T = unknown>(base: string, body: unknown, signal?: Signal) => post<T>(base, '/contents', body, signal);
export const getLastWatchedEpisode = <T = unknown>(base: string, id: Id, signal?: Signal) =>
  get<T>(base, `/contents/${seg(id)}/episodes/watched/last`, signal);
export const getSliderPromo = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/contents/slider-promo', signal);
export const getMostRelevant = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/contents/most-relevant', signal);
export const getContentBySlug = <T = unknown>(base: string, slug: string, signal?: Signal) =>
  get<T>(base, `/contents/by-slug/${seg(slug)}`, signal);
export const getContentByImdbId = <T = unknown>(base: string, id: string, signal?: Signal) =>
  get<T>(base, `/contents/by-imdb-id/${seg(id)}`, signal);

export const reportAbuse = <T = unknown>(base: string, body: unknown, signal?: Signal) => post<T>(base, '/abuse/new', body, signal);

// Miscellaneous GET
export const listVoiceAuthors = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/voice-authors', signal);
export const getVastXml = (base: string, signal?: Signal) => get<unknown>(base, '/vast.xml', signal);
export const listTags = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/tags', signal);
export const getTag = <T = unknown>(base: string, id: Id, signal?: Signal) => get<T>(base, `/tags/${seg(id)}`, signal);
export const listSubtitles = <T = unknown>(base: string, query?: Query, signal?: Signal) => get<T>(base, `/subtitles${qs(query)}`, signal);
export const getSitemap = <T = unknown>(base: string, n?: number, signal?: Signal) =>
  get<T>(base, `/sitemap${n === undefined ? '' : seg(n)}.xml`, signal);
export const getRobotsTxt = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/robots.txt', signal);
export const getRedirectInfo = <T = unknown>(base: string, query?: Query, signal?: Signal) =>
  get<T>(base, `/redirect-info${qs(query)}`, signal);
export const getMenu = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/menu', signal);
export const getMainRedirectInfo = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/main-redirect-info', signal);
export const getLibJs = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/lib.js', signal);
export const listLanguages = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/languages', signal);
export const getKinopoiskContent = <T = unknown>(base: string, id: Id, signal?: Signal) =>
  get<T>(base, `/kinopoisk/contents/${seg(id)}`, signal);
export const getImage = <T = unknown>(base: string, query?: Query, signal?: Signal) => get<T>(base, `/image${qs(query)}`, signal);
export const listGenres = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/genres', signal);
export const getAdList = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/ad-list.json', signal);

// Categories
export const getCategoryOfType = <T = unknown>(base: string, slug: string, type: Id, signal?: Signal) =>
  get<T>(base, `/categories/${seg(slug)}/content-type/${seg(type)}`, signal);
export const getCategoryTree = <T = unknown>(base: string, id: Id, signal?: Signal) =>
  get<T>(base, `/categories/tree/content-type/${seg(id)}`, signal);
export const getMainMart = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/categories/main-mart', signal);
export const getMainMartOfType = <T = unknown>(base: string, id: Id, signal?: Signal) =>
  get<T>(base, `/categories/main-mart/content-type/${seg(id)}`, signal);
export const getCategoryFilters = <T = unknown>(base: string, id: Id, signal?: Signal) =>
  get<T>(base, `/categories/filters/${seg(id)}`, signal);

// Caches
export const listCaches = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/caches', signal);
export const clearCaches = <T = unknown>(base: string, signal?: Signal) => del<T>(base, '/caches', signal);
export const clearCache = <T = unknown>(base: string, name: string, signal?: Signal) => del<T>(base, `/caches/${seg(name)}`, signal);

// Debug
export const getDebugSitemap = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/debug/meta/sitemap.xml', signal);
export const generateSitemap = <T = unknown>(base: string, signal?: Signal) => get<T>(base, '/debug/generate-sitemap-xml', signal);
