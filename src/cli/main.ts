#!/usr/bin/env node
/**
 * The `acctsync` executable. Node 22.1 and later keep the compiled code of the modules a command
 * loads in a cache on disk (`module.enableCompileCache`), so the next command starts faster; it has
 * to be turned on before those modules load, hence the dispatch imported after it. Where the cache
 * cannot be written, or on Node 20, this changes nothing.
 */
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./dispatch.js');
