/**
 * Build step: bundles the compiled CLI (`dist/cli/main.js`, written by tsc) into a few files with
 * esbuild, in place. Node 20 has no compile cache, and loading some 140 modules of ours and the 72
 * CommonJS files of `yaml` one by one (resolve, read, compile each) cost a command about 75 ms.
 * Each command's lazy import stays a chunk of its own (`dist/bundle/`), so `--help` still loads
 * almost nothing. The chunks sit two levels under the package root as the modules did, so paths
 * they resolve from `import.meta.url` (package.json, schemas/) stay the same.
 */
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { build, transform, type Plugin } from 'esbuild';
import { cacheKeyMarker } from '../cached-script.js';

const entry = 'dist/cli/main.js';

/**
 * The CEL library loads on first use through a `require` of its own (`cel-library.ts`): from the
 * package that is 14 modules resolved and compiled one by one. The build bundles the library into
 * one file beside the chunks, and that `require` loads it. Not into the chunks: every command
 * that declares resources (`serve` too) would then parse it, used or not.
 */
const celLibraryFile = 'cel-js.js';
const celLibraryBundled: Plugin = {
  name: 'cel-library-bundled',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]cel-library\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const specifier = "require('@marcbachmann/cel-js')";
      if (!source.includes(specifier))
        throw new Error(`${args.path}: no ${specifier} to point at the bundle`);
      return { contents: source.replace(specifier, `require('./${celLibraryFile}')`), loader: 'js' };
    });
  },
};

// Chunks are named by their content: a rebuild would leave the previous ones beside the new.
await rm('dist/bundle', { recursive: true, force: true });
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
  // Loaded at run time through `createRequire` (ajv's compiler where no build ran, its runtime for
  // the precompiled validator): they stay a package of their own.
  external: ['ajv', 'ajv/*'],
  plugins: [celLibraryBundled],
  // Bundled CommonJS (yaml) requires Node's built-ins; an ES module has no `require` of its own.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
});

await build({
  entryPoints: ['@marcbachmann/cel-js'],
  outfile: `dist/bundle/${celLibraryFile}`,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  logLevel: 'warning',
});

// The structural validator loads beside the module that runs it (`schema-check.ts`), as CommonJS
// so that it loads through V8's code cache (`cached-script.ts`; the first line keys the cache).
// Minified: V8 reads all of it at load; a quarter less text imports about 6 ms faster.
const validator = await readFile('dist/config/schema-validator.generated.js', 'utf8');
const { code } = await transform(validator, {
  minify: true,
  format: 'cjs',
  target: 'node20.19',
  // The module's own `require` (its ESM preamble makes one from its URL) is CommonJS's.
  define: { 'import.meta.url': '__filename' },
});
const cacheKey = createHash('sha256').update(code).digest('hex').slice(0, 32);
await writeFile('dist/bundle/schema-validator.generated.cjs', `${cacheKeyMarker}${cacheKey}\n${code}`);
