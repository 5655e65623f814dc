// `npm run bench -- --deploy nginx [--link TRACE] [--delay 40]` (or BENCH_DEPLOY=nginx, BENCH_LINK=TRACE):
// the first-frame bench against the deploy users run instead of the reference server's own pages. The
// built dist/ behind Debian's nginx (its own prefix in a temp folder, ports chosen free) with TLS (a
// certificate made here with openssl, trusted by Chromium through its SPKI hash) and HTTP/2; the player's
// files under the conf the build wrote beside dist/ (dist.nginx.conf: the policy, cache rules and types
// of docs/deploying.md, only its root and port changed); the API, media and ad list proxied to the
// reference server; the bare hls.js page and hls.js on the same nginx; the ad server behind a second
// nginx server (another https origin, as ad servers are). With --link, both nginx ports are reached
// through bench/link.ts (real TCP and TLS handshakes, one shared capacity) instead of DevTools' Fast 3G,
// a fresh link for every page (bench/deploy-link.ts).
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
// @ts-expect-error: plain JS modules
import { ensureNginx } from '../scripts/find-nginx.mjs';
// @ts-expect-error: plain JS modules
import { renderNginxConf } from '../scripts/nginx-conf.mjs';
// @ts-expect-error: plain JS modules
import { ensureTool, onPath } from '../scripts/debian-tool.mjs';
// @ts-expect-error: plain JS modules
import { withAdListAttribute } from '../server/ads.mjs';
import type { LinkOptions } from './link';
import { switchedLink, type SwitchedLink } from './deploy-link';
import { meanBitsPerSecond, readTrace } from './link-trace';
import { nginxMainConf, withTlsAndProxies } from './deploy-nginx-conf';
// @ts-expect-error: plain JS modules
import { freePort } from '../scripts/free-port.mjs';

export interface Deploy {
  /** What served the pages, for the bench's header. */
  describe: string;
  /** Where the pages are opened: https://127.0.0.1:PORT (the link's relay port with --link). */
  origin: string;
  /** `path` (a bench page) on this deploy: the player's folder whose page names `adList`, when one is given. */
  path(path: string, adList?: string): string;
  chromiumFlags: string[];
  /** With --link: the link's round trip; the pages cross it, DevTools emulates no network. */
  link?: { roundTripMs: number };
  /** Before each page: with --link, a fresh link (the trace from its start); else nothing. */
  beforePage(): Promise<void>;
  close(): Promise<void>;
}

interface DeployOptions {
  /** The reference server the API, media and ad list are proxied to. */
  serverPort: number;
  /** The reference server acting as the ad server (VAST, pixels, ad media), behind nginx's second origin. */
  adServerPort: number;
  /** Ad lists (paths on the page's host, e.g. '/ad-list.json?pre=empty') a player page is built for. */
  adLists: string[];
}

const repo = new URL('..', import.meta.url).pathname;
// Debian's libnginx-mod-http-brotli-static, when installed: the deploy then sends the build's .br files.
const BROTLI_MODULE = ['/usr/lib/nginx/modules/ngx_http_brotli_static_module.so'].find((p) => existsSync(p));

/** The deploy asked for on the command line or in BENCH_DEPLOY / BENCH_LINK; undefined = the reference server. */
function wanted(argv: string[], env: NodeJS.ProcessEnv) {
  const { values } = parseArgs({ args: argv, strict: false, options: { deploy: { type: 'string' }, link: { type: 'string' }, delay: { type: 'string' } } });
  const deploy = (values.deploy as string | undefined) ?? env.BENCH_DEPLOY;
  const trace = (values.link as string | undefined) ?? env.BENCH_LINK;
  if (!deploy) {
    if (trace) throw new Error('--link: only with --deploy nginx (the link carries TLS to nginx)');
    return undefined;
  }
  if (deploy !== 'nginx') throw new Error(`--deploy ${deploy}: the one deploy is nginx`);
  return { trace, delayMs: Number((values.delay as string | undefined) ?? 40) };
}


