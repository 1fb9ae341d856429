/**
 * Preloaded (`node --import`) into a CLI run the bench times without the old generation's growth
 * bound (`src/config/heap-growth.ts`): that V8 flag is dropped, every other one set as asked.
 */
import { syncBuiltinESMExports } from 'node:module';
import v8 from 'node:v8';

const setFlags = v8.setFlagsFromString.bind(v8);
v8.setFlagsFromString = (flags: string): void => {
  if (!flags.startsWith('--heap-growing-percent')) setFlags(flags);
};
syncBuiltinESMExports();
