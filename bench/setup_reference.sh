#!/usr/bin/env bash
# Install the reference server (kg-memory 0.17.0, from PyPI) into its own venv
# under .bench/ (git-ignored), apart from our .venv: its dependencies pin
# differently and it must not shadow our `kg`. Idempotent.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.bench/ref-venv"
py="${PYTHON:-python3}"
if ! "$venv/bin/kg" version 2>/dev/null | grep -q '0\.17\.0'; then
  "$py" -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'kg-memory==0.17.0'
fi
"$venv/bin/kg" --help >/dev/null
echo "reference: $("$venv/bin/kg" version) at $venv/bin/kg"
