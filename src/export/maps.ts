import { configLayout } from '../config/layout.js';

/** The config map keys, for `--kind` help and checking. */
export const exportableMaps: readonly string[] = configLayout.map((m) => m.key);
