/** Fixed contents of the demo repository's configuration files (package.json, tsconfig, …), by path. */

export const STATIC_FILES: Record<string, string> = {
  'package.json': JSON.stringify(
    {
      name: 'ledgerly',
      version: '0.9.3',
      private: true,
      type: 'module',
      scripts: { dev: 'tsx watch src/index.ts', build: 'tsc -p tsconfig.json', test: 'vitest run', lint: 'eslint .', 'db:generate': 'drizzle-kit generate' },
      dependencies: { 'drizzle-orm': '^0.44.5', hono: '^4.9.8', pg: '^8.16.3', pino: '^9.11.0' },
      devDependencies: { '@types/node': '^22.18.6', eslint: '^9.36.0', tsx: '^4.20.6', typescript: '^5.9.2', vitest: '^3.2.4' },
    },
    null,
    2,
  ),
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true, allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true }, include: ['src', 'test'] }, null, 2),
  'vitest.config.ts': "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({\n  test: {\n    include: ['test/**/*.test.ts'],\n    pool: 'forks',\n    testTimeout: 10_000,\n  },\n});",
  'scripts/etl/pyproject.toml': '[project]\nname = "ledgerly-etl"\nversion = "0.3.0"\nrequires-python = ">=3.12"\ndependencies = ["httpx>=0.27", "psycopg[binary]>=3.2"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n\n[tool.ruff]\nline-length = 100',
  'scripts/etl/requirements.txt': 'httpx==0.27.2\npsycopg[binary]==3.2.10\npytest==8.4.2\nruff==0.13.1',
};
