// ESM resolve hook registered by run.mjs: `import('typescript')` from inside dependency-cruiser
// resolves from this folder, where npm nests typescript 6. Every other import is left alone.
const here = new URL('./package.json', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const isTypescript = specifier === 'typescript' || specifier.startsWith('typescript/');
  if (isTypescript && context.parentURL?.includes('/node_modules/dependency-cruiser/')) {
    return nextResolve(specifier, { ...context, parentURL: here });
  }
  return nextResolve(specifier, context);
}
