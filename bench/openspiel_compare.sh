#!/usr/bin/env bash
# Random-playout throughput of every game id (`cardroom playouts`, release build, through the erased
# layer, legal actions included) beside OpenSpiel's own C++ random-playout loop on hearts, measured
# in one run on this machine, with the ratio of each id to OpenSpiel and PASS/FAIL against the goal
# of issue 12 (every id at least 5x OpenSpiel).
#
#   bench/openspiel_compare.sh                      # defaults: 2 s per (id, players), 5x goal
#   SECONDS_PER_ID=3 bench/openspiel_compare.sh     # longer runs
#   ONLY=watten bench/openspiel_compare.sh          # ids containing `watten` only
#   CARDROOM_BIN=path/to/cardroom bench/openspiel_compare.sh   # skip the release build
#   BASELINE=/tmp/cardroom-before bench/openspiel_compare.sh     # and a baseline build, id by id
#
# Needs python3 (with venv) and cargo. Installs OpenSpiel from PyPI into target/openspiel-venv once
# (a wheel, about 20 s); if that fails, the cardroom side still runs and the ratios say n/a.
# Bounded: about SECONDS_PER_ID x (ids + their extra player counts) + 2 x OPENSPIEL_SECONDS.
# Exit status: 0 all PASS, 1 some id below goal, 2 OpenSpiel unavailable.
set -euo pipefail
cd "$(dirname "$0")/.."
export SECONDS_PER_ID=${SECONDS_PER_ID:-2}
export OPENSPIEL_SECONDS=${OPENSPIEL_SECONDS:-3}
export GOAL=${GOAL:-5}
export ONLY=${ONLY:-}
export BASELINE=${BASELINE:-}
VENV=${VENV:-target/openspiel-venv}
OPENSPIEL_VERSION=${OPENSPIEL_VERSION:-2.0.2}

if [ -z "${CARDROOM_BIN:-}" ]; then
  echo "# building cargo build --release -p api --bin cardroom" >&2
  cargo build --release -q -p api --bin cardroom
  CARDROOM_BIN=target/release/cardroom
fi
export CARDROOM_BIN

PYTHON=python3
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import pyspiel' 2>/dev/null; then
  echo "# installing open_spiel==$OPENSPIEL_VERSION from PyPI into $VENV" >&2
  if python3 -m venv "$VENV" >&2 &&
    "$VENV/bin/pip" install -q --disable-pip-version-check "open_spiel==$OPENSPIEL_VERSION" >&2; then
    PYTHON=$VENV/bin/python
  else
    echo "# OpenSpiel could not be installed from PyPI (network, or no wheel for $(python3 --version));" >&2
    echo "# the cardroom figures follow without ratios." >&2
  fi
else
  PYTHON=$VENV/bin/python
fi
exec "$PYTHON" bench/openspiel_compare.py
