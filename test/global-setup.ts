import { execFileSync } from 'node:child_process';

/** Tests that spawn the CLI run the built output: build once so it never lags behind the source. */
export default function setup(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
