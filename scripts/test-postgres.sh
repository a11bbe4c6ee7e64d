#!/usr/bin/env bash
# Starts a throw-away PostgreSQL server for the test suite and prints its URL.
# Usage: scripts/test-postgres.sh start|stop   (PGPORT defaults to 5432)
set -euo pipefail
PGPORT="${PGPORT:-5432}"
PGDIR="${PGDIR:-/tmp/bot-platform-pg-$PGPORT}"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }

case "${1:-start}" in
  start)
    if [ -z "$BIN" ]; then
      echo "PostgreSQL absent : installation (apt-get install postgresql)…" >&2
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
      BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    fi
    if ! pg_isready -q -h 127.0.0.1 -p "$PGPORT" 2>/dev/null; then
      if [ ! -f "$PGDIR/PG_VERSION" ]; then
        mkdir -p "$PGDIR" && chown -R postgres:postgres "$PGDIR" 2>/dev/null || true
        pwfile="$(mktemp)" && echo postgres > "$pwfile" && chmod 644 "$pwfile"
        as_postgres "$BIN/initdb -D $PGDIR -U postgres --pwfile=$pwfile -A scram-sha-256 >/dev/null"
        rm -f "$pwfile"
      fi
      # Tests create and drop many databases: durability is not needed here.
      as_postgres "$BIN/pg_ctl -D $PGDIR -l $PGDIR/server.log -w -o '-p $PGPORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300' start >/dev/null"
    fi
    echo "postgres://postgres:postgres@127.0.0.1:$PGPORT/postgres"
    ;;
  stop)
    as_postgres "$BIN/pg_ctl -D $PGDIR -m fast stop >/dev/null" || true
    ;;
esac
