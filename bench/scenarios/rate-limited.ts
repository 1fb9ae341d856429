/**
 * Scenario 3: the emulator limits the account to 600 requests a minute; acctsync, told the limit
 * (`--rate-limit 600/m`: the client paces one request start every 100 ms), plans and applies 100
 * creates. The theoretical minimum of the apply is one pacing interval per request.
 */
import { ApiClient } from '../../src/api/index.js';
import { applyPlan } from '../../src/apply/index.js';
import { planFor } from '../../src/pipeline/index.js';
import { countStatus, emulatorStats } from '../lib/acct.js';
import { startServer } from '../lib/process.js';
import type { ScenarioResult } from '../lib/report.js';
import { round } from '../lib/stats.js';
import { policies } from './apply-throughput.js';

export async function rateLimited(quick: boolean): Promise<ScenarioResult> {
  const limit = 600;
  const n = quick ? 20 : 100;
  const server = await startServer({ mode: 'emulator', rateLimitPerMinute: limit });
  try {
    const api = new ApiClient({ baseUrl: server.url, apiKey: server.token, ratePerMinute: limit });
    const desired = policies(n, 'rl');
    const p0 = performance.now();
    const { plan } = await planFor(desired, api);
    const planS = (performance.now() - p0) / 1000;
    const t0 = performance.now();
    const result = await applyPlan(plan, desired, api);
    const seconds = (performance.now() - t0) / 1000;
    await api.close();
    const stats = await emulatorStats(server.url, server.token);
    const creates = stats.routes.filter((r) => r.method === 'POST').reduce((s, r) => s + r.count, 0);
    const minimumS = (creates * 60) / limit;
    const ratio = seconds / minimumS;
    const tooMany = countStatus(stats, 429);
    return {
      scenario: 'rate-limited-apply',
      rows: [
        {
          limit_per_min: limit,
          creates: n,
          plan_requests: stats.total - creates,
          plan_s: round(planS, 2),
          apply_s: round(seconds, 2),
          minimum_s: round(minimumS, 2),
          ratio: round(ratio, 3),
          responses_429: tooMany,
          failed: result.counts.failed,
        },
      ],
      targets: {
        'apply within 1.05 of the theoretical minimum': ratio <= 1.05,
        'no failures': result.counts.failed === 0,
      },
      notes: [`minimum = POSTs sent (${creates}) x 60 s / ${limit}: one pacing interval per request`],
    };
  } finally {
    await server.stop();
  }
}
