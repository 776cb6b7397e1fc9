#!/usr/bin/env bash
# Serve the dashboard to a class: N Streamlit processes ("replicas") on this machine behind
# HAProxy, which keeps each browser session on one replica (a cookie) and moves the
# sessions of a replica that dies to the others. Creates .venv and installs
# requirements.lock if needed, and Debian's haproxy when it is missing (as root).
#
#   bash scripts/serve.sh [--replicas N] [--port P] [--bind ADDR] [--state-dir DIR]
#                         [--database-url URL] [--check]
#
#   --replicas N     Streamlit processes (default 2), on 127.0.0.1, ports P+1 ... P+N
#   --port P         the proxy's port, the address students open (default 8501)
#   --bind ADDR      the proxy's address (default *: every interface of this machine)
#   --state-dir DIR  the shared cookie secret, the rendered HAProxy configuration, the
#                    replicas' logs and process ids, the PostgreSQL cluster serve.sh starts
#                    (default .serve, git-ignored)
#   --database-url URL  the database of the class activities (dpclass/storage.py), a
#                    SQLAlchemy URL, e.g. postgresql+psycopg://USER:PASSWORD@HOST/dpclass
#                    (default: DPCLASS_DATABASE_URL, better for a password, which `ps` does
#                    not show). Without one: with 2 replicas or more, a PostgreSQL server
#                    of this machine (scripts/postgres.sh, durable: what it acknowledged
#                    survives a crash) in DIR/postgres, started here and stopped on exit,
#                    so that every replica sees the same activities; with 1 replica, the
#                    SQLite file $DPCLASS_DATA_DIR/class.db (default .data/class.db)
#   --check          only write DIR/haproxy.cfg and check it with `haproxy -c`
#
# The HAProxy configuration is deploy/haproxy.cfg with its "serve.sh:" blocks (the proxy's
# address and one server line per replica) rewritten. All replicas get one
# server.cookieSecret: STREAMLIT_SERVER_COOKIE_SECRET if set, else a random one kept in
# DIR/cookie_secret. Every replica gets the database's URL as DPCLASS_DATABASE_URL (which
# database is used is said on standard error, any password masked). A replica that exits is
# started again after 2 s. Ctrl-C (or SIGTERM) stops HAProxy, every replica, then the
# PostgreSQL server serve.sh started. SERVE_SKIP_VENV=1 uses .venv as it is (the tests, whose
# .venv scripts/test.sh has made).
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

REPLICAS=2
PORT=8501
BIND="*"
STATE_DIR=".serve"
CHECK_ONLY=0
DATABASE_URL="${DPCLASS_DATABASE_URL:-}"
while (($#)); do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --check) CHECK_ONLY=1; shift ;;
        --replicas|--port|--bind|--state-dir|--database-url)
            if (($# < 2)); then
                echo "error: $1 takes a value" >&2
                exit 2
            fi
            case "$1" in
                --replicas) REPLICAS="$2" ;;
                --port) PORT="$2" ;;
                --bind) BIND="$2" ;;
                --state-dir) STATE_DIR="$2" ;;
                --database-url)
                    DATABASE_URL="$2"
                    if [[ -z "$2" ]]; then
                        echo "error: --database-url takes a value" >&2
                        exit 2
                    fi ;;
            esac
            shift 2 ;;
        *) echo "error: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
if ! [[ "$REPLICAS" =~ ^[1-9][0-9]*$ && "$PORT" =~ ^[1-9][0-9]*$ ]] \
        || ((PORT + REPLICAS > 65535)); then
    echo "error: --replicas and --port take positive whole numbers (ports up to 65535)" >&2
    exit 2
fi
if [[ -z "$BIND" || -z "$STATE_DIR" ]]; then
    echo "error: --bind and --state-dir take a value" >&2
    exit 2
fi

source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"   # cd's to the repo root

# --- HAProxy: Debian's package -------------------------------------------------------------
find_haproxy() { command -v haproxy || { [[ -x /usr/sbin/haproxy ]] && echo /usr/sbin/haproxy; }; }
if ! HAPROXY="$(find_haproxy)"; then
    if [[ "$(id -u)" -eq 0 ]]; then
        echo ">> haproxy missing: installing Debian's haproxy" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q && apt-get install -y -q haproxy
        HAPROXY="$(find_haproxy)"
    else
        echo "error: haproxy is not installed and we are not root: run" \
            "'sudo apt-get install haproxy', then this script again" >&2
        exit 1
    fi
