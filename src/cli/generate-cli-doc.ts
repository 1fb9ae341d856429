/** `npm run gen:cli-doc`: writes docs/cli.md from the commands' flag tables. */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { cliReference } from './reference.js';

const target = fileURLToPath(new URL('../../docs/cli.md', import.meta.url));
await writeFile(target, await cliReference());
console.log(`wrote ${target}`);
