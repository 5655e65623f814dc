// The page inside the sandboxed VPAID frame (dist/vpaid.html). Loaded as a classic script next to
// the creative's, so it imports nothing and declares nothing global: the creative owns the globals.
(() => {
  interface VpaidAd {
    handshakeVersion(version: string): string;
    initAd(w: number, h: number, viewMode: string, bitrate: number, creative: object, env: object): void;
    startAd(): void;
    resizeAd(w: number, h: number, viewMode: string): void;
    stopAd(): void;
    skipAd(): void;
    pauseAd(): void;
    resumeAd(): void;
    setAdVolume(v: number): void;
    getAdRemainingTime(): number;
    getAdDuration(): number;
    subscribe(fn: (...args: unknown[]) => void, event: string, ctx?: unknown): void;
  }
  const TAG = 'embed-player-vpaid';
  const EVENTS = [
    'AdLoaded', 'AdStarted', 'AdStopped', 'AdSkipped', 'AdPaused', 'AdPlaying', 'AdVideoStart',
    'AdVideoFirstQuartile', 'AdVideoMidpoint', 'AdVideoThirdQuartile', 'AdVideoComplete',
    'AdImpression', 'AdClickThru', 'AdError', 'AdUserClose',
  ];
  const parentWindow = window.parent;
  const post = (event: string, data: Record<string, unknown> = {}) => parentWindow.postMessage({ tag: TAG, event, ...data }, '*');
  const fail = (message: string) => post('AdError', { message });
  let ad: VpaidAd | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;

  document.documentElement.style.cssText = 'margin:0;height:100%;background:#000;overflow:hidden';
  document.body.style.cssText = 'margin:0;height:100%;position:relative';
  const slot = document.createElement('div');
  slot.style.cssText = 'position:absolute;inset:0';
  const video = document.createElement('video');
  video.playsInline = true;
  video.style.cssText = 'width:100%;height:100%;object-fit:contain;background:#000';
  slot.append(video);
  document.body.append(slot);

  const viewModeOf = (v: unknown) => (v === 'fullscreen' ? 'fullscreen' : 'normal');

  function init(m: { url?: unknown; params?: unknown; width?: unknown; height?: unknown; viewMode?: unknown; volume?: unknown }): void {
    if (ad || typeof m.url !== 'string' || !/^https?:\/\//i.test(m.url)) return fail('bad creative URL');
    const script = document.createElement('script');
    script.src = m.url;
    script.onerror = () => fail('creative failed to load');
    script.onload = () => {
      try {
        const get = (window as unknown as { getVPAIDAd?: () => VpaidAd }).getVPAIDAd;
        if (typeof get !== 'function') return fail('getVPAIDAd is missing');
        const a = get();
        const version = String(a.handshakeVersion('2.0'));
        if (!/^2\./.test(version)) return fail(`unsupported VPAID version ${version}`);
        ad = a;
        for (const name of EVENTS) {
          a.subscribe(
            (...args: unknown[]) =>
              name === 'AdClickThru'
                ? post(name, { url: args[0], playerHandles: args[2] === true })
                : post(name, name === 'AdError' ? { message: String(args[0] ?? '') } : {}),
            name,
          );
        }
        timer = setInterval(() => {
          const duration = Number(a.getAdDuration());
          const remaining = Number(a.getAdRemainingTime());
          if (duration > 0 && remaining >= 0) post('time', { currentTime: duration - remaining, duration });
        }, 250);
        a.initAd(Number(m.width) || 640, Number(m.height) || 360, viewModeOf(m.viewMode), 500, { AdParameters: typeof m.params === 'string' ? m.params : '' }, {
          slot,
          videoSlot: video,
          videoSlotCanAutoPlay: true,
        });
        if (typeof m.volume === 'number') a.setAdVolume(m.volume);
      } catch (err) {
        fail(err instanceof Error ? err.message : String(err));
      }
    };
    document.head.append(script);
  }

  window.addEventListener('message', (e: MessageEvent) => {
    const m = e.data as { tag?: unknown; cmd?: unknown; value?: unknown; width?: unknown; height?: unknown; viewMode?: unknown } | null;
    if (e.source !== parentWindow || !m || m.tag !== TAG || typeof m.cmd !== 'string') return;
    if (m.cmd === 'init') return init(m as Parameters<typeof init>[0]);
    if (!ad) return;
    try {
      if (m.cmd === 'startAd') ad.startAd();
      else if (m.cmd === 'pauseAd') ad.pauseAd();
      else if (m.cmd === 'resumeAd') ad.resumeAd();
      else if (m.cmd === 'skipAd') ad.skipAd();
      else if (m.cmd === 'stopAd') {
        clearInterval(timer);
        ad.stopAd();
      } else if (m.cmd === 'setAdVolume' && typeof m.value === 'number') ad.setAdVolume(m.value);
      else if (m.cmd === 'resizeAd' && Number(m.width) > 0 && Number(m.height) > 0)
        ad.resizeAd(Number(m.width), Number(m.height), viewModeOf(m.viewMode));
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err));
    }
  });
  post('frame-ready');
})();
