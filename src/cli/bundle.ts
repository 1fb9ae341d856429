/**
 * SECOND PATH (issue 46), with `cached-script.ts`: kept for a command's start; the first path is
 * the ES modules tsc writes to `dist/`, which `dist/cli/dispatch.js` runs as they are. Measured by `npm run bench -- --only second-paths`
 * (docs/performance.md, "Second paths").
 *
 * Build step: bundles the compiled CLI (written by tsc) into a few files with esbuild. Loading some
 * 140 modules of ours and the 72 CommonJS files of `yaml` one by one (resolve, read, compile each)
 * cost a command about 75 ms. The dispatch and what it loads go to `dist/bundle/`, each command's
 * lazy import a chunk of its own, so `--help` still loads almost nothing. The chunks are CommonJS,
 * loaded by `dist/cli/main.js` through V8's code cache (`cached-script.ts`): Node 20 keeps no
 * compile cache, and compiling was the largest share of what was left of a start. The chunks sit two
 * levels under the package root as the modules did, so paths they resolve from `import.meta.url`
 * (package.json, schemas/) stay the same.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, transform, type Plugin } from 'esbuild';
import { cacheKeyMarker } from '../cached-script.js';

const target = 'node20.19';

/**
 * The CEL library loads on first use through a `require` of its own (`cel-library.ts`): from the
 * package that is 14 modules resolved and compiled one by one. The build bundles the library into
 * one file beside the chunks, and that `require` becomes a load of it through the code cache. Not
 * into the chunks: every command that declares resources (`serve` too) would then parse it, used or
 * not.
 */
const celLibraryFile = 'cel-js.cjs';
const cachedScriptModule = fileURLToPath(new URL('../cached-script.js', import.meta.url));
const celLibraryBundled: Plugin = {
  name: 'cel-library-bundled',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]cel-library\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const specifier = "require('@marcbachmann/cel-js')";
      if (!source.includes(specifier))
        throw new Error(`${args.path}: no ${specifier} to point at the bundle`);
      const load = `requireCached(new URL('./${celLibraryFile}', import.meta.url))`;
      const contents = `import { requireCached } from ${JSON.stringify(cachedScriptModule)};\n${source.replace(specifier, load)}`;
      return { contents, loader: 'js' };
    });
  },
};

/** The entry's fallback, for a `dist/` where no bundle was built: left as the import it is. */
const dispatchUnbundled: Plugin = {
  name: 'dispatch-unbundled',
  setup(b) {
    b.onResolve({ filter: /^\.\/dispatch\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * An ES module of the bundle made CommonJS, its import of another chunk a `require` (a dynamic one
 * a `require` on the next tick, as an `import()` resolves), `import.meta.url` its own file's URL.
 */
async function commonJs(esm: string): Promise<string> {
  const { code } = await transform(esm, {
    format: 'cjs',
    target,
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: `"use strict";\nconst __importMetaUrl = require("node:url").pathToFileURL(__filename).href;`,
  });
  return code;
}

/** The first line keys the file's code cache: a hash of the content. */
async function writeCached(file: string, code: string): Promise<void> {
  const key = createHash('sha256').update(code).digest('hex').slice(0, 32);
  await writeFile(file, `${cacheKeyMarker}${key}\n${code}`);
}

// Chunks are named by their content: a rebuild would leave the previous ones beside the new.
await rm('dist/bundle', { recursive: true, force: true });
await mkdir('dist/bundle');
const { outputFiles } = await build({
  entryPoints: { dispatch: 'dist/cli/dispatch.js' },
  outdir: 'dist/bundle',
  chunkNames: '[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target,
  write: false,
  logLevel: 'warning',
  // Loaded at run time through `createRequire` (ajv's compiler where no build ran, its runtime for
  // the precompiled validator): they stay a package of their own.
  external: ['ajv', 'ajv/*'],
  plugins: [celLibraryBundled],
});
for (const out of outputFiles) await writeCached(out.path, await commonJs(out.text));

await build({
  entryPoints: ['dist/cli/main.js'],
  outfile: 'dist/cli/main.js',
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target,
  sourcemap: true,
  logLevel: 'warning',
  plugins: [dispatchUnbundled],
});

const cel = await build({
  entryPoints: ['@marcbachmann/cel-js'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target,
  write: false,
  logLevel: 'warning',
});
await writeCached(`dist/bundle/${celLibraryFile}`, cel.outputFiles[0]?.text ?? '');

// The structural validator loads beside the module that runs it (`schema-check.ts`), with the one
// ajv helper it requires (`ucs2length`) bundled in: resolving the package cost a start 2-4 ms.
// Minified: V8 reads all of it at load; a quarter less text imports about 6 ms faster.
const validatorModule = await readFile('dist/config/schema-validator.generated.js', 'utf8');
// Its ES module preamble gives it a `require`; CommonJS has one, which esbuild can follow.
const esmRequire =
  /^import \{ createRequire \} from 'node:module';\nconst require = createRequire\(import\.meta\.url\);\n/;
if (!esmRequire.test(validatorModule)) throw new Error('the generated validator does not start as expected');
const validator = await build({
  stdin: { contents: validatorModule.replace(esmRequire, ''), resolveDir: '.', loader: 'js' },
  bundle: true,
  minify: true,
  format: 'cjs',
  platform: 'node',
  target,
  write: false,
  logLevel: 'warning',
});
await writeCached('dist/bundle/schema-validator.generated.cjs', validator.outputFiles[0]?.text ?? '');
