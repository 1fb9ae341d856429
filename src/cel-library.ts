/**
 * The CEL library, loaded on its first use: most commands, and the emulator serving an account
 * without traffic-policy expressions, never check one, and the library costs a start-up tens of
 * milliseconds. The checks are synchronous, hence `require` of the ES module (Node >= 20.19).
 */
import { createRequire } from 'node:module';
import type * as Cel from '@marcbachmann/cel-js';

const require = createRequire(import.meta.url);
let loaded: typeof Cel | undefined;

export function celLibrary(): typeof Cel {
  loaded ??= require('@marcbachmann/cel-js') as typeof Cel;
  return loaded;
}
