/**
 * Preloaded (`node --import`) into a spawned process the bench measures, the CLI and the floor
 * alike: at exit, writes the process's peak RSS (KiB) to the file named by BENCH_PEAK_RSS_FILE.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_PEAK_RSS_FILE;
if (file !== undefined) {
  process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
}
