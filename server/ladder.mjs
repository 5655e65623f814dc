// @ts-check
/**
 * The production-like ladder (issue 23), which scripts/make-ladder.sh generates into .cache/media/
 * (outside git, `npm run media:ladder`), served like the committed media:
 * - /media/ladder/...        the 240 s film, 5 renditions 240p..1080p (catalogue title 30)
 * - /media/ladder-long/...   the same film listed again and again to about 2 hours (title 31)
 * - /media/ladder-small/...  96 s, 3 tiny renditions far apart, for end-to-end tests (title 32)
 *
 * The long title has no media of its own, as server/media/long/ (make-media.sh): its master is the
 * film's, and each of its media playlists (and thumbs.vtt) repeats the film's with
 * EXT-X-DISCONTINUITY between loops (every loop restarts its timestamps at 0) and links to the film's
 * segments. They are written on first request into the film's cache folder, so a regenerated film
 * takes them away with it, and then served as files with the same headers as the rest.
 *
 * Without the cache the server still starts: these paths answer 503 and it logs once what to run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HttpError } from './http-util.mjs';
import { resolveSafe, serveFile } from './static.mjs';

/** The long title lasts about this long (whole loops of the film). */
const LONG_TARGET_S = 2 * 3600;
const CACHE_CONTROL = 'public, max-age=3600';

/** @type {Record<string, string>} cache folder → the command that makes it */
const MAKE = { ladder: 'npm run media:ladder', 'ladder-small': 'npm run media:ladder -- --small' };

/** @param {string} root repository root */
export const ladderCacheDir = (root) => path.join(root, '.cache', 'media');

/**
 * The media playlist of the long title: `source` (the film's playlist text) repeated `loops` times,
 * every URI made relative to `prefix` (the film's folder as seen from the long playlist's).
 * @param {string} source
 * @param {number} loops
 * @param {string} prefix e.g. '../../../ladder/video/240p/'
 */
function loopPlaylist(source, loops, prefix) {
  const lines = source.split(/\r?\n/).filter((l) => l !== '' && l !== '#EXT-X-ENDLIST');
  const first = lines.findIndex((l) => l.startsWith('#EXT-X-MAP') || l.startsWith('#EXTINF') || l.startsWith('#EXT-X-DISCONTINUITY'));
  const head = lines.slice(0, first);
  const body = lines.slice(first).map((l) => {
    if (l.startsWith('#EXT-X-MAP:')) return l.replace(/URI="([^"]*)"/, (_, uri) => `URI="${prefix}${uri}"`);
    return l.startsWith('#') ? l : prefix + l;
  });
  const out = [...head];
  for (let i = 0; i < loops; i++) {
    if (i > 0) out.push('#EXT-X-DISCONTINUITY');
    out.push(...body);
  }
  out.push('#EXT-X-ENDLIST', '');
  return out.join('\n');
}

