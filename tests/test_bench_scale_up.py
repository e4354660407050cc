"""``bench/scale_up.py``: usage (not a traceback) without arguments, one error line for a bad
source or an existing target, and N copies of a branch hung one under the other."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.tree_fixture import build_branched
from tether.builtin_plugins.commands.session.tree_nodes import build_tree
from tether.core.session.session import Session

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "scale_up.py"


def _module() -> Any:
    spec = importlib.util.spec_from_file_location("scale_up", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_arguments_it_prints_usage() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "usage: bench/scale_up.py [-h] source target copies",
        "bench/scale_up.py: error: the following arguments are required: source, target, copies",
    ]


def test_bad_input_is_one_line(tmp_path: Path, capsys: Any) -> None:
    main = _module().main
    assert main([str(tmp_path / "none.jsonl"), str(tmp_path / "out.jsonl"), "2"]) == 1
    assert capsys.readouterr().err == f"scale_up: error: {tmp_path / 'none.jsonl'}: no such file\n"
    source = tmp_path / "s.jsonl"
    build_branched(source)
    taken = tmp_path / "taken.jsonl"
    taken.write_text("mine\n")
    assert main([str(source), str(taken), "2"]) == 1
    said = capsys.readouterr().err
    assert said == f"scale_up: error: {taken}: already exists; refusing to overwrite\n"
    assert taken.read_text() == "mine\n"
    with pytest.raises(SystemExit) as stopped:
        main([str(source), str(tmp_path / "out.jsonl"), "zero"])
    assert stopped.value.code == 2 and "argument copies" in capsys.readouterr().err


def test_copies_are_chained(tmp_path: Path) -> None:
    source, target = tmp_path / "s.jsonl", tmp_path / "t.jsonl"
    build_branched(source)
    assert _module().main([str(source), str(target), "3"]) == 0
    one = Session.open(source, readonly=True)
    three = Session.open(target, readonly=True)
    assert not three.problems
    assert len(three.entries()) == 3 * len(one.entries())
    assert len(build_tree(three)) == len(build_tree(one))
    assert three.leaf_id == f"c2-{one.leaf_id}"
