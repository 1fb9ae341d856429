/**
 * The structural pass: ajv against the generated schema, every error at once, each turned into a
 * finding with a message a person can act on (`schema-findings.ts`).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv2020 as Ajv2020Compiler, ValidateFunction } from 'ajv/dist/2020.js';
import { requireCached } from '../cached-script.js';
import type { Finding } from './diagnostic.js';
import { buildConfigSchema } from './schema.js';
import { isNoise, toFinding } from './schema-findings.js';

/**
 * The ajv options of the structural pass, shared with the build step that precompiles it. Each
 * kind's definition is a function of its own (`inlineRefs: false`) rather than inlined into one
 * function of about 900 kB: V8 compiles a function on its first call, so a config compiles only
 * the kinds it uses (the errors are the same).
 */
export const ajvOptions = {
  allErrors: true,
  verbose: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  inlineRefs: false,
} as const;

/** Where the build writes the precompiled validator, beside this module. */
export const precompiledValidatorUrl = new URL('./schema-validator.generated.js', import.meta.url);

/**
 * The bundle's copy of the precompiled validator (`src/cli/bundle.ts`): CommonJS, so that it loads
 * through V8's code cache.
 */
const bundledValidatorUrl = new URL('./schema-validator.generated.cjs', import.meta.url);

/**
 * Compiling the schema takes a second or two, paid by every command. The build precompiles it
 * (`generate-validator.ts`); running from source, where no build ran, compiles it on first use.
 */
let compiled: ValidateFunction | undefined;

function bundledValidator(): ValidateFunction | undefined {
  try {
    return (requireCached(bundledValidatorUrl) as { default?: ValidateFunction }).default;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The build's ES module, where the bundle is not in use (`require` of an ES module, Node >= 20.19). */
function builtValidator(): ValidateFunction | undefined {
  try {
    const file = fileURLToPath(precompiledValidatorUrl);
    return (createRequire(import.meta.url)(file) as { default?: ValidateFunction }).default;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw err;
  }
}

/**
 * ajv's compiler is some 90 modules that the precompiled validator never needs: it is loaded only
 * where no build ran. `require` keeps `checkStructure` synchronous (ajv is CommonJS).
 */
function compileValidator(): ValidateFunction {
  const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as {
    Ajv2020: typeof Ajv2020Compiler;
  };
  return new Ajv2020(ajvOptions).compile(buildConfigSchema());
}

function validator(): ValidateFunction {
  compiled ??= bundledValidator() ?? builtValidator() ?? compileValidator();
  return compiled;
}

/** Every structural problem of one parsed file. */
export function checkStructure(data: unknown): Finding[] {
  const validate = validator();
  if (validate(data)) return [];
  return (validate.errors ?? []).filter((e) => !isNoise(e)).map((e) => toFinding(e, data));
}
