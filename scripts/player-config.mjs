// @ts-check
// The player's configuration for a static deploy (SPEC §1), baked into dist/player.html as data
// attributes of #root, so no one edits the built page by hand: `npm run build` reads it from a JSON
// file named by PLAYER_CONFIG and from environment variables named like the globals (ENV_BASE_URL,
// SENTRY_DSN, ...); a variable wins over the file.
import { readFileSync } from 'node:fs';

/** The names the player reads (src/config/embed-config.ts), as SPEC writes them. */
export const CONFIG_NAMES = [
  'env_base_url',
  'env_ad_list_url',
  'fullscreen_mode',
  'sentry_dsn',
  'sentry_project_label',
  'analytics_function',
  'lang_order',
  'player_asset_path',
  'env_request_timeout',
  'embed_origins',
];

/**
 * @param {Record<string, string | undefined>} env
 * @param {(path: string) => string} read
 * @returns {Record<string, string>}
 */
export function readPlayerConfig(env, read = (p) => readFileSync(p, 'utf8')) {
  /** @type {Record<string, string>} */
  const config = {};
  if (env.PLAYER_CONFIG) {
    let raw;
    try {
      raw = JSON.parse(read(env.PLAYER_CONFIG));
    } catch (err) {
      throw new Error(`PLAYER_CONFIG ${env.PLAYER_CONFIG}: ${err instanceof Error ? err.message : err}`);
    }
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`PLAYER_CONFIG ${env.PLAYER_CONFIG}: not a JSON object`);
    for (const [name, value] of Object.entries(raw)) {
      if (!CONFIG_NAMES.includes(name)) throw new Error(`PLAYER_CONFIG ${env.PLAYER_CONFIG}: unknown setting "${name}" (known: ${CONFIG_NAMES.join(', ')})`);
      const text = Array.isArray(value) ? value.join(',') : typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
      if (text === undefined) throw new Error(`PLAYER_CONFIG ${env.PLAYER_CONFIG}: "${name}" must be a string, a number or a list`);
      config[name] = text;
    }
  }
  for (const name of CONFIG_NAMES) {
    const value = env[name.toUpperCase()];
    if (value !== undefined && value !== '') config[name] = value;
  }
  for (const [name, value] of Object.entries(config)) {
    const problem = CHECKS[name]?.(value);
    if (problem) throw new Error(`player configuration: ${name} "${value}" ${problem}`);
  }
  return config;
}

/** @param {string} value */
const isHttpUrl = (value) => {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
};
/** A URL the player resolves against its page: absolute http(s), or a path from the host's root. */
const urlOrRootPath = (/** @type {string} */ value) =>
  isHttpUrl(value) || /^\/(?!\/)/.test(value) ? undefined : 'must be an http(s) URL or a path starting with / (without a scheme it would be read as a path below the player page)';

/**
 * Mistakes a deploy should stop on rather than ship: the player would silently fall back to its
 * defaults (or call a wrong address) for each of these. Each check returns what is wrong, or nothing.
 * @type {Record<string, (value: string) => string | undefined>}
 */
const CHECKS = {
  env_base_url: urlOrRootPath,
  env_ad_list_url: urlOrRootPath,
  // Relative to the entry script, like the player reads it.
  player_asset_path: (v) => (/^\.{1,2}\//.test(v) ? undefined : urlOrRootPath(v)),
  sentry_dsn: (v) => (isHttpUrl(v) ? undefined : 'must be an http(s) URL (https://KEY@HOST/PROJECT)'),
  fullscreen_mode: (v) => (v === 'stretched' || v === 'native' ? undefined : 'must be "stretched" or "native"'),
  env_request_timeout: (v) => (/^[1-9][0-9]*$/.test(v) ? undefined : 'must be a whole number of milliseconds'),
  analytics_function: (v) => (/^[A-Za-z_$][\w$]*$/.test(v) ? undefined : 'must be the name of a global function'),
  lang_order: (v) => (v.split(',').every((code) => /^[\w-]+$/.test(code.trim())) ? undefined : 'must be language codes separated by commas'),
};

/** @param {string} s */
const escapeAttribute = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page with the configuration on #root (data-env-base-url="..."), as the player reads it.
 * @param {string} html
 * @param {Record<string, string>} config
 */
export function withConfig(html, config) {
  const attributes = Object.entries(config)
    .map(([name, value]) => ` data-${name.replace(/_/g, '-')}="${escapeAttribute(value)}"`)
    .join('');
  if (!attributes) return html;
  if (!html.includes('<div id="root"')) throw new Error('player.html has no #root element to carry the configuration');
  return html.replace('<div id="root"', `<div id="root"${attributes}`);
}
