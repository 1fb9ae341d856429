import { spawnSync } from 'node:child_process';

/**
 * Tests that spawn the CLI run the built output: build once so it never lags behind the source.
 * Type errors do not stop the emit and are the type-check step's to report, so only a compiler that
 * cannot run at all fails the suite here.
 */
export default function setup(): void {
  const result = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'ignore' });
  if (result.error) throw result.error;
  // The precompiled config validator, as `npm run build` makes it (the CLI compiles it otherwise).
  spawnSync(process.execPath, ['dist/config/generate-validator.js'], { stdio: 'ignore' });
}
