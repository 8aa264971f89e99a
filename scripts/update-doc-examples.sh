#!/usr/bin/env bash
# Rewrites the outputs shown under the `$ ccsched ...` examples of README.md and docs/*.md
# from what the Release build's command prints now (tests/docs/doc_examples.py --update),
# keeping the "..." elisions. Run it after a change that alters output on purpose, then
# read `git diff` before committing: the docs' prose around an example may need the same
# change. The doc_examples_* tests compare the docs with the command (times masked).
#
#   bash scripts/update-doc-examples.sh [FILE...]     (default: README.md docs/*.md)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh release ccsched >/dev/null
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(README.md docs/*.md)
python3=/usr/bin/python3
[ -x "$python3" ] || python3=python3
"$python3" tests/docs/doc_examples.py --binary build/release/ccsched --update "${files[@]}"
# A second pass checks the rewrite: it fails when an example's output is not repeatable.
"$python3" tests/docs/doc_examples.py --binary build/release/ccsched "${files[@]}"
