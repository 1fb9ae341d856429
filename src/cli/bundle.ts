/**
 * Build step: bundles the compiled CLI (`dist/cli/main.js`, written by tsc) into a few files with
 * esbuild, in place. Node 20 has no compile cache, and loading some 140 modules of ours and the 72
 * CommonJS files of `yaml` one by one (resolve, read, compile each) cost a command about 75 ms.
 * Each command's lazy import stays a chunk of its own (`dist/bundle/`), so `--help` still loads
 * almost nothing. The chunks sit two levels under the package root as the modules did, so paths
 * they resolve from `import.meta.url` (package.json, schemas/) stay the same.
 */
import { copyFile } from 'node:fs/promises';
import { build } from 'esbuild';

const entry = 'dist/cli/main.js';

await build({
  entryPoints: { 'cli/main': entry },
  outdir: 'dist',
  allowOverwrite: true,
  chunkNames: 'bundle/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  logLevel: 'warning',
  // Loaded at run time through `createRequire` (the CEL library, ajv's compiler and its runtime for
  // the precompiled validator): they stay packages of their own.
  external: ['@marcbachmann/cel-js', 'ajv', 'ajv/*'],
  // Bundled CommonJS (yaml) requires Node's built-ins; an ES module has no `require` of its own.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
});

// The structural validator loads beside the module that runs it (`schema-check.ts`).
await copyFile('dist/config/schema-validator.generated.js', 'dist/bundle/schema-validator.generated.js');
