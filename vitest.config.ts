import { defineConfig } from 'vitest/config';

// Unit tests sit beside the code they test; e2e specs belong to Playwright.
export default defineConfig({
  test: {
    include: [
      'src-*/**/*.test.ts',
      'src-*/**/*.test.tsx',
      'scripts/**/*.test.ts',
      'sdk/**/*.test.ts',
      // Sandbox-level tests of a crate's programs sit in the crate.
      'crates/*/tests/**/*.test.ts',
    ],
    exclude: ['node_modules/**', 'out/**', 'e2e/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    // Once more before a failure counts: many tests drive real interpreters and
    // processes on a loaded 2-core machine. A broken feature fails both tries;
    // scripts/test.mjs names every test that needed the second.
    retry: 1,
    hookTimeout: 60_000,
  },
});
