/** `npm run gen:schema` (third part): writes `schemas/traffic-tests.schema.json`. */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { trafficTestsSchemaText } from './tests-schema.js';

const target = fileURLToPath(new URL('../../schemas/traffic-tests.schema.json', import.meta.url));
await writeFile(target, trafficTestsSchemaText());
console.log(`wrote ${target}`);
