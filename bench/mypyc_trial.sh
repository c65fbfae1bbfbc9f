#!/usr/bin/env bash
# Trial: compile core's rules with mypyc into a temporary folder and time it against the pure-Python code.
#   bench/mypyc_trial.sh [MODULES...]     (default: core/rules/movegen.py and notation.py)
# Needs mypy in the virtualenv (.venv/bin/pip install mypy) and a C compiler. Nothing is built in the
# checkout: the compiled modules live in a temporary copy of core/ that is put first on PYTHONPATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="${PYTHON:-$here/.venv/bin/python}"
[ -x "$py" ] || py="$(command -v python3)"
mypyc="$(dirname "$py")/mypyc"
[ -x "$mypyc" ] || { echo "mypyc_trial: no mypyc beside $py; install mypy into the virtualenv first" >&2; exit 2; }
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(core/rules/movegen.py core/rules/notation.py)
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
cp -r "$here/core" "$build/"
find "$build" -name __pycache__ -prune -exec rm -rf {} +
echo "mypyc_trial: compiling ${modules[*]} in $build" >&2
(cd "$build" && "$mypyc" "${modules[@]}" >"$build/mypyc.log" 2>&1) || { tail -20 "$build/mypyc.log" >&2; exit 1; }
ls "$build"/core/rules/*.so "$build"/*.so >/dev/null
run() {  # label, pythonpath, then the command
    local label="$1" path="$2"; shift 2
    echo "== $label"
    (cd "$here" && PYTHONPATH="$path" "$py" "$@")
}
run "pure Python: bench_legal_plays" "$here" bench/bench_legal_plays.py
run "compiled: bench_legal_plays" "$build:$here" bench/bench_legal_plays.py
run "pure Python: bench_referee --files 100" "$here" bench/bench_referee.py --files 100
run "compiled: bench_referee --files 100" "$build:$here" bench/bench_referee.py --files 100
