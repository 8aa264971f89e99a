#!/usr/bin/env bash
# Installs every Debian package ccsched needs to build and test. Idempotent: when all
# packages are present it prints nothing and touches nothing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libcadical-dev libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev
  graphviz libgraphviz-dev
  # render: headless Chromium opens the HTML reports in the tests; fonts for the pictures
  chromium fonts-dejavu-core
  # codegen: generated MPI programs are compiled and run in the tests
  # dist: the island model of the evolutionary engines (mpirun -np N ccsched solve ...)
  libopenmpi-dev openmpi-bin
  # simulate: SimGrid replay (optional at build time, installed so CI runs it)
  libsimgrid-dev
  # hardening: libFuzzer targets of the readers (scripts/fuzz.sh, the `fuzz` preset)
  clang-14 libclang-rt-14-dev
  # python: the `ccsched` module (pybind11), its pytest suite with NetworkX graphs, and the
  # worked example of docs/PYTHON.md, which draws with matplotlib; the doc examples' runner
  pybind11-dev python3-dev python3-pytest python3-networkx python3-matplotlib
  # bench: the offline SAT searches of bench/ (cube_blocks_sat.py, scan_block_sat.py) run
  # the CaDiCaL binary; the library links libcadical-dev above
  cadical
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
