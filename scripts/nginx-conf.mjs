// @ts-check
// deploy/nginx.conf configured for one deploy: its Content-Security-Policy lines are the reference
// server's policies (server/player.mjs) with the origins the player configuration names added, so a
// static host runs the page under the same policy as the reference server, no hand editing.
//
//   node scripts/nginx-conf.mjs           prints the conf for PLAYER_CONFIG / ENV_BASE_URL ... and the
//                                         last build's bootstrap hash (dist/player.csp.json)
//   node scripts/nginx-conf.mjs --write   rewrites deploy/nginx.conf for deploy/player.json: a template
//                                         without the hash (it changes with every bootstrap change; the
//                                         build writes it into dist.nginx.conf)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { VPAID_CSP, playerPolicy as referencePolicy, readCspManifest } from '../server/player.mjs';
import { readPlayerConfig } from './player-config.mjs';

export const NGINX_TEMPLATE = fileURLToPath(new URL('../deploy/nginx.conf', import.meta.url));
const EXAMPLE_CONFIG = fileURLToPath(new URL('../deploy/player.json', import.meta.url));

/** @param {string | undefined} url */
function originOf(url) {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return /^https?:$/.test(u.protocol) ? u.origin : undefined;
  } catch {
    return undefined; // a path: the player page's own host, 'self'
  }
}

/**
 * @param {string} policy e.g. "default-src 'self'; img-src 'self' data:"
 * @returns {Array<[string, string[]]>}
 */
const parsePolicy = (policy) =>
  policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .filter((d) => d[0])
    .map(([name, ...sources]) => [name, sources]);

/**
 * The policy with sources added to directives; a directive it lacks starts from default-src's sources,
 * so adding never loosens what default-src allowed it before. report-uri goes: a static host has no
 * endpoint to receive reports (the reference server's /csp-report is for the tests).
 * @param {string} policy
 * @param {Record<string, Array<string | undefined>>} additions directive → sources
 */
export function withSources(policy, additions) {
  const directives = parsePolicy(policy).filter(([name]) => name !== 'report-uri' && name !== 'report-to');
  const fallback = directives.find(([name]) => name === 'default-src')?.[1] ?? [];
  for (const [name, sources] of Object.entries(additions)) {
    const wanted = sources.filter((s) => s !== undefined);
    if (!wanted.length) continue;
    let directive = directives.find(([n]) => n === name);
    if (!directive) directives.push((directive = [name, [...fallback]]));
    for (const s of wanted) if (!directive[1].includes(s)) directive[1].push(s);
  }
  return directives.map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

/**
 * The player page's policy for a deploy: the reference server's, with the origins the configuration
 * names admitted where the player reaches them. The API host serves the catalogue, the posters and the
 * media (hls.js fetches segments, Safari's native HLS plays them as media); the error ingest and the ad
 * list are fetched; lazy pieces, styles, the placeholder and the VPAID frame may come from an asset host.
 * @param {Record<string, string>} config as readPlayerConfig returns it
 * @param {string[]} [scriptHashes] the page's inline scripts ('sha256-…'), as the build computed them
 */
export function playerPolicy(config, scriptHashes = []) {
  const fetched = [originOf(config.env_base_url), originOf(config.sentry_dsn), originOf(config.env_ad_list_url)];
  const assets = originOf(config.player_asset_path);
  // adOrigins: admitted to connect-src, media-src and img-src (needed there for http origins)
  const reference = referencePolicy({ adOrigins: fetched.filter((o) => o !== undefined), reportUri: null, scriptHashes });
  return withSources(reference, {
    'script-src': [assets],
    'style-src': [assets],
    'media-src': [assets],
    'frame-src': [assets],
  });
}

/** The sandboxed VPAID frame's policy: the reference server's, without its test-only report-uri. */
export const vpaidPolicy = () => withSources(VPAID_CSP, {});

/** @param {string} s */
const escapeNginx = (s) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/**
 * deploy/nginx.conf (or a conf the build wrote) with the policies of `config`, another root folder,
 * another port: each only when given.
 * @param {string} template the text of deploy/nginx.conf
 * @param {{ config?: Record<string, string>, scriptHashes?: string[], root?: string, port?: number }} options
 */
export function renderNginxConf(template, { config, scriptHashes, root, port }) {
  /** @param {string} text @param {RegExp} re @param {string} value @param {string} what */
  const replaceOnce = (text, re, value, what) => {
    if ((text.match(new RegExp(re.source, 'gm')) ?? []).length !== 1) throw new Error(`deploy/nginx.conf: expected one ${what} line`);
    return text.replace(new RegExp(re.source, 'm'), value);
  };
  let conf = template;
  if (config) {
    conf = replaceOnce(conf, /^(\s*add_header Content-Security-Policy ")[^\n]*(" always; # POLICY player)$/, `$1${escapeNginx(playerPolicy(config, scriptHashes))}$2`, 'player policy');
    conf = replaceOnce(conf, /^(\s*add_header Content-Security-Policy ")[^\n]*(" always; # POLICY vpaid)$/, `$1${escapeNginx(vpaidPolicy())}$2`, 'vpaid policy');
  }
  if (root !== undefined) conf = replaceOnce(conf, /^(\s*root )[^;\n]+;/, `$1${root};`, 'root');
  if (port !== undefined) conf = replaceOnce(conf, /^(\s*listen )\d+;/, `$1${port};`, 'listen');
  return conf;
}

/**
 * deploy/nginx.conf for this configuration and this build's inline bootstrap, as the build writes it
 * next to dist/ (dist.nginx.conf).
 * @param {Record<string, string>} config
 * @param {string[]} [scriptHashes]
 */
export const configuredNginxConf = (config, scriptHashes) => renderNginxConf(readFileSync(NGINX_TEMPLATE, 'utf8'), { config, scriptHashes });

/** The policy lines of a conf, as nginx will send them. */
export function policiesIn(/** @type {string} */ conf) {
  /** @param {string} name */
  const line = (name) => conf.match(new RegExp(`add_header Content-Security-Policy "((?:[^"\\\\]|\\\\.)*)" always; # POLICY ${name}$`, 'm'))?.[1];
  return { player: line('player'), vpaid: line('vpaid') };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const template = readFileSync(NGINX_TEMPLATE, 'utf8');
  if (process.argv.includes('--write')) {
    writeFileSync(NGINX_TEMPLATE, renderNginxConf(template, { config: readPlayerConfig({ PLAYER_CONFIG: EXAMPLE_CONFIG }) }));
  } else {
    // The build's conf is dist.nginx.conf; this prints one for the hash of the last build's bootstrap.
    const dist = process.env.DIST_DIR || fileURLToPath(new URL('../dist', import.meta.url));
    process.stdout.write(configuredNginxConf(readPlayerConfig(process.env), readCspManifest(dist).scriptHashes));
  }
}
