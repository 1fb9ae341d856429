/** `npm run gen:schema` (second half): writes `schemas/plan.schema.json` from the plan's types. */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { planSchemaText } from './plan-schema.js';

const target = fileURLToPath(new URL('../../schemas/plan.schema.json', import.meta.url));
await writeFile(target, planSchemaText());
console.log(`wrote ${target}`);
