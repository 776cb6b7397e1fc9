#!/usr/bin/env bash
# A local PostgreSQL server for the class activities (issue 37; dpclass/storage.py reads its
# URL from DPCLASS_DATABASE_URL): scripts/serve.sh starts one that every replica shares, the
# tests (tests/pgkit.py) one per pytest process. Debian's postgresql package, the newest
# version under /usr/lib/postgresql/<version>/bin; installed with apt-get when missing (as
# root, else a note on how to install it).
#
#   bash scripts/postgres.sh start DIR [--port P] [--fast]
#   bash scripts/postgres.sh stop|restart|status|delete DIR
#
#   start    create a cluster in DIR/data if there is none (initdb), start it on
#            127.0.0.1:P and a unix socket in DIR, create the database dpclass, and print
#            its SQLAlchemy URL, postgresql+psycopg://USER@127.0.0.1:P/dpclass, as the last
#            line of standard output (messages go to standard error). Already running: the
#            URL only. Its log: DIR/postgres.log.
#   --port P the TCP port (default: the cluster's port last time, else a free one in
#            20000-32767, below Linux's ephemeral ports, so never one that a test got by
#            binding port 0; another one is tried if it is taken meanwhile)
#   --fast   for a test cluster, when it is created: no fsync at all (initdb --no-sync;
#            fsync, synchronous_commit and full_page_writes off). A crash of the machine
#            may lose or corrupt such a cluster. Without it (scripts/serve.sh) a commit is
#            on disk before it is acknowledged: acknowledged answers survive a crash.
#   stop     a fast shutdown: sessions are ended, open transactions rolled back
#   restart  a fast shutdown and a start on the same port (the fault tests: the database
#            goes away in the middle of a class and comes back); prints the URL
#   status   the URL and exit 0 when it runs; exit 3 when it does not, 4 when DIR has none
#   delete   stop it (immediate) and remove the cluster, its data with it
#
# Authentication is "trust", for a test or classroom-local server: anyone who can connect
# to 127.0.0.1:P from this machine is the cluster's superuser, without a password (the unix
# socket is for its owner only). Nothing listens on another address. Do not use it on a
# machine whose local users are not trusted; give serve.sh --database-url instead.
#
# PostgreSQL refuses to run as root: as root the server runs as the postgres system user
# (runuser), which then owns DIR. When that user cannot reach DIR (a parent directory closed
# to others: /root, pytest's /tmp/pytest-of-root), the cluster lives in
# /var/lib/postgresql/dpclass/<hash of DIR>, its socket and log there too, and DIR/cluster
# links to it; such a cluster whose DIR was under /tmp or /var/tmp and is gone is stopped and
# removed by the next start. As another user, the server runs as that user.
#
# Debian's own cluster ("main", port 5432, /var/lib/postgresql/<version>/main), which the
# package creates and may start when installed, is neither used nor touched.
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
die() { echo "error: $*" >&2; exit 1; }

[[ "${1:-}" == -h || "${1:-}" == --help ]] && { usage; exit 0; }
if (($# < 2)); then
    echo "error: an action and a directory are needed" >&2
    usage >&2
    exit 2
fi
ACTION="$1"
DIR="$2"
shift 2
case "$ACTION" in
    start|stop|restart|status|delete) ;;
    *) echo "error: unknown action '$ACTION'" >&2; usage >&2; exit 2 ;;
