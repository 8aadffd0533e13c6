import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import checkFile from 'eslint-plugin-check-file';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Features are folders named after the domain (docs/architecture.md). A feature imports `common/`, the shared modules
// of its side and itself; features meet only in the composition files (app.ts on the server, the router and entry
// points on the web), and a shared module imports no feature. A new folder must be named here as one or the other.
// On the server the features sit in `features/`, beside the shared rooms and the test support.
const SIDES = {
  server: {
    featureRoot: 'features',
    features: [
      'accounts',
      'backup',
      'forms',
      'notifications',
      'profile',
      'results',
      'submissions',
      'uploads',
      'webhooks',
    ],
    shared: ['db', 'http', 'mail', 'pages', 'runtime', 'storage'],
    // Test support: tests and the test tooling import it, production code never does.
    testing: ['testing'],
    composition: /^(app|app-[\w-]+|main)\.ts$|\.test\.ts$/,
  },
  web: {
    features: ['accounts', 'dashboard', 'editor', 'fill', 'landing', 'profile', 'responses', 'results'],
    shared: ['api', 'ui', 'public'],
    composition: /^(main|router|home-route|prerender)\.tsx$|^customer-main\.ts$|\.html$/,
  },
};

/** A file that is neither a test nor test support (test-*.ts, *-test-*.ts, *-fixture.ts, a test's helpers). */
const PRODUCTION_FILE = '!(*.test|test-*|*-test-*|*-fixture).ts';

/** Names every folder in `dir` that is not in `known`, or throws. */
function checkFolders(dir, known, what) {
  const unknown = readdirSync(dir, { withFileTypes: true }).filter(
    (e) => e.isDirectory() && !known.includes(e.name),
  );
  if (unknown.length > 0)
    throw new Error(`eslint.config.js: say whether ${dir}/${unknown[0].name} is ${what}`);
}

function boundaryZones(side, { featureRoot, features, shared, testing = [], composition }) {
  const root = `./src/${side}`;
  const featureDir = featureRoot ? `${root}/${featureRoot}` : root;
  const entries = readdirSync(root, { withFileTypes: true });
  if (featureRoot) {
    checkFolders(
      root,
      [featureRoot, ...shared, ...testing],
      'shared or test support (features go in features/)',
    );
    checkFolders(featureDir, features, 'a feature');
  } else {
    checkFolders(root, [...features, ...shared, ...testing], 'a feature or shared');
  }
  const sharedFiles = entries.filter((e) => e.isFile() && !composition.test(e.name)).map((e) => e.name);
  const featureZones = features.map((feature) => ({
    target: `${featureDir}/${feature}`,
    from: features.filter((other) => other !== feature).map((other) => `${featureDir}/${other}`),
    message: `a feature does not import another feature's files: ask for what it needs in app.ts / the router (docs/architecture.md)`,
  }));
  const sharedZone = {
    // A test in a shared folder drives the whole app, as the composition does.
    target: [
      ...shared.map((name) => `${root}/${name}/**/!(*.test).ts`),
      ...sharedFiles.map((name) => `${root}/${name}`),
    ],
    from: features.map((feature) => `${featureDir}/${feature}`),
    message: 'shared modules belong to no feature and import none (docs/architecture.md)',
  };
  // Production code (any file but a test or the test support itself) never imports test support.
  const testingZones = testing.map((folder) => ({
    target: [`${root}/!(${folder})/**/${PRODUCTION_FILE}`, `${root}/${PRODUCTION_FILE}`],
    from: `${root}/${folder}/**`,
    message: 'production code does not import test support (docs/architecture.md)',
  }));
  return [...featureZones, sharedZone, ...testingZones];
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'coverage', 'e2e/screenshots'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX, 'check-file': checkFile },
    settings: { 'import-x/ignore': ['node_modules'] },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
          pathGroups: [{ pattern: '#common/**', group: 'internal' }],
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/server', from: './src/web', message: 'server and web only meet through common' },
            { target: './src/web', from: './src/server', message: 'server and web only meet through common' },
            { target: './src/common', from: ['./src/server', './src/web'], message: 'common is pure' },
            ...boundaryZones('server', SIDES.server),
            ...boundaryZones('web', SIDES.web),
            {
              target: './src/web/fill',
              from: './src/web/paths.ts',
              message:
                "the customer's chunk knows only customer-paths.ts (docs/decisions/012-customer-entry.md)",
            },
          ],
        },
      ],
      'no-restricted-imports': 'off',
      'check-file/filename-naming-convention': [
        'error',
        { 'src/**/*.{ts,tsx}': 'KEBAB_CASE', 'e2e/**/*.ts': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { 'src/**/': 'KEBAB_CASE', 'e2e/**/': 'KEBAB_CASE' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only src/server/main.ts reads the environment.' },
      ],
    },
  },
  {
    files: ['src/common/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'common/ is pure: no Node APIs' },
            {
              group: ['react', 'react-dom', 'fastify', '@fastify/*'],
              message: 'common/ is shared by both sides',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    // The entry points and tooling are where the environment is read.
    files: [
      'src/server/main.ts',
      'src/server/features/backup/cli.ts',
      'scripts/**',
      'e2e/**',
      'bench/**',
      '*.config.ts',
      'src/server/testing/test-app.ts',
      'src/server/testing/test-database-image.ts',
      'src/server/testing/s3-test-server.ts',
      // Starts `npm start` as an operator does, with an environment of its own.
      'src/server/runtime/logs.test.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
