"""Shared fixtures of the Python module's tests: the built `ccsched` command and a runner
that returns its exit status, stdout and stderr."""
import os
import subprocess

import pytest


@pytest.fixture
def cli(tmp_path):
    """Runs the built command in a fresh folder: cli("topo", "info", "g.json")."""
    binary = os.environ.get("CCSCHED_BINARY")
    if not binary or not os.path.exists(binary):
        pytest.skip("CCSCHED_BINARY not set (ctest sets it)")

    def run(*args):
        done = subprocess.run([binary, *args], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300)
        return done.returncode, done.stdout, done.stderr
    run.dir = tmp_path
    return run
