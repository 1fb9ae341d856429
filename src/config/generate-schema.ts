/** `npm run gen:schema`: writes `schemas/acctsync.schema.json` from the descriptors. */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { schemaText } from './schema.js';

const target = fileURLToPath(new URL('../../schemas/acctsync.schema.json', import.meta.url));
await writeFile(target, schemaText());
console.log(`wrote ${target}`);