esac
PORT=""
FAST=0
while (($#)); do
    case "$1" in
        --port)
            (($# >= 2)) || { echo "error: --port takes a value" >&2; exit 2; }
            PORT="$2"; shift 2 ;;
        --fast) FAST=1; shift ;;
        *) echo "error: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
if [[ -n "$PORT" ]] && ! [[ "$PORT" =~ ^[1-9][0-9]{0,4}$ && "$PORT" -le 65535 ]]; then
    echo "error: --port takes a whole number from 1 to 65535" >&2
    exit 2
fi
if [[ -z "$DIR" ]]; then
    echo "error: the directory is empty" >&2
    exit 2
fi
if [[ "$ACTION" != start && ( -n "$PORT" || "$FAST" == 1 ) ]]; then
    echo "error: --port and --fast go with start" >&2
    exit 2
fi

# Only what this script says: no PGHOST, PGUSER, PGDATABASE, PGOPTIONS... from the caller.
while IFS= read -r variable; do
    unset "$variable"
done < <(compgen -e | grep '^PG' || true)
export PGCONNECT_TIMEOUT=10

ROOT=0
[[ "$(id -u)" -eq 0 ]] && ROOT=1
if ((ROOT)); then
    OWNER=postgres
else
    OWNER="$(id -un)"
fi
FALLBACK_ROOT=/var/lib/postgresql/dpclass

# Run "$@" as the cluster's owner (from /: root's working directory may be closed to it).
as_owner() {
    if ((ROOT)); then
        (cd / && runuser -u "$OWNER" -- "$@")
    else
        "$@"
    fi
}

# --- the binaries: Debian's package ------------------------------------------------------------
find_bin() {
    local bin
    while IFS= read -r bin; do
        if [[ -x "$bin/pg_ctl" && -x "$bin/initdb" && -x "$bin/postgres" && -x "$bin/psql" ]]
        then
            echo "$bin"
            return 0
        fi
    done < <(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV)
    return 1
}
if ! BIN="$(find_bin)"; then
    if [[ "$ACTION" != start ]]; then
        die "PostgreSQL's server is not installed (Debian: apt-get install postgresql)"
    elif ((ROOT)); then
        echo ">> PostgreSQL's server missing: installing Debian's postgresql" >&2
        export DEBIAN_FRONTEND=noninteractive
        { apt-get update -q && apt-get install -y -q postgresql; } >&2 \
            || die "installing Debian's postgresql failed"
        BIN="$(find_bin)" || die "Debian's postgresql is installed but no server found" \
            "under /usr/lib/postgresql/*/bin"
    else
        die "PostgreSQL's server is not installed and we are not root: run" \
            "'sudo apt-get install postgresql', then this script again"
    fi
fi
((ROOT)) && { id -u "$OWNER" >/dev/null 2>&1 || die "no '$OWNER' system user (Debian's" \
    "postgresql package creates it)"; }

# --- where the cluster is ----------------------------------------------------------------------
if [[ "$ACTION" == start ]]; then
    mkdir -p "$DIR"
elif [[ ! -d "$DIR" ]]; then
    [[ "$ACTION" == status ]] && { echo ">> no cluster: $DIR does not exist" >&2; exit 4; }
    [[ "$ACTION" == stop || "$ACTION" == delete ]] && {
        echo ">> no cluster: $DIR does not exist" >&2; exit 0; }
    die "$DIR does not exist"
fi
DIR="$(cd "$DIR" && pwd -P)"
[[ "$DIR" == *"'"* ]] && die "the directory's path must not hold a quote (')"

# The clusters of temporary directories (/tmp, /var/tmp, $TMPDIR) that are gone.
prune_orphans() {
    local cluster origin
    [[ -d "$FALLBACK_ROOT" ]] || return 0
    for cluster in "$FALLBACK_ROOT"/*; do
        [[ -f "$cluster/origin" ]] || continue
        origin="$(<"$cluster/origin")"
        [[ -e "$origin" ]] && continue
        case "$origin" in
            /tmp/*|/var/tmp/*) ;;
            *) [[ -n "${TMPDIR:-}" && "$origin" == "${TMPDIR%/}"/* ]] || continue ;;
        esac
        echo ">> removing the PostgreSQL cluster of $origin, which is gone: $cluster" >&2
        as_owner "$BIN/pg_ctl" -D "$cluster/data" -m immediate -s stop >/dev/null 2>&1 || true
        rm -rf "$cluster"
    done
}

# CLUSTER: the directory of data/, the socket, the log and the port file.
if [[ -L "$DIR/cluster" ]]; then
    CLUSTER="$(readlink -f "$DIR/cluster")"
    [[ "$CLUSTER" == "$FALLBACK_ROOT"/* ]] \
        || die "$DIR/cluster must link into $FALLBACK_ROOT, not to $CLUSTER"
else
    CLUSTER="$DIR"
fi
if [[ "$ACTION" == start ]] && ((ROOT)); then
    prune_orphans
    if [[ "$CLUSTER" == "$DIR" && ! -d "$DIR/data" ]]; then
        before="$(stat -c %u:%g "$DIR")"
        chown "$OWNER": "$DIR"
        if ! as_owner test -w "$DIR" -a -x "$DIR"; then
            chown "$before" "$DIR"
            CLUSTER="$FALLBACK_ROOT/$(printf '%s' "$DIR" | sha256sum | cut -c 1-16)"
            echo ">> the $OWNER user cannot reach $DIR: the cluster goes to $CLUSTER" \
                "($DIR/cluster links to it)" >&2
            mkdir -p "$CLUSTER"
            chown "$OWNER": "$FALLBACK_ROOT" "$CLUSTER"
            chmod 700 "$FALLBACK_ROOT" "$CLUSTER"
            printf '%s\n' "$DIR" >"$CLUSTER/origin"
            ln -sfn "$CLUSTER" "$DIR/cluster"
        fi
    fi
fi
DATA="$CLUSTER/data"
LOG="$CLUSTER/postgres.log"
# A unix socket's path holds at most 107 bytes (".s.PGSQL.65535.lock" included).
SOCKET_DIR="$CLUSTER"
((${#CLUSTER} + 20 > 107)) && SOCKET_DIR=""

pg_ctl() { as_owner "$BIN/pg_ctl" -D "$DATA" "$@"; }
running() { [[ -f "$DATA/PG_VERSION" ]] && pg_ctl status >/dev/null 2>&1; }
# The port of the running server (line 4 of postmaster.pid).
running_port() { sed -n 4p "$DATA/postmaster.pid"; }
url() { echo "postgresql+psycopg://$OWNER@127.0.0.1:$1/dpclass"; }
psql_() {
    "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -U "$OWNER" -d postgres -Atc "$2"
}
has_cluster() { [[ -f "$DATA/PG_VERSION" ]]; }

# --- the actions -------------------------------------------------------------------------------
case "$ACTION" in
    status)
        has_cluster || { echo ">> no cluster in $DIR" >&2; exit 4; }
        if running; then
            echo ">> PostgreSQL runs: $DATA" >&2
            url "$(running_port)"
            exit 0
        fi
        echo ">> PostgreSQL does not run: $DATA" >&2
        exit 3 ;;
    stop)
        if has_cluster && running; then
            pg_ctl -m fast -w -t 60 -s stop
            echo ">> PostgreSQL stopped: $DATA" >&2
        else
            echo ">> PostgreSQL was not running: $DATA" >&2
        fi
        exit 0 ;;
    delete)
        if has_cluster && running; then
            pg_ctl -m immediate -w -t 60 -s stop
        fi
        if [[ "$CLUSTER" == "$DIR" ]]; then
            rm -rf "$DATA" "$LOG" "$CLUSTER/initdb.log" "$CLUSTER/port"
        else
            rm -rf "$CLUSTER" "$DIR/cluster"
        fi
        echo ">> PostgreSQL cluster deleted: $DATA" >&2
        exit 0 ;;
    restart)
        has_cluster || die "no cluster in $DIR: start one first"
        [[ -f "$DATA/postmaster.opts" ]] || die "the cluster in $DIR never ran: start it first"
        # pg_ctl restart starts it again with the options of its last start (postmaster.opts).
        pg_ctl -m fast -w -t 60 -s -l "$LOG" restart >&2 \
            || { tail -n 20 "$LOG" >&2; die "PostgreSQL did not restart (log: $LOG)"; }
        echo ">> PostgreSQL restarted: $DATA" >&2
        url "$(running_port)"
        exit 0 ;;
esac

# start
if [[ -d "$DATA" && ! -f "$DATA/PG_VERSION" ]]; then
    rm -rf "$DATA"   # an initdb that did not finish
fi
if ! has_cluster; then
    locale=(--no-locale)
    locale -a 2>/dev/null | grep -qix 'c\.utf-\{0,1\}8' && locale=(--locale=C.UTF-8)
    sync=()
    ((FAST)) && sync=(--no-sync)
    if ! as_owner "$BIN/initdb" -D "$DATA" -U "$OWNER" --auth=trust -E UTF8 "${locale[@]}" \
            "${sync[@]}" >"$CLUSTER/initdb.log" 2>&1; then
        tail -n 20 "$CLUSTER/initdb.log" >&2
        die "initdb failed (its output: $CLUSTER/initdb.log)"
    fi
    {
        echo
        echo "# --- scripts/postgres.sh ($( ((FAST)) && echo "--fast: a test cluster" \
            || echo durable)) ---"
        echo "listen_addresses = '127.0.0.1'"
        echo "unix_socket_directories = '$SOCKET_DIR'"
        echo "unix_socket_permissions = 0700"
        echo "max_connections = 200"
        if ((FAST)); then
            echo "fsync = off"
            echo "synchronous_commit = off"
            echo "full_page_writes = off"
        fi
    } >>"$DATA/postgresql.conf"
    [[ -z "$SOCKET_DIR" ]] && echo ">> $CLUSTER is too long a path for a unix socket:" \
        "TCP only" >&2
    echo ">> PostgreSQL cluster created ($("$BIN/postgres" --version)): $DATA" >&2
elif ((FAST)) && ! grep -q '^fsync = off' "$DATA/postgresql.conf"; then
    echo ">> --fast applies when a cluster is created: $DATA stays durable" >&2
fi

if running; then
    port="$(running_port)"
    [[ -z "$PORT" || "$PORT" == "$port" ]] \
        || die "PostgreSQL already runs on port $port, not $PORT: stop it first"
    echo ">> PostgreSQL already runs: $DATA" >&2
else
    listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
    # A port nothing listens on, below the ephemeral ports (which binding port 0 gives).
    free_port() {
        local low=20000 high=32767 ephemeral p
        ephemeral="$(cut -f 1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
        ((ephemeral - 1 < high)) && high=$((ephemeral - 1))
        ((high - low < 1000)) && { low=1024; high=$((ephemeral - 1)); }
        for _ in {1..100}; do
            p=$((low + (RANDOM * 32768 + RANDOM) % (high - low + 1)))
            listening "$p" || { echo "$p"; return 0; }
        done
        return 1
    }
    if [[ -n "$PORT" ]]; then
        port="$PORT"
        tries=1
    else
        port=""
        [[ -f "$CLUSTER/port" ]] && port="$(<"$CLUSTER/port")"
        if [[ -z "$port" ]] || listening "$port"; then
            port="$(free_port)" || die "no free port found in 20000-32767"
        fi
        tries=5
    fi
    for ((try = 1; ; try++)); do
        listening "$port" && [[ -n "$PORT" ]] && die "port $port is taken"
        as_owner touch "$LOG"
        logged="$(stat -c %s "$LOG")"
        if said="$(pg_ctl -l "$LOG" -w -t 60 -s -o "-p $port" start 2>&1)"; then
            break
        fi
        new="$(tail -c "+$((logged + 1))" "$LOG")"
        if ((try < tries)) && grep -q "Address already in use" <<<"$new"; then
            echo ">> port $port was taken meanwhile: another one" >&2
            port="$(free_port)" || die "no free port found in 20000-32767"
            continue
        fi
        printf '%s\n' "$said" "$new" | tail -n 20 >&2
        die "PostgreSQL did not start (log: $LOG)"
    done
    printf '%s\n' "$port" >"$CLUSTER/port"
    echo ">> PostgreSQL started on 127.0.0.1:$port$([[ -n "$SOCKET_DIR" ]] \
        && echo " and $SOCKET_DIR/.s.PGSQL.$port"): $DATA" >&2
fi

if [[ "$(psql_ "$port" "SELECT 1 FROM pg_database WHERE datname = 'dpclass'")" != 1 ]]; then
    psql_ "$port" "CREATE DATABASE dpclass" >/dev/null \
        || die "could not create the database dpclass (log: $LOG)"
fi
url "$port"
