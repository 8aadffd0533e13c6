#!/usr/bin/env bash
set -u
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}; PGTMP=${1:?PGTMP}
if [ "$(id -u)" = 0 ]; then AS=(runuser -u postgres --); else AS=(); fi
"${AS[@]}" "$PGBIN/pg_ctl" -D "$PGTMP/data" -m immediate -w stop >/dev/null 2>&1 || true
rm -rf "$PGTMP"
