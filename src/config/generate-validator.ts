/**
 * Build step: precompiles the structural validator with ajv's standalone code generation, so no
 * command compiles the schema at start. It reads the descriptors through `buildConfigSchema`, the
 * same source as the committed schema, so it cannot drift from it.
 */
import { writeFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import type { Schema } from './field-schema.js';
import { isPlainObject } from '../plain-object.js';
import { ajvOptions, precompiledValidatorUrl } from './schema-check.js';
import { buildConfigSchema } from './schema.js';

type Defs = Record<string, Schema>;

/**
 * The same schema with every member that is an object of its own (a route's `oidc` module, a
 * file's `patch` overlay) moved into `$defs` and referenced, so that ajv makes it a function of its
 * own (`inlineRefs: false`). V8 compiles a function on its first call: a file then compiles the
 * members it has, not a whole kind's validator, nor the overlays of every kind (the top level's
 * function was 570 kB of code). The errors are the same; members under a combinator stay where
 * they are, whose schema paths the findings read.
 */
function withMembersAsDefs(schema: Schema): Schema {
  const defs: Defs = { ...(schema.$defs as Defs) };
  for (const [name, def] of Object.entries(defs)) defs[name] = hoistMembers(def, name, defs);
  const root = hoistMembers(schema, 'file', defs);
  return { ...root, $defs: defs };
}

function hoistMembers(schema: Schema, path: string, defs: Defs): Schema {
  const out: Schema = { ...schema };
  if (isPlainObject(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([member, sub]) => [
        member,
        hoisted(sub, `${path}.${member}`, defs),
      ]),
    );
  }
  if (isPlainObject(schema.items)) out.items = hoisted(schema.items, `${path}.items`, defs);
  if (isPlainObject(schema.additionalProperties)) {
    out.additionalProperties = hoisted(schema.additionalProperties, `${path}.values`, defs);
  }
  return out;
}

function hoisted(sub: unknown, path: string, defs: Defs): unknown {
  if (!isPlainObject(sub) || !(isPlainObject(sub.properties) || isPlainObject(sub.additionalProperties)))
    return sub;
  if (/[^A-Za-z0-9_.-]/.test(path)) return sub;
  defs[path] = hoistMembers(sub, path, defs);
  return { $ref: `#/$defs/${path}` };
}

const ajv = new Ajv2020({ ...ajvOptions, code: { source: true, esm: true } });
const validate = ajv.compile(withMembersAsDefs(buildConfigSchema()));
// ajv's ESM output still `require`s its runtime helpers (ucs2length): give the module a require.
const preamble =
  "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n";
await writeFile(precompiledValidatorUrl, preamble + standaloneCode.default(ajv, validate));
