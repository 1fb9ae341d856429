import { defineConfig } from 'vitest/config';

/** `npm run test:soak`: the long reliability runs (more trials, more fuzz cases, every secret path). */
export default defineConfig({
  test: {
    include: ['test/soak/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/outside-ci.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
