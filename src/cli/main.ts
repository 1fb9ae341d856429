#!/usr/bin/env node
/**
 * The `acctsync` executable. The build bundles the dispatch and everything it loads into CommonJS
 * files under `dist/bundle/` (`src/cli/bundle.ts`), loaded through V8's code cache
 * (`cached-script.ts`): compiling them was a large share of a command's start. Node 22.1 and later
 * also keep the compiled code of ES modules in a cache of their own (`module.enableCompileCache`),
 * which has to be turned on before those modules load. Where no bundle was built, the dispatch loads
 * as an ES module.
 */
import module from 'node:module';
import { requireCached } from '../cached-script.js';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
if (!loadBundle()) await import('./dispatch.js');

function loadBundle(): boolean {
  try {
    requireCached(new URL('../bundle/dispatch.cjs', import.meta.url));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
