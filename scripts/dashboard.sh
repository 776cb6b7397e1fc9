#!/usr/bin/env bash
# Start the dashboard: creates .venv and installs requirements.lock if needed, then runs
# Streamlit. Extra arguments go to `streamlit run`, e.g.
#   scripts/dashboard.sh --server.port 8502
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"   # cd's to the repo root
ensure_venv requirements.lock   # the tested versions (requirements.txt: the ranges)
exec .venv/bin/streamlit run app.py "$@"
