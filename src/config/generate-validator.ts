/**
 * Build step: precompiles the structural validator with ajv's standalone code generation, so no
 * command compiles the schema at start. It reads the descriptors through `buildConfigSchema`, the
 * same source as the committed schema, so it cannot drift from it.
 */
import { writeFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { ajvOptions, precompiledValidatorUrl } from './schema-check.js';
import { buildConfigSchema } from './schema.js';

const ajv = new Ajv2020({ ...ajvOptions, code: { source: true, esm: true } });
const validate = ajv.compile(buildConfigSchema());
// ajv's ESM output still `require`s its runtime helpers (ucs2length): give the module a require.
const preamble =
  "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n";
await writeFile(precompiledValidatorUrl, preamble + standaloneCode.default(ajv, validate));
