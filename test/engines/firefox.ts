// Firefox ESR through puppeteer-core over WebDriver BiDi (playwright-core's BiDi client asks this ESR
// for commands it does not have). Firefox's own autoplay policy: sound needs a gesture.
import puppeteer, { type Frame, type Page } from 'puppeteer-core';
import type { Engine, RawTab } from './driver';

const PREFS = {
  // Firefox's default for the web (puppeteer's profile allows everything): audible autoplay blocked.
  'media.autoplay.default': 1,
  'media.autoplay.blocking_policy': 0,
  'intl.accept_languages': 'ru-RU, ru',
  // Firefox's own picture-in-picture toggle sits on the video's right edge, over the player's menu,
  // and takes the clicks meant for it (a viewer's Firefox does the same: see the report in issue 24).
  'media.videocontrols.picture-in-picture.video-toggle.enabled': false,
};

export async function launchFirefox(): Promise<Engine> {
  const executablePath = process.env.FIREFOX_PATH;
  if (!executablePath) throw new Error('FIREFOX_PATH is not set: run the engine journeys through `npm test` or `npm run test:engines`.');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    protocol: 'webDriverBiDi',
    extraPrefsFirefox: PREFS,
  });
  return {
    name: 'firefox',
    version: (await browser.version()).replace(/^firefox\//, ''),
    async newTab(viewport): Promise<RawTab> {
      const context = await browser.createBrowserContext();
      const page: Page = await context.newPage();
      await page.setViewport(viewport);
      const target = (frameUrl?: string): Page | Frame => {
        if (!frameUrl) return page;
        const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().includes(frameUrl));
        if (!frame) throw new Error(`firefox: no frame with ${frameUrl}`);
        return frame;
      };
      return {
        goto: async (url) => void (await page.goto(url)),
        evaluate: async (expression, frameUrl) => target(frameUrl).evaluate(expression),
        mouseMove: (x, y) => page.mouse.move(x, y),
        mouseClick: (x, y) => page.mouse.click(x, y),
        press: (key) => page.keyboard.press(key as Parameters<typeof page.keyboard.press>[0]),
        type: (text) => page.keyboard.type(text),
        screenshot: async () => Buffer.from(await page.screenshot()),
        setViewport: (size) => page.setViewport(size),
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}
