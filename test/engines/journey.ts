// uvu's `test` for the engine journeys, with one rule of its own. A journey whose browser stopped
// answering its driver (`isUnresponsive`: WebKitGTK's page, now and then on a loaded machine) has no
// outcome yet: it runs once more in a new browser, after its file's before.each hooks, and the run
// says so. A failed assertion, or a wait that ran out while the browser answered, fails as it is.
import { type Callback, test as uvu } from 'uvu';
import { isUnresponsive } from './driver';

type Hooks = { beforeEach: Callback[]; afterEach: Callback[] };
/** This file's hooks: uvu's `run()` ends a file's registrations. */
let hooks: Hooks = { beforeEach: [], afterEach: [] };

function journey(name: string, fn: Callback): void {
  const mine = hooks;
  uvu(name, async (ctx) => {
    try {
      await fn(ctx);
    } catch (err) {
      if (!isUnresponsive(err)) throw err;
      console.warn(`  "${name}": ${(err as Error).message}; the journey runs once more in a new browser`);
      for (const h of mine.afterEach) await h(ctx);
      for (const h of mine.beforeEach) await h(ctx);
      await fn(ctx);
    }
  });
}

const hook = (to: 'before' | 'after', each: keyof Hooks) =>
  Object.assign((fn: Callback) => uvu[to](fn), {
    each: (fn: Callback) => {
      hooks[each].push(fn);
      uvu[to].each(fn);
    },
  });

export const test = Object.assign(journey, {
  only: uvu.only,
  skip: uvu.skip,
  before: hook('before', 'beforeEach'),
  after: hook('after', 'afterEach'),
  run: () => {
    hooks = { beforeEach: [], afterEach: [] };
    uvu.run();
  },
});
