// The nginx configuration of the bench's production-like deploy (bench/deploy-nginx.ts): the conf the
// build wrote for dist/ (its policy, cache rules and types untouched), listening with TLS and HTTP/2, plus
// what a real deploy puts beside it: the API, media and ad list proxied to their servers, the bare
// hls.js page, and the ad server as a second https origin.

// nginx's main file as Debian's /etc/nginx/nginx.conf frames a conf.d file, in a temp folder: its own
// pid, logs and temp paths, in the foreground, one process (as the static-deploy e2e runs it). With
// Debian's brotli_static module (the conf's own comment names it) NAME.br goes to clients that accept
// br, as the reference server does; without it they get the gzip copies, larger by a fifth.
export const nginxMainConf = (dir: string, brotliModule?: string) => `${brotliModule ? `load_module ${brotliModule};\n` : ''}daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/tmp-body;
  proxy_temp_path ${dir}/tmp-proxy;
  fastcgi_temp_path ${dir}/tmp-fastcgi;
  uwsgi_temp_path ${dir}/tmp-uwsgi;
  scgi_temp_path ${dir}/tmp-scgi;
  sendfile on;
  tcp_nopush on;
  default_type application/octet-stream;
  gzip on;${brotliModule ? '\n  brotli_static on;' : ''}
  gzip_types application/json application/xml application/vnd.apple.mpegurl;
  ssl_protocols TLSv1.2 TLSv1.3;
  ssl_session_cache shared:SSL:1m;
  include ${dir}/player.conf;
}
`;

interface TlsAndProxies {
  /** nginx's port for the player's site, and for the ad server's origin. */
  site: number;
  ads: number;
  cert: string;
  key: string;
  /** The reference servers behind them. */
  serverPort: number;
  adServerPort: number;
}

// The reference server writes absolute addresses (the catalogue's media, the ad list's VAST, VAST's pixels
// and media) as http://HOST it was asked for; behind TLS they must say https, as a real API behind a
// TLS proxy would. Its answers come uncompressed so the rewrite sees the text, and nginx compresses them.
const proxyTo = (port: number) => `proxy_pass http://127.0.0.1:${port};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header Accept-Encoding "";
        sub_filter "http://$http_host" "https://$http_host";
        sub_filter_once off;
        sub_filter_types application/json application/xml;`;

const tls = (port: number, o: TlsAndProxies) => `listen 127.0.0.1:${port} ssl http2;
    ssl_certificate ${o.cert};
    ssl_certificate_key ${o.key};`;

/** `site` (dist.nginx.conf rendered for its root and port) served over TLS and HTTP/2, with the proxies and the ad server's origin. */
export function withTlsAndProxies(site: string, o: TlsAndProxies): string {
  const listen = new RegExp(`^\\s*listen ${o.site};$`, 'm');
  if (!listen.test(site)) throw new Error(`dist.nginx.conf: no "listen ${o.site};" line after rendering`);
  // ^~ prefixes and exact matches win over the conf's regex locations (its .html rule would put the player's policy on the bare page).
  const proxied = ['/catalog-api/', '/media/', '/ads/', '/api/', '/authenticator/']
    .map((prefix) => `\n    location ^~ ${prefix} {\n        ${proxyTo(o.serverPort)}\n    }`)
    .join('');
  const added = `${tls(o.site, o)}
    location = /ad-list.json {
        ${proxyTo(o.serverPort)}
    }${proxied}
    # The bench's reference page and hls.js, with server/bench.mjs's cache rules (hls.js as a CDN serves a versioned library).
    location = /bench/hls.html {
        add_header Cache-Control "no-cache" always;
    }
    location = /bench/hls.mjs {
        add_header Cache-Control "public, max-age=31536000, immutable" always;
    }`;
  const ads = `
server {
    ${tls(o.ads, o)}
    location / {
        ${proxyTo(o.adServerPort)}
    }
}
`;
  return site.replace(listen, `    ${added}`) + ads;
}
