// WebKitGTK's MiniBrowser through WebKitWebDriver (W3C WebDriver), in an Xvfb display of its own.
// Safari's autoplay rule: muted playback may start by itself, sound needs a gesture.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Engine, type RawTab, type Viewport, asJson, isUnresponsive } from './driver';
import { newSession } from './webdriver';
// @ts-expect-error: plain JS modules
import { freePort } from '../../scripts/free-port.mjs';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the engine journeys through \`npm test\` or \`npm run test:engines\`.`);
  return value;
};


/** Starts Xvfb on a display it picks itself (-displayfd) and returns ':N'. */
function startXvfb(path: string, logFile: string): Promise<{ display: string; proc: ChildProcess }> {
  const out = openSync(logFile, 'a');
  const proc = spawn(path, ['-displayfd', '3', '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'], { stdio: ['ignore', out, out, 'pipe'] });
  closeSync(out);
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
    proc.stdio[3]!.once('data', (d: Buffer) => resolve({ display: `:${d.toString().trim()}`, proc }));
  });
}

const SESSION_START_MS = 60000;
/** How long a session's MiniBrowser may take to appear among the driver's processes. */
const BROWSER_GRACE_MS = 10000;

async function waitReady(base: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`${base}/status`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('WebKitWebDriver did not answer within 10 s');
}

export async function launchWebKit(): Promise<Engine> {
  const [driverPath, browserPath, xvfbPath] = [env('WEBKIT_WEBDRIVER_PATH'), env('MINIBROWSER_PATH'), env('XVFB_PATH')];
  // What Xvfb, the driver and its browsers print (MiniBrowser's own messages): read when a start gets stuck.
  const logFile = join(tmpdir(), `engines-webkit-${process.pid}.log`);
  writeFileSync(logFile, '');
  const xvfb = await startXvfb(xvfbPath, logFile);
  let driver: ChildProcess | undefined;
  let base = '';
  const logSince = (offset: number) => readFileSync(logFile).subarray(offset).toString().trim().split('\n').slice(-10).join(' | ') || 'nothing';
  // The driver in a session and process group of its own, so that a stuck one goes with the MiniBrowsers it started.
  const stopDriver = () => {
    if (driver?.pid) {
      try {
        process.kill(-driver.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    driver = undefined;
  };
  const startDriver = async () => {
    const port = await freePort();
    const out = openSync(logFile, 'a');
    driver = spawn(driverPath, [`--port=${port}`, '--host=127.0.0.1'], { stdio: ['ignore', out, out], detached: true, env: { ...process.env, DISPLAY: xvfb.display } });
    closeSync(out);
    base = `http://127.0.0.1:${port}`;
    await waitReady(base);
  };
  const stop = () => {
    stopDriver();
    xvfb.proc.kill();
    rmSync(logFile, { force: true });
  };
  try {
    await startDriver();
  } catch (err) {
    stop();
    throw err;
  }
  /** The driver's processes (its session), as `ps` sees them. */
  const processes = () => {
    try {
      return execFileSync('ps', ['-o', 'pid=,stat=,etimes=,pcpu=,comm=', '-s', String(driver?.pid)]).toString().trim().replace(/\s*\n\s*/g, '; ');
    } catch {
      return 'none';
    }
  };
  /**
   * A session (a new MiniBrowser), given up on when its browser is gone. A healthy one starts in under
   * 7 s even at a load of 17 on 2 cores (210 starts measured). Now and then (4 starts in about 90 in
   * whole runs of the journeys, never in empty starts) MiniBrowser exits at once ('cannot open
   * display', its Xvfb alive), and the driver then waits on it for good: seen as no MiniBrowser among
   * the driver's processes, that start is abandoned within seconds instead of a minute.
   */
  const attempt = async () => {
    const asked = Date.now();
    const gone = new AbortController();
    const watch = setInterval(() => {
      if (Date.now() - asked > BROWSER_GRACE_MS && !processes().includes('MiniBrowser')) gone.abort(new Error('its MiniBrowser exited'));
    }, 1000);
    try {
      return await newSession(base, capabilities, SESSION_START_MS, gone.signal);
    } finally {
      clearInterval(watch);
    }
  };
  /** On a stuck start, that driver and its browsers are replaced and the start tried again, what they printed logged. */
  const session = async () => {
    const logFrom = statSync(logFile).size;
    try {
      return await attempt();
    } catch (err) {
      console.warn(`webkit: no session (${(err as Error).message}); a new driver. The old one's processes: ${processes()}; printed meanwhile: ${logSince(logFrom)}`);
      stopDriver();
      await startDriver();
      return attempt();
    }
  };
  const capabilities = {
    'webkitgtk:browserOptions': { binary: browserPath, args: ['--automation', '--autoplay-policy=allow-without-sound'] },
  };
  let version = '';
  return {
    name: 'webkit',
    get version() {
      return version;
    },
    async newTab(viewport): Promise<RawTab> {
      const s = await session();
      version = String(s.capabilities.browserVersion ?? '');
      let frame: string | undefined;
      const into = async (frameUrl: string | undefined) => {
        if (frameUrl === frame) return;
        await s.switchToFrame(frameUrl);
        frame = frameUrl;
      };
      // The window's size less the page's: MiniBrowser's own toolbar, measured once.
      const setViewport = async ({ width, height }: Viewport) => {
        await into(undefined);
        await s.command('POST', '/window/rect', { width, height });
        const inner = (await s.execute('return [innerWidth, innerHeight]')) as [number, number];
        await s.command('POST', '/window/rect', { width: width * 2 - inner[0], height: height * 2 - inner[1] });
      };
      await setViewport(viewport);
      return {
        goto: async (url) => {
          await into(undefined);
          await s.command('POST', '/url', { url });
        },
        evaluate: async (expression, frameUrl) => {
          await into(frameUrl);
          // As JSON text, as in the other engines: only a string crosses the driver's own serializer.
          const text = await s.execute(`return ${asJson(expression)}`);
          return typeof text === 'string' ? JSON.parse(text) : undefined;
        },
        mouseMove: async (x, y) => {
          await into(undefined);
          await s.pointer(x, y, false);
        },
        mouseClick: async (x, y) => {
          await into(undefined);
          await s.pointer(x, y, true);
        },
        press: (key) => s.keys(key),
        type: (text) => s.keys(text),
        screenshot: async () => {
          await into(undefined);
          return Buffer.from(String(await s.command('GET', '/screenshot')), 'base64');
        },
        setViewport,
        close: async () => {
          try {
            await s.command('DELETE', '');
          } catch (err) {
            if (!isUnresponsive(err)) return;
            // A MiniBrowser that answers nothing is not closed by its driver either: both go, and a new driver comes.
            console.warn(`webkit: the session did not close (${(err as Error).message}); a new driver. The old one's processes: ${processes()}`);
            stopDriver();
            await startDriver();
          }
        },
      };
    },
    close: async () => stop(),
  };
}
