#!/usr/bin/env bash
# Start a throwaway PostgreSQL 15 cluster on 127.0.0.1:<free port>. Prints `export` lines (eval them).
# Usage: eval "$(bash scripts/pg-start.sh)"; trap 'bash scripts/pg-stop.sh "$PGTMP"' EXIT
set -euo pipefail
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PGTMP=$(mktemp -d "${TMPDIR:-/tmp}/pgtest.XXXXXX")
if [ "$(id -u)" = 0 ]; then            # postgres refuses to run as root
  id postgres >/dev/null 2>&1 || useradd --system --home-dir "$PGTMP" --shell /usr/sbin/nologin postgres
  chown postgres: "$PGTMP"
  AS=(runuser -u postgres --)
else
  AS=()
fi
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
"${AS[@]}" "$PGBIN/initdb" -D "$PGTMP/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync \
  >"$PGTMP/initdb.log" 2>&1 || { cat "$PGTMP/initdb.log" >&2; exit 1; }
for attempt in 1 2 3 4 5; do            # retry covers the tiny free-port race
  PORT=$(free_port)
  if "${AS[@]}" "$PGBIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/server.log" -w -t 30 \
       -o "-p $PORT -k $PGTMP -c listen_addresses=127.0.0.1 -c fsync=${PG_FSYNC:-off} -c synchronous_commit=${PG_SYNC:-off} -c full_page_writes=${PG_FSYNC:-off}" \
       start >"$PGTMP/pg_ctl.log" 2>&1; then
    echo "export PGTMP=$PGTMP PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=postgres PGDATABASE=postgres"
    echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/postgres"
    exit 0
  fi
  tail -5 "$PGTMP/server.log" >&2 || true
done
echo "postgres failed to start" >&2; exit 1