/** @param {string} vttTime hh:mm:ss.mmm */
const vttSeconds = (vttTime) => vttTime.split(':').reduce((s, part) => s * 60 + Number(part), 0);
/** @param {number} s */
const vttTime = (s) => {
  const ms = Math.round(s * 1000);
  const pad = (/** @type {number} */ n, /** @type {number} */ w) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3600000), 2)}:${pad(Math.floor(ms / 60000) % 60, 2)}:${pad(Math.floor(ms / 1000) % 60, 2)}.${pad(ms % 1000, 3)}`;
};

/**
 * The thumbnail track of the long title: the film's cues repeated `loops` times, each loop shifted by
 * the film's duration, image URIs made relative to `prefix`.
 * @param {string} source the film's thumbs.vtt
 * @param {number} loops
 * @param {number} duration the film's, seconds
 * @param {string} prefix
 */
function loopThumbnails(source, loops, duration, prefix) {
  const cues = source
    .split(/\r?\n\r?\n/)
    .map((block) => block.trim().split(/\r?\n/))
    .filter((lines) => lines.length === 2 && lines[0].includes('-->'));
  let out = 'WEBVTT\n\n';
  for (let i = 0; i < loops; i++) {
    for (const [timing, uri] of cues) {
      const [start, end] = timing.split('-->').map((t) => vttSeconds(t.trim()) + i * duration);
      out += `${vttTime(start)} --> ${vttTime(end)}\n${prefix}${uri}\n\n`;
    }
  }
  return out;
}

/**
 * @param {import('./router.mjs').Router} router
 * @param {import('./index.mjs').ServerContext} ctx
 */
export function register(router, ctx) {
  const cache = ladderCacheDir(ctx.root);
  /** @type {Set<string>} */
  const warned = new Set();

  /** The folder of a generated ladder; 503 (logged once per folder) while it is not generated. */
  const ladderDir = (/** @type {string} */ name) => {
    const dir = path.join(cache, name);
    if (fs.existsSync(path.join(dir, '.stamp'))) return dir;
    if (!warned.has(name)) {
      warned.add(name);
      console.warn(`[server] ${path.relative(ctx.root, dir)} is missing: run ${MAKE[name]} to serve /media/${name}/`);
    }
    throw new HttpError(503, `${name} media not generated: run ${MAKE[name]}`);
  };

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {string | null} file
   */
  const send = async (req, res, file) => {
    const served = file && (await serveFile(req, res, file, { cacheControl: CACHE_CONTROL }));
    if (!served) throw new HttpError(404, 'Not found');
  };

  router.add({
    method: 'GET',
    path: /^\/media\/(?<name>ladder|ladder-small)\/(?<rest>.*)$/,
    cors: 'media',
    json: false,
    async handler({ req, res, params }) {
      const dir = ladderDir(params.name);
      // Dot files (.stamp, .long/) are the cache's own.
      if (params.rest.split('/').some((part) => part.startsWith('.'))) throw new HttpError(404, 'Not found');
      await send(req, res, resolveSafe(dir, params.rest));
    },
  });

  router.add({
    method: 'GET',
    path: '/media/ladder-long/*',
    cors: 'media',
    json: false,
    async handler({ req, res, params }) {
      const dir = ladderDir('ladder');
      const rest = params['*'];
      const source = resolveSafe(dir, rest);
      const generated = resolveSafe(path.join(dir, '.long'), rest);
      const isPlaylist = rest.endsWith('.m3u8') && rest !== 'master.m3u8';
      if (!source || !generated || !(isPlaylist || rest === 'master.m3u8' || rest === 'thumbs.vtt')) throw new HttpError(404, 'Not found');
      // The master's links are all relative, and every one has its looped twin here.
      if (rest === 'master.m3u8') return send(req, res, source);
      if (!fs.existsSync(generated)) {
        let text;
        try {
          text = fs.readFileSync(source, 'utf8');
        } catch {
          throw new HttpError(404, 'Not found');
        }
        const duration = filmDuration(dir);
        const loops = Math.max(1, Math.round(LONG_TARGET_S / duration));
        // From /media/ladder-long/<rest> back to /media/ladder/<folder of rest>/.
        const prefix = `${path.posix.relative(path.posix.dirname(`ladder-long/${rest}`), path.posix.dirname(`ladder/${rest}`))}/`;
        const looped = isPlaylist ? loopPlaylist(text, loops, prefix) : loopThumbnails(text, loops, duration, prefix);
        fs.mkdirSync(path.dirname(generated), { recursive: true });
        const tmp = `${generated}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, looped);
        fs.renameSync(tmp, generated);
      }
      await send(req, res, generated);
    },
  });
}

/**
 * @param {string} dir a ladder folder
 * @returns {number} seconds of its first variant (the film's duration)
 */
function filmDuration(dir) {
  const master = fs.readFileSync(path.join(dir, 'master.m3u8'), 'utf8');
  const variant = /^#EXT-X-STREAM-INF:.*\r?\n([^#\r\n][^\r\n]*)/m.exec(master);
  const playlist = variant && resolveSafe(dir, variant[1]);
  if (!playlist) throw new HttpError(404, 'Not found');
  const text = fs.readFileSync(playlist, 'utf8');
  return [...text.matchAll(/^#EXTINF:([0-9.]+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}
