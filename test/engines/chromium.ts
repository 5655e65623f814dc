// Chromium through playwright-core, under the browser's real autoplay policy (sound needs a gesture),
// unlike test/e2e's Chromium, which allows it.
import { chromium } from 'playwright-core';
// @ts-expect-error: plain JS
import { CHROMIUM_FLAGS } from '../../scripts/find-chromium.mjs';
import { type Engine, type RawTab, asJson, consoleKeeper } from './driver';

const ARGS = [...CHROMIUM_FLAGS, '--autoplay-policy=document-user-activation-required'];

export async function launchChromium(): Promise<Engine> {
  const executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath) throw new Error('CHROMIUM_PATH is not set: run the engine journeys through `npm test` or `npm run test:engines`.');
  const browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
  return {
    name: 'chromium',
    version: browser.version(),
    async newTab(viewport): Promise<RawTab> {
      const context = await browser.newContext({ viewport, locale: 'ru-RU' });
      const page = await context.newPage();
      const logs = consoleKeeper();
      page.on('console', (m) => logs.keep(m.type(), m.text()));
      page.on('pageerror', (err) => logs.keep('error', String(err)));
      // Playwright's own evaluate runs as a user gesture: the page would be allowed sound, ads and
      // the film alike, as soon as a journey first polled it. The top page is read without one.
      const cdp = await context.newCDPSession(page);
      const evaluateTop = async (expression: string) => {
        const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression: asJson(expression), awaitPromise: true, returnByValue: true, userGesture: false });
        if (exceptionDetails) throw new Error(`chromium: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
        return result.value === undefined ? undefined : JSON.parse(result.value as string);
      };
      const target = (frameUrl?: string) => {
        if (!frameUrl) return page;
        const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().includes(frameUrl));
        if (!frame) throw new Error(`chromium: no frame with ${frameUrl}`);
        return frame;
      };
      return {
        goto: async (url) => void (await page.goto(url)),
        evaluate: async (expression, frameUrl) => (frameUrl ? target(frameUrl).evaluate(expression) : evaluateTop(expression)),
        mouseMove: (x, y) => page.mouse.move(x, y),
        mouseClick: (x, y) => page.mouse.click(x, y),
        press: (key) => page.keyboard.press(key === ' ' ? 'Space' : key),
        type: (text) => page.keyboard.type(text),
        screenshot: () => page.screenshot(),
        setViewport: (size) => page.setViewportSize(size),
        close: () => context.close(),
        logged: logs.logged,
      };
    },
    close: () => browser.close(),
  };
}
