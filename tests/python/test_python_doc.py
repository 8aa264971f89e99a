"""docs/PYTHON.md runs: its ```python blocks, in order, in one namespace, in a fresh folder
(the worked example's asserts are the checks; it also writes the picture it describes)."""
import os
import pathlib
import re

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "PYTHON.md"


def test_worked_example_runs(tmp_path, monkeypatch):
    blocks = re.findall(r"^```python\n(.*?)^```", DOC.read_text(), re.S | re.M)
    assert len(blocks) >= 5
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    assert os.path.getsize(tmp_path / "torus_aab.png") > 10000
    assert (tmp_path / "torus_aab.json").exists()
