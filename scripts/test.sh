#!/usr/bin/env bash
# Run the whole test suite: creates .venv and installs requirements-dev.lock if needed,
# makes sure Debian's Chromium is there for the browser tests, then runs pytest.
# Extra arguments go to pytest, e.g.
#   scripts/test.sh -m "not browser" -k homogeneity
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"   # cd's to the repo root
ensure_venv requirements-dev.lock   # the tested versions (requirements-dev.txt: the ranges)

# Browser tests drive Debian's /usr/bin/chromium through the PyPI playwright package
# (never `playwright install`: it downloads a browser build, which cannot work here).
if [[ ! -x /usr/bin/chromium ]]; then
    if [[ "$(id -u)" -eq 0 ]]; then
        echo ">> /usr/bin/chromium missing: installing Debian's chromium" >&2
        export DEBIAN_FRONTEND=noninteractive
        if ! { apt-get update -q && apt-get install -y -q chromium; }; then
            echo "warning: installing chromium failed; browser tests may skip or fail" >&2
        fi
    else
        echo "note: /usr/bin/chromium is missing and we are not root; the browser tests" \
            "need it: run 'sudo apt-get install chromium'" >&2
    fi
fi

# The replica tests (tests/test_replicas.py) put Debian's haproxy in front of two Streamlit
# processes, as scripts/serve.sh does.
if ! command -v haproxy >/dev/null && [[ ! -x /usr/sbin/haproxy ]]; then
    if [[ "$(id -u)" -eq 0 ]]; then
        echo ">> haproxy missing: installing Debian's haproxy" >&2
        export DEBIAN_FRONTEND=noninteractive
        if ! { apt-get update -q && apt-get install -y -q haproxy; }; then
            echo "warning: installing haproxy failed; the replica tests may skip or fail" >&2
        fi
    else
        echo "note: haproxy is missing and we are not root; the replica tests need it:" \
            "run 'sudo apt-get install haproxy'" >&2
    fi
fi

exec .venv/bin/python -m pytest "$@"