/** A self-signed certificate for 127.0.0.1 and the base64 SHA-256 of its public key, for Chromium's SPKI list. */
function makeCertificate(dir: string) {
  const openssl = ensureTool({
    name: 'openssl',
    find: () => ['/usr/bin/openssl', onPath('openssl')].find((p) => p && existsSync(p)),
    packages: ['openssl'],
    // node:crypto makes keys but no X.509 certificate.
    advice: 'No openssl found to make the bench’s TLS certificate: install it (Debian/Ubuntu: `sudo apt-get install openssl`).',
  }) as string;
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(openssl, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert,
    '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'pipe' });
  const pem = readFileSync(cert);
  const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return { cert, key, pem, spki: createHash('sha256').update(spki).digest('base64') };
}

/** The player's folder for an ad list: its page names the list, as a build with env_ad_list_url would. */
const folderOf = (adLists: string[], adList?: string) => (adList === undefined ? 'player' : `player-ads-${adLists.indexOf(adList) + 1}`);

/** NAME.gz and NAME.br beside NAME, as the build and server/bench.mjs compress (gzip 9, brotli 11). */
async function writeCompressed(file: string, body: Buffer) {
  await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
  await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
}

/** www/: dist/ as /player/ and once per ad list, the bare hls.js page and hls.js (compressed beside, as dist/'s). */
async function writeSite(www: string, dist: string, adLists: string[], adsOrigin: string) {
  await cp(dist, join(www, 'player'), { recursive: true });
  for (const adList of adLists) {
    const folder = join(www, folderOf(adLists, adList));
    await cp(dist, folder, { recursive: true });
    const page = withAdListAttribute(await readFile(join(dist, 'player.html'), 'utf8'), `${adList}&vast_origin=${encodeURIComponent(adsOrigin)}`) as string;
    await writeFile(join(folder, 'player.html'), page);
    await writeCompressed(join(folder, 'player.html'), Buffer.from(page));
  }
  await mkdir(join(www, 'bench'));
  await cp(join(repo, 'server/bench/hls.html'), join(www, 'bench/hls.html'));
  const hls = await readFile(join(repo, 'node_modules/hls.js/dist/hls.min.mjs'));
  await writeFile(join(www, 'bench/hls.mjs'), hls);
  await writeCompressed(join(www, 'bench/hls.mjs'), hls);
}

/** GET over TLS trusting only our certificate: the status, or the error. */
function probe(url: string, ca: Buffer): Promise<number | string> {
  return new Promise((done) => {
    const req = https.get(url, { ca, timeout: 3000 }, (res) => {
      res.resume();
      res.once('end', () => done(res.statusCode ?? 0));
    });
    req.once('error', (err) => done(err.message));
    req.once('timeout', () => req.destroy(new Error('timeout')));
  });
}

async function startNginx(dir: string, ports: { site: number; ads: number }, ca: Buffer): Promise<{ child: ChildProcess; exited: Promise<unknown> }> {
  const child = spawn(ensureNginx({ log: console.log }) as string, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: 'ignore' });
  const exited = new Promise((done) => child.once('exit', done));
  let gone = false;
  void exited.then(() => (gone = true));
  const checks = ['/player/', '/bench/hls.html', '/bench/hls.mjs', '/catalog-api/contents/1', '/media/hls/master.m3u8'];
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answers = await Promise.all(checks.map((p) => probe(`https://127.0.0.1:${ports.site}${p}`, ca)));
    if (answers.every((a) => a === 200) && (await probe(`https://127.0.0.1:${ports.ads}/ads/vast/skippable.xml`, ca)) === 200) return { child, exited };
    if (gone || Date.now() > deadline) {
      child.kill();
      const log = await readFile(join(dir, 'error.log'), 'utf8').catch(() => '');
      throw new Error(`nginx did not serve the deploy (${checks.map((p, i) => `${p}: ${answers[i]}`).join(', ')})${gone ? ', it exited' : ''}: ${log.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface ServeArgs {
  dir: string;
  dist: string;
  builtConf: string;
  tls: { cert: string; key: string; pem: Buffer };
  linkOptions: LinkOptions | undefined;
  options: DeployOptions;
}

/** The site written and nginx started on free ports (tried again on other ports when one was taken meanwhile). */
async function serve({ dir, dist, builtConf, tls, linkOptions, options }: ServeArgs) {
  for (let attempt = 1; ; attempt++) {
    const ports = { site: await freePort(), ads: await freePort() };
    const link = linkOptions ? await switchedLink(linkOptions, [ports.site, ports.ads]) : undefined;
    const origin = `https://127.0.0.1:${link?.ports[0] ?? ports.site}`;
    const adsOrigin = `https://127.0.0.1:${link?.ports[1] ?? ports.ads}`;
    const www = join(dir, 'www');
    await rm(www, { recursive: true, force: true });
    await writeSite(www, dist, options.adLists, adsOrigin);
    const site = renderNginxConf(builtConf, { root: www, port: ports.site }) as string;
    await writeFile(join(dir, 'player.conf'), withTlsAndProxies(site, { ...ports, ...tls, serverPort: options.serverPort, adServerPort: options.adServerPort }));
    await writeFile(join(dir, 'nginx.conf'), nginxMainConf(dir, BROTLI_MODULE));
    try {
      return { nginx: await startNginx(dir, ports, tls.pem), origin, adsOrigin, link };
    } catch (err) {
      await link?.close();
      if (attempt < 3 && /Address already in use/.test(String(err))) continue;
      throw err;
    }
  }
}

/** Starts the deploy the command line or environment asks for; undefined when none (the reference server's own pages). */
export async function startDeploy(argv: string[], options: DeployOptions): Promise<Deploy | undefined> {
  const want = wanted(argv, process.env);
  if (!want) return undefined;
  const dist = resolve(process.env.DIST_DIR ?? join(repo, 'dist'));
  const builtConf = await readFile(`${dist}.nginx.conf`, 'utf8');
  const dir = await mkdtemp(join(tmpdir(), 'bench-deploy-'));
  let link: SwitchedLink | undefined;
  try {
    const tls = makeCertificate(dir);
    let linkNote = '';
    let linkOptions: LinkOptions | undefined;
    if (want.trace) {
      const down = readTrace(want.trace);
      const upFile = want.trace.replace(/\.down$/, '.up');
      const up = upFile !== want.trace && existsSync(upFile) ? readTrace(upFile) : down;
      linkOptions = { down, up, delayMs: want.delayMs };
      const mbps = (bits: number) => (bits / 1e6).toFixed(2);
      linkNote = `; network: bench/link.ts on ${basename(want.trace)} (${mbps(meanBitsPerSecond(down))} Mb/s down, ${mbps(meanBitsPerSecond(up))} up, mean), ${2 * want.delayMs} ms round trip, a fresh link for every page, no DevTools emulation`;
    }
    const served = await serve({ dir, dist, builtConf, tls, linkOptions, options });
    const { nginx, origin, adsOrigin } = served;
    link = served.link;
    const version = /nginx\/[\d.]+/.exec(spawnSync(ensureNginx() as string, ['-v'], { encoding: 'utf8' }).stderr)?.[0] ?? 'nginx';
    return {
      describe:
        `${version} (Debian) in front: TLS (self-signed, trusted by SPKI) and HTTP/2 at ${origin}, dist/ under dist.nginx.conf ` +
        `(${BROTLI_MODULE ? 'brotli_static: the build’s .br files' : 'gzip_static only: no brotli module (Debian: libnginx-mod-http-brotli-static), so larger files than the reference server’s'}), ` +
        `API and media proxied to the reference server, the ad server behind ${adsOrigin}${linkNote}`,
      origin,
      path: (path, adList) => (adList === undefined ? path : path.replace(/^\/player\//, `/${folderOf(options.adLists, adList)}/`)),
      chromiumFlags: [`--ignore-certificate-errors-spki-list=${tls.spki}`],
      link: link ? { roundTripMs: 2 * want.delayMs } : undefined,
      beforePage: async () => link?.fresh(),
      async close() {
        nginx.child.kill();
        await nginx.exited;
        await link?.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await link?.close();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
