// Firefox ESR through puppeteer-core over WebDriver BiDi (playwright-core's BiDi client asks this ESR
// for commands it does not have). Firefox's own autoplay policy: sound needs a gesture.
import puppeteer, { type Frame, type Page } from 'puppeteer-core';
import { type Engine, type RawTab, asJson, consoleKeeper } from './driver';

const PREFS = {
  // Firefox's default for the web (puppeteer's profile allows everything): audible autoplay blocked.
  'media.autoplay.default': 1,
  'media.autoplay.blocking_policy': 0,
  'intl.accept_languages': 'ru-RU, ru',
  // Firefox's own picture-in-picture toggle stays on, as a viewer has it: the player turns it off on
  // its videos (disablePictureInPicture), so it takes no clicks meant for the menus at the right edge.
};

/** BiDi's script.evaluate as puppeteer sends it, less the user activation it adds (the page would be allowed sound). */
interface BidiRealm {
  evaluate(expression: string, awaitPromise: boolean, options: object): Promise<{ type: 'success'; result: { type: string; value?: unknown } } | { type: 'exception'; exceptionDetails: { text: string } }>;
}

export async function evaluateWithoutGesture(target: Page | Frame, expression: string): Promise<unknown> {
  const frame = ('mainFrame' in target ? target.mainFrame() : target) as unknown as { browsingContext: { defaultRealm: BidiRealm } };
  const answer = await frame.browsingContext.defaultRealm.evaluate(asJson(expression), true, { userActivation: false, resultOwnership: 'none' });
  if (answer.type === 'exception') throw new Error(`firefox: ${answer.exceptionDetails.text}`);
  return answer.result.type === 'string' ? JSON.parse(answer.result.value as string) : undefined;
}

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
      const logs = consoleKeeper();
      page.on('console', (m) => logs.keep(m.type(), m.text()));
      page.on('pageerror', (err) => logs.keep('error', String(err)));
      const target = (frameUrl?: string): Page | Frame => {
        if (!frameUrl) return page;
        const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().includes(frameUrl));
        if (!frame) throw new Error(`firefox: no frame with ${frameUrl}`);
        return frame;
      };
      return {
        goto: async (url) => void (await page.goto(url)),
        evaluate: async (expression, frameUrl) => evaluateWithoutGesture(target(frameUrl), expression),
        mouseMove: (x, y) => page.mouse.move(x, y),
        mouseClick: (x, y) => page.mouse.click(x, y),
        press: (key) => page.keyboard.press(key as Parameters<typeof page.keyboard.press>[0]),
        type: (text) => page.keyboard.type(text),
        screenshot: async () => Buffer.from(await page.screenshot()),
        setViewport: (size) => page.setViewport(size),
        close: () => context.close(),
        logged: logs.logged,
      };
    },
    close: () => browser.close(),
  };
}