fi

# --- the configuration -----------------------------------------------------------------------
mkdir -p "$STATE_DIR"
STATE_DIR="$(cd "$STATE_DIR" && pwd)"
TEMPLATE="deploy/haproxy.cfg"
CONFIG="$STATE_DIR/haproxy.cfg"
for marker in "servers begin" "servers end" "bind begins" "bind ends"; do
    if [[ "$(grep -c "# serve.sh: $marker" "$TEMPLATE")" != 1 ]]; then
        echo "error: $TEMPLATE must hold the line '# serve.sh: $marker' once" >&2
        exit 1
    fi
done
servers=""
for ((i = 1; i <= REPLICAS; i++)); do
    servers+="    server s$i 127.0.0.1:$((PORT + i)) cookie s$i\n"
done
awk -v servers="$servers" -v bind="    bind $BIND:$PORT\n" '
    /# serve.sh: servers begin/ { print; printf "%s", servers; skip = 1; next }
    /# serve.sh: bind begins/   { print; printf "%s", bind; skip = 1; next }
    /# serve.sh: (servers end|bind ends)/ { skip = 0 }
    !skip { print }
' "$TEMPLATE" >"$CONFIG"
"$HAPROXY" -c -q -f "$CONFIG"
if ((CHECK_ONLY)); then
    echo ">> $CONFIG: valid ($("$HAPROXY" -v | head -n 1))" >&2
    exit 0
fi

if [[ "${SERVE_SKIP_VENV:-0}" != 1 ]]; then
    ensure_venv requirements.lock   # the tested versions (requirements.txt: the ranges)
fi

# --- the shared cookie secret ----------------------------------------------------------------
if [[ -z "${STREAMLIT_SERVER_COOKIE_SECRET:-}" ]]; then
    # One secret for every replica, kept so that a restart keeps it: Streamlit signs its
    # session and login cookies (_streamlit_session, _streamlit_user) with
    # server.cookieSecret, random per process by default, so a cookie one replica signed
    # would be invalid on another. (Its XSRF cookie is a random token compared with the
    # one the page sends: no secret.) Passed in the environment, not on the command line,
    # which `ps` shows to every user.
    if [[ ! -s "$STATE_DIR/cookie_secret" ]]; then
        (umask 077 && .venv/bin/python -c 'import secrets; print(secrets.token_hex(32))' \
            >"$STATE_DIR/cookie_secret")
    fi
    STREAMLIT_SERVER_COOKIE_SECRET="$(<"$STATE_DIR/cookie_secret")"
fi
export STREAMLIT_SERVER_COOKIE_SECRET

# Whether something answers on 127.0.0.1:$1 (bash's /dev/tcp: no curl needed).
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# Whether the Streamlit process on 127.0.0.1:$1 answers its health check with 200.
healthy() {
    (
        exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
        printf 'GET /_stcore/health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
        status=""
        IFS= read -r -t 2 status <&3 || true
        [[ "$status" =~ ^HTTP/[0-9.]+\ 200 ]]
    ) 2>/dev/null
}
for ((p = PORT; p <= PORT + REPLICAS; p++)); do
    if listening "$p"; then
        echo "error: port $p is taken (the proxy uses $PORT, the replicas $((PORT + 1))" \
            "to $((PORT + REPLICAS)))" >&2
        exit 1
    fi
done

# --- start, stop -----------------------------------------------------------------------------
PIDS=()   # the replicas' supervisor loops, then HAProxy
PG_DIR=""  # the PostgreSQL cluster started here, if any
stop_all() {
    trap - EXIT HUP INT TERM
    echo ">> stopping HAProxy and the replicas" >&2
    kill -TERM "${PIDS[@]}" 2>/dev/null || true
    wait "${PIDS[@]}" 2>/dev/null || true
    if [[ -n "$PG_DIR" ]]; then
        bash scripts/postgres.sh stop "$PG_DIR" || true
    fi
}
trap stop_all EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the class activities' database ----------------------------------------------------------
# A URL with its password (user:PASSWORD@ or password=) masked, for messages.
masked() { sed -E 's#^([^:/]+://[^:/@]*):.*@#\1:***@#; s#([?&]password=)[^&]*#\1***#I' <<<"$1"; }
if [[ -n "$DATABASE_URL" ]]; then
    echo ">> class activities: the database at $(masked "$DATABASE_URL")" >&2
elif ((REPLICAS > 1)); then
    # One database for every replica: a student's answer taken by one replica must show on
    # the teacher's page, whichever replica serves it.
    PG_DIR="$STATE_DIR/postgres"
    echo ">> class activities: starting PostgreSQL in $PG_DIR for the $REPLICAS replicas" >&2
    if ! DATABASE_URL="$(bash scripts/postgres.sh start "$PG_DIR" | tail -n 1)" \
            || [[ -z "$DATABASE_URL" ]]; then
        echo "error: PostgreSQL did not start (see above); give --database-url, or" \
            "--replicas 1 for the SQLite file" >&2
        exit 1
    fi
    pg_port="$(sed -E 's#.*:([0-9]+)/[^/]*$#\1#' <<<"$DATABASE_URL")"
    if ((pg_port >= PORT && pg_port <= PORT + REPLICAS)); then
        echo "error: the PostgreSQL of $PG_DIR took port $pg_port, which --port $PORT" \
            "needs: choose another --port" >&2
        exit 1
    fi
    echo ">> class activities: PostgreSQL at $(masked "$DATABASE_URL") (its data:" \
        "$PG_DIR; stopped on exit)" >&2
else
    echo ">> class activities: the SQLite file ${DPCLASS_DATA_DIR:-.data}/class.db (one" \
        "replica; several share a PostgreSQL server)" >&2
fi
if [[ -n "$DATABASE_URL" ]]; then
    export DPCLASS_DATABASE_URL="$DATABASE_URL"
else
    unset DPCLASS_DATABASE_URL
fi

# Replica $1 on port $2, started again whenever it exits; its pid in replica-$1.pid.
supervise() {
    local i="$1" port="$2" pid=0 status
    trap 'kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; exit 0' TERM
    while true; do
        .venv/bin/streamlit run app.py --server.port "$port" --server.address 127.0.0.1 \
            --server.headless true --browser.serverPort "$PORT" \
            >>"$STATE_DIR/replica-$i.log" 2>&1 &
        pid=$!
        echo "$pid" >"$STATE_DIR/replica-$i.pid"
        status=0
        wait "$pid" || status=$?
        echo ">> replica s$i (port $port) exited with status $status; starting it again" \
            "in 2 s (its log: $STATE_DIR/replica-$i.log)" >&2
        sleep 2 & wait $! || true
    done
}

for ((i = 1; i <= REPLICAS; i++)); do
    supervise "$i" "$((PORT + i))" &
    PIDS+=("$!")
done
echo ">> starting $REPLICAS Streamlit replicas on 127.0.0.1:$((PORT + 1))-$((PORT + REPLICAS))" \
    "(logs: $STATE_DIR/replica-*.log)" >&2
for ((i = 1; i <= REPLICAS; i++)); do
    for ((t = 0; t < 1200; t++)); do   # up to 120 s each
        healthy "$((PORT + i))" && break
        sleep 0.1
    done
    if ! healthy "$((PORT + i))"; then
        echo "error: replica s$i did not answer on port $((PORT + i)); its log:" >&2
        tail -n 30 "$STATE_DIR/replica-$i.log" >&2 || true
        exit 1
    fi
done

"$HAPROXY" -db -f "$CONFIG" &
PIDS+=("$!")
HAPROXY_PID="$!"
echo "$HAPROXY_PID" >"$STATE_DIR/haproxy.pid"
shown_host="$BIND"
[[ "$BIND" == "*" || "$BIND" == "0.0.0.0" ]] && shown_host="$(hostname -f 2>/dev/null || hostname)"
echo ">> serving the dashboard at http://$shown_host:$PORT/ through HAProxy" \
    "(configuration: $CONFIG); Ctrl-C stops it" >&2
status=0
wait "$HAPROXY_PID" || status=$?
# Only when HAProxy stopped by itself (a signal to this script exits through its trap).
echo "error: HAProxy stopped (status $status): see its messages above (as a user, the" \
    "hard limit of open files, ulimit -Hn, must allow two per connection of its maxconn)" >&2
exit "$status"
