#!/usr/bin/env bash
# Creates (once) a Python venv holding Google's own API client and schemathesis, pinned, for the
# conformance checks: the stand-in and the API are exercised by clients nobody here wrote. Idempotent: when the venv
# already has exactly these pins it returns at once without touching the network.
#
#   Tests/conformance/bootstrap_venv.sh            # venv at ${ALFRED_PYVENV:-<repo>/.build/pyvenv}
#   "$ALFRED_PYVENV/bin/python" Tests/conformance/google_client_check.py ...
#
# Prints the venv's python path as its last line. Needs python3 (>= 3.9) with the venv module, and PyPI.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="${ALFRED_PYVENV:-$repo/.build/pyvenv}"

# Pinned: the discovery documents bundled with the client are what check_requests.py validates against,
# so a version bump is a deliberate change.
pins=(
  "google-api-python-client==2.202.0"
  "google-auth==2.62.2"
  # An independent client of our own API's contract (Tests/APITests/ContractTests.swift).
  "schemathesis==4.32.5"
)
stamp="$venv/.alfred-pins"
wanted="$(printf '%s\n' "${pins[@]}")"

# Suites that need the venv run in parallel, and on a fresh clone each would create it at once (one
# then fails half-way through). Serialise: a second caller waits here, then finds the venv ready. The
# lock (a file next to the venv) is released when this script exits; the limit only stops a hang.
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
if ! flock -w 900 9; then
  echo "bootstrap_venv: another bootstrap held $venv.lock for 15 minutes" >&2
  exit 4
fi

if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
  echo "$venv/bin/python"
  exit 0
fi

python="${PYTHON:-python3}"
if ! command -v "$python" >/dev/null 2>&1; then
  echo "bootstrap_venv: '$python' not found; install python3 (with the venv module) or set PYTHON" >&2
  exit 2
fi
if [[ ! -x "$venv/bin/python" ]]; then
  if ! "$python" -m venv "$venv" >&2; then
    echo "bootstrap_venv: '$python -m venv $venv' failed; on Debian install python3-venv" >&2
    exit 2
  fi
fi
if ! "$venv/bin/python" -m pip install --disable-pip-version-check --quiet "${pins[@]}" >&2; then
  echo "bootstrap_venv: pip could not install ${pins[*]} from PyPI into $venv" >&2
  exit 3
fi
printf '%s\n' "${pins[@]}" > "$stamp"
echo "$venv/bin/python"
