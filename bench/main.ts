/**
 * `npm run bench [-- --quick] [-- --only NAME[,NAME]]`: runs the scenarios one after the other,
 * each printing a `BENCH {json}` line and a table. Not part of `npm test`. See docs/performance.md.
 */
import { copyFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { print, type ScenarioResult } from './lib/report.js';
import { applyThroughput } from './scenarios/apply-throughput.js';
import { emulatorThroughput } from './scenarios/emulator-throughput.js';
import { floor } from './scenarios/floor.js';
import { planAtScale } from './scenarios/plan-at-scale.js';
import { plannerScaling } from './scenarios/planner-scaling.js';
import { policyExpressions } from './scenarios/policy-expressions.js';
import { rateLimited } from './scenarios/rate-limited.js';
import { secondPaths } from './scenarios/second-paths.js';
import { startup } from './scenarios/startup.js';
import { watchLatency } from './scenarios/watch-latency.js';

const scenarios: Record<string, (quick: boolean) => Promise<ScenarioResult>> = {
  'planner-scaling': plannerScaling,
  'plan-at-scale': planAtScale,
  floor,
  'apply-throughput': applyThroughput,
  'rate-limited-apply': rateLimited,
  'emulator-throughput': emulatorThroughput,
  'watch-latency': (quick) => watchLatency(quick),
  startup,
  'policy-expressions': policyExpressions,
  'second-paths': secondPaths,
};

/**
 * The bench compiles `src` again beside itself; the build also writes a precompiled config
 * validator into `dist/`, which the CLI loads instead of compiling the schema. Copy it so that the
 * bench's processes load configs exactly as `acctsync` does (the measured child processes start
 * after this copy).
 */
async function usePrecompiledValidator(): Promise<void> {
  const target = new URL('../src/config/schema-validator.generated.js', import.meta.url);
  await copyFile(resolve('dist/config/schema-validator.generated.js'), target).catch((err: unknown) => {
    console.log(`note: no precompiled validator in dist/ (${String(err)}): configs compile the schema`);
  });
}

async function main(): Promise<number> {
  await usePrecompiledValidator();
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      // second-paths: built checkouts without a path, to time against (see that scenario).
      without: { type: 'string' },
    },
  });
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((name) => !(name in scenarios)) ?? [];
  if (unknown.length > 0) {
    console.error(`unknown scenario ${unknown.join(', ')}; known: ${Object.keys(scenarios).join(', ')}`);
    return 2;
  }
  const load = (await import('node:os')).loadavg();
  console.log(
    `acctsync bench ${values.quick ? '(quick) ' : ''}node ${process.version}, ` +
      `${(await import('node:os')).cpus().length} cores, load average ${load.map((l) => l.toFixed(1)).join(' ')}`,
  );
  if (values.quick)
    console.log('quick: a smoke run at small sizes, where a MISSED target is noise, not a regression');
  let failed = 0;
  for (const [name, run] of Object.entries(scenarios)) {
    if (only !== undefined && !only.includes(name)) continue;
    const t0 = performance.now();
    try {
      print(await run(values.quick));
    } catch (err) {
      failed++;
      console.log(
        `BENCH ${JSON.stringify({ scenario: name, error: err instanceof Error ? err.message : String(err) })}`,
      );
      console.error(err);
    }
    console.log(`(${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
