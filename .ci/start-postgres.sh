#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster on 127.0.0.1 for the Postgres integration suites and prints
# the shell lines that point the tests at it, so callers can do:
#   eval "$(.ci/start-postgres.sh)"
# stdout carries only `export ...` lines; progress and errors go to stderr.
# Stop it with: "$FOLIO_TEST_PG_CTL" -D "$FOLIO_TEST_PGDATA" stop -m fast
set -euo pipefail

log() { echo "start-postgres: $*" >&2; }

find_postgres_bin() {
  if [[ -n "${POSTGRES_BIN:-}" ]]; then
    echo "$POSTGRES_BIN"
    return
  fi
  if command -v pg_config >/dev/null 2>&1 && [[ -x "$(pg_config --bindir)/initdb" ]]; then
    pg_config --bindir
    return
  fi
  local candidate
  for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [[ -x "$candidate/initdb" ]]; then
      echo "$candidate"
      return
    fi
  done
  log "no PostgreSQL server binaries found; install postgresql (e.g. apt-get install postgresql-15) or set POSTGRES_BIN"
  exit 1
}

port_is_free() {
  # bash's /dev/tcp connect fails when nothing listens on the port.
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

bin_dir="$(find_postgres_bin)"
port="${FOLIO_TEST_PG_PORT:-54329}"
while ! port_is_free "$port"; do
  port=$((port + 1))
  if ((port > 54429)); then
    log "no free port between ${FOLIO_TEST_PG_PORT:-54329} and 54429"
    exit 1
  fi
done

base_dir="$(mktemp -d -t folio-postgres-XXXXXX)"
data_dir="$base_dir/data"
socket_dir="$base_dir/socket"
mkdir -p "$socket_dir"

# initdb refuses to run as root, so the cluster belongs to the `postgres` user when we are root.
run_as_owner() {
  if [[ "$(id -u)" == "0" ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}
if [[ "$(id -u)" == "0" ]]; then
  chown -R postgres: "$base_dir"
fi

log "initdb into $data_dir"
run_as_owner "$bin_dir/initdb" -D "$data_dir" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >&2

log "starting on 127.0.0.1:$port"
run_as_owner "$bin_dir/pg_ctl" -D "$data_dir" -l "$base_dir/server.log" -w -t 60 \
  -o "-h 127.0.0.1 -p $port -k $socket_dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >&2

run_as_owner "$bin_dir/createdb" -h 127.0.0.1 -p "$port" -U postgres folio_test >&2

echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/folio_test"
echo "export FOLIO_TEST_PGDATA=$data_dir"
echo "export FOLIO_TEST_PG_CTL=$bin_dir/pg_ctl"
