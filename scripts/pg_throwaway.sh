#!/usr/bin/env bash
# A throwaway PostgreSQL server for lossbook's tests and benchmarks: a fresh
# cluster in a short temporary folder, served on a unix socket only (no TCP),
# removed on stop. Used by .ci/run and by developers alike.
#
#   eval "$(scripts/pg_throwaway.sh start)"   # sets LOSSBOOK_PG_DIR and LOSSBOOK_TEST_PG_DSN
#   deno test -A tests/lib/sql/sql_engines_test.ts
#   scripts/pg_throwaway.sh stop "$LOSSBOOK_PG_DIR"
#
# The binaries are Debian's (`postgresql` package, under
# /usr/lib/postgresql/<version>/bin, not on PATH); a cluster the package may
# have started itself is not used. initdb refuses to run as root, so as root
# the server runs as the `postgres` user (runuser). The folder is under /tmp
# with a short name because a socket path must stay under 108 bytes.
set -euo pipefail

pg_bin() {
  local dir
  if [ -n "${LOSSBOOK_PG_BIN:-}" ]; then
    echo "$LOSSBOOK_PG_BIN"
    return
  fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return
    fi
  done
  echo "pg_throwaway: no PostgreSQL under /usr/lib/postgresql/*/bin (apt-get install postgresql)" >&2
  exit 1
}

as_owner() { # run a command as the cluster owner
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# the server's user may not be able to read the caller's folder
cd /tmp

case "${1:-}" in
  start)
    bin=$(pg_bin)
    dir=$(mktemp -d /tmp/lbpg.XXXXXX)
    if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$dir"; fi
    chmod 700 "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust \
      --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
      cat "$dir/initdb.log" >&2
      exit 1
    }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-c listen_addresses='' -k $dir -c fsync=off" start >/dev/null || {
      cat "$dir/server.log" >&2
      exit 1
    }
    echo "LOSSBOOK_PG_DIR=$dir; export LOSSBOOK_PG_DIR"
    echo "LOSSBOOK_TEST_PG_DSN='postgresql://postgres@/postgres?host=$dir'; export LOSSBOOK_TEST_PG_DSN"
    ;;
  stop)
    dir=${2:?usage: pg_throwaway.sh stop DIR}
    case "$dir" in /tmp/lbpg.*) ;; *)
      echo "pg_throwaway: refusing to remove $dir (not made by start)" >&2
      exit 1
      ;;
    esac
    bin=$(pg_bin)
    if [ -d "$dir/data" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: pg_throwaway.sh start | stop DIR" >&2
    exit 2
    ;;
esac
