import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/soak/**'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/outside-ci.ts'],
    // Generous: many tests spawn the CLI or sync examples/ against a real emulator, and CI machines
    // are shared. A timeout here only catches a hang; speed is measured by `npm run bench`.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
