# shellcheck shell=bash
# Shared helper for scripts/dashboard.sh and scripts/test.sh. Source it; do not run it.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
#   ensure_venv requirements.txt
#
# On sourcing it cd's to the repository root (so callers work from any cwd) and sets
# REPO_ROOT. ensure_venv REQFILE creates .venv with python3 when it is missing or
# broken, and (re)installs REQFILE only when the sha256 of REQFILE and of the files it
# pulls in with "-r" differs from the stamp kept in .venv/.stamp-<REQFILE>.

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

# Print REQFILE and, recursively, every file it includes with -r/--requirement.
_req_closure() {
    local file="$1" dir inc
    printf '%s\n' "$file"
    dir="$(dirname "$file")"
    # Lines like "-r other.txt", "--requirement=other.txt", "--requirement other.txt".
    sed -nE 's/^[[:space:]]*(-r|--requirement)[[:space:]=]+([^[:space:]#]+).*/\2/p' "$file" |
        while IFS= read -r inc; do
            _req_closure "$dir/$inc"
        done
}

ensure_venv() {
    local req="$1" stamp want have=""
    if [[ ! -f "$req" ]]; then
        echo "error: $REPO_ROOT/$req not found" >&2
        return 1
    fi

    if [[ ! -x .venv/bin/python ]] || ! .venv/bin/python -c '' 2>/dev/null; then
        echo ">> creating virtualenv in $REPO_ROOT/.venv" >&2
        python3 -m venv --clear .venv
    fi

    stamp=".venv/.stamp-$(basename "$req")"
    want="$(_req_closure "$req" | xargs sha256sum)"
    [[ -f "$stamp" ]] && have="$(cat "$stamp")"
    if [[ "$want" != "$have" ]]; then
        echo ">> installing $req into .venv" >&2
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
        printf '%s\n' "$want" >"$stamp"
    fi
}
