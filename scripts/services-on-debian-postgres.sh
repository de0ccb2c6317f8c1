#!/usr/bin/env bash
# The services integration suite once more, against Debian's own PostgreSQL server instead of the
# embedded one: people bring their own server through DATABASE_URL, and this keeps that working.
# A throwaway cluster is made with initdb as the `postgres` user (never root), started on a free
# loopback port, reached only through DATABASE_URL, and stopped and removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "Debian's postgresql is not installed (apt-get install postgresql)" >&2
  exit 1
fi
version=$("$bin/postgres" --version)

run_as_postgres() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

root=$(mktemp -d)
chmod 755 "$root"
[ "$(id -u)" = 0 ] && chown postgres "$root"
port=$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
stop() {
  run_as_postgres "$bin/pg_ctl" -D "$root/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$root"
}
trap stop EXIT

run_as_postgres "$bin/initdb" -D "$root/data" -U trellis --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
run_as_postgres "$bin/pg_ctl" -D "$root/data" -l "$root/server.log" -w \
  -o "-p $port -c listen_addresses=127.0.0.1 -k $root -c fsync=off -c max_connections=200" start >/dev/null

echo "::: services integration suite on $version (port $port)"
started=$(date +%s)
DATABASE_URL="postgres://trellis@127.0.0.1:$port/postgres" npm run test:int --workspace @trellis/services
echo "::: services integration suite on $version passed in $(($(date +%s) - started)) s"
