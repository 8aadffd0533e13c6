#!/usr/bin/env bash
# `npm run test:pg`: the server integration suite on PostgreSQL. Uses TEST_DATABASE_URL when it is set; otherwise
# starts a throwaway PostgreSQL 15 cluster (scripts/pg-start.sh) for the run and removes it afterwards.
# Extra arguments go to Vitest: `npm run test:pg -- src/server/features/forms`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  eval "$(bash scripts/pg-start.sh)"
  trap 'bash scripts/pg-stop.sh "$PGTMP"' EXIT
  export TEST_DATABASE_URL=$DATABASE_URL
  unset DATABASE_URL PGHOST PGPORT PGUSER PGDATABASE
fi
echo "Server integration suite on PostgreSQL $(psql -tAc 'show server_version' "$TEST_DATABASE_URL" 2>/dev/null || echo '(psql not found)')"
node node_modules/vitest/vitest.mjs run --project server --project server-alone --passWithNoTests "$@"
