#!/usr/bin/env bash
# Run the test suite: creates .venv and installs requirements-dev.lock if needed, makes
# sure Debian's Chromium is there for the browser tests, Debian's haproxy for the replica
# tests and Debian's postgresql for the class database tests (a real PostgreSQL server that
# each pytest process starts with scripts/postgres.sh: tests/pgkit.py), then runs pytest.
# Tiers (README, "Tests"); every run prints its 25 slowest tests at the end:
#   scripts/test.sh            the default tier, what CI runs: all but the extended tests,
#                              the journey tester at 60 steps a page (about 11.5 min in all
#                              on a fresh clone of a 2-core machine, install included)
#   scripts/test.sh --quick    the edit loop (about 3.5 min): no browser, no extended or slow
#                              test, 40 journey steps a page
#   scripts/test.sh --all      everything: the extended tier too, 2,000 journey steps a page
# Extra arguments go to pytest (a -m given there replaces the tier's), e.g.
#   scripts/test.sh --quick -k homogeneity
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"   # cd's to the repo root
ensure_venv requirements-dev.lock   # the tested versions (requirements-dev.txt: the ranges)

# Debian's package $1 (for the tests named by $2) when the command $3 is missing: installed
# with apt-get as root, else a note on how to install it.
ensure_debian_package() {
    local package="$1" tests="$2" command="$3"
    command -v "$command" >/dev/null || [[ -x "/usr/sbin/$command" ]] && return 0
    install_debian_package "$package" "$tests" "$command"
}

# Debian's package $1 for the tests named by $2, because $3 is missing (as above).
install_debian_package() {
    local package="$1" tests="$2" missing="$3"
    if [[ "$(id -u)" -eq 0 ]]; then
        echo ">> $missing missing: installing Debian's $package" >&2
        export DEBIAN_FRONTEND=noninteractive
        if ! { apt-get update -q && apt-get install -y -q "$package"; }; then
            echo "warning: installing $package failed; $tests may skip or fail" >&2
        fi
    else
        echo "note: $missing is missing and we are not root; $tests need it:" \
            "run 'sudo apt-get install $package'" >&2
    fi
}

# Browser tests drive Debian's /usr/bin/chromium through the PyPI playwright package
# (never `playwright install`: it downloads a browser build, which cannot work here).
ensure_debian_package chromium "the browser tests" chromium
# Charts and pages in Korean need a font with Hangul (the browser tests read and screenshot
# them): Debian's Noto CJK fonts, when no Korean font is installed.
if ! { command -v fc-list >/dev/null && [[ -n "$(fc-list :lang=ko 2>/dev/null)" ]]; }; then
    install_debian_package fonts-noto-cjk "the Korean browser tests" "a font with Hangul"
fi
# The replica tests (tests/test_replicas.py) put Debian's haproxy in front of two Streamlit
# processes, as scripts/serve.sh does.
ensure_debian_package haproxy "the replica tests" haproxy
# The class database tests (tests/pgkit.py: the fixtures postgres_url and database_url) run
# a real PostgreSQL server with scripts/postgres.sh, from Debian's postgresql package, whose
# server is under /usr/lib/postgresql/<version>/bin, not on the PATH. (Debian's own cluster,
# which installing it creates, is not used: the tests start their own on ports of their own.)
if ! compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null; then
    install_debian_package postgresql "the class database tests" "PostgreSQL's server"
fi

tier=(-m "not extended")
case "${1:-}" in
    --quick) shift; tier=(-m "not extended and not browser and not slow and not handover")
             export JOURNEY_STEPS="${JOURNEY_STEPS:-40}" ;;
    --all) shift; tier=(); export JOURNEY_STEPS="${JOURNEY_STEPS:-2000}" ;;
esac
exec .venv/bin/python -m pytest "${tier[@]}" "$@"
