// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.acctsync/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      'no-console': 'off',
    },
  },
  {
    // House style: no function in src/ over 80 lines. The files listed still have one, each in an
    // area another change is reworking (buildPlan's decomposition among them); remove a file from
    // the list once its long functions are split.
    files: ['src/**/*.ts'],
    ignores: [
      'src/apply/index.ts',
      'src/apply/schedule.ts',
      'src/cli/commands/watch.ts',
      'src/emulator/index.ts',
      'src/plan/build.ts',
      'src/plan/match.ts',
      'src/plan/order.ts',
      'src/watch/reconcile.ts',
    ],
    rules: { 'max-lines-per-function': ['error', { max: 80, IIFEs: true }] },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
