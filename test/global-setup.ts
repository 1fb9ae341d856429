import { spawnSync } from 'node:child_process';

/**
 * Tests that spawn the CLI run the built output: build once, exactly as `npm run build` does (the
 * precompiled validator, the executable bin), so it never lags behind the source. Type errors do
 * not stop the emit and are the type-check step's to report, so only a build that cannot run at
 * all fails the suite here.
 */
export default function setup(): void {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'ignore' });
  if (result.error) throw result.error;
}
