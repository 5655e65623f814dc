import { useEffect, useState } from 'react';
import { type Widgets, loadWidget } from '../core/widgets';

/** The module of a lazy piece once it has loaded (undefined until then, or if it failed). */
export function useWidget<K extends keyof Widgets>(name: K, assetBase: string): Widgets[K] | undefined {
  const [mod, setMod] = useState<Widgets[K]>();
  useEffect(() => {
    let live = true;
    loadWidget(name, assetBase).then(
      (m) => live && setMod(() => m),
      (err) => console.error(`[player] widget ${name} failed to load`, err),
    );
    return () => {
      live = false;
    };
  }, [name, assetBase]);
  return mod;
}
