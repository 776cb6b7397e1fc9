#!/usr/bin/env bash
# Build the API reference of dpcore (the computations) and dpviz (the figures) as HTML with
# pdoc, from the NumPy-style docstrings, into build/docs (not committed; open
# build/docs/index.html). Creates .venv and installs requirements-dev.lock if needed.
# Another output folder: scripts/docs.sh path/to/folder
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"   # cd's to the repo root
ensure_venv requirements-dev.lock
out="${1:-build/docs}"
.venv/bin/python -m pdoc --docformat numpy --no-math \
    --footer-text "dpcore $(.venv/bin/python -c 'import dpcore; print(dpcore.__version__)')" \
    -o "$out" dpcore dpviz
echo "API reference written to $out/index.html" >&2
