#!/usr/bin/env bash
# Stops the throw-away PostgreSQL cluster that .ci/start-postgres.sh started and deletes its temporary
# directory. Reads FOLIO_TEST_PG_CTL and FOLIO_TEST_PGDATA (exported by start-postgres.sh); safe to run
# twice, or when nothing was started, so CI can call it unconditionally in a cleanup step.
set -euo pipefail

log() { echo "stop-postgres: $*" >&2; }

pg_ctl="${FOLIO_TEST_PG_CTL:-}"
data_dir="${FOLIO_TEST_PGDATA:-}"
if [[ -z "$pg_ctl" || -z "$data_dir" ]]; then
  log "FOLIO_TEST_PG_CTL or FOLIO_TEST_PGDATA is not set; nothing to stop"
  exit 0
fi

run_as_owner() {
  if [[ "$(id -u)" == "0" ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if [[ -f "$data_dir/postmaster.pid" ]]; then
  log "stopping the server in $data_dir"
  run_as_owner "$pg_ctl" -D "$data_dir" stop -m fast -w >&2 || log "pg_ctl stop failed; the directory is removed anyway"
else
  log "no server running in $data_dir"
fi

# start-postgres.sh puts the data directory inside a mktemp directory named folio-postgres-*; only that
# directory is removed, never anything the variables might point at by mistake.
base_dir="$(dirname "$data_dir")"
if [[ -d "$base_dir" && "$(basename "$base_dir")" == folio-postgres-* ]]; then
  rm -rf -- "$base_dir"
  log "removed $base_dir"
fi
