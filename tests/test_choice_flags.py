"""``tether session compact|branch --summarizer/--strategy NAME``: an unknown name is one error
line naming the flag, found before any work (the file is untouched), also on a file that
has nothing left to compact."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.store_helpers import GEN, run_tether


def _tether(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {"TETHER_HOME": str(home), "TETHER_FSYNC": "0", "TETHER_LOAD_PLUGINS": ""}
    return run_tether(*args, cwd=tmp_path, env={**env, "TETHER_DISABLE_PLUGINS": None})


def _file(tmp_path: Path) -> Path:
    file = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / "g03-linear-tools.jsonl", file)
    return file


OFFLINE = ("--summarizer", "offline")

BAD = {
    "--summarizer": "tether: error: unknown summarizer 'nope' (from --summarizer); "
    "registered summarizers: llm, offline",
    "--strategy": "tether: error: unknown strategy 'nope' (from --strategy); "
    "registered strategies: pi",
}


def _fails_first(done: subprocess.CompletedProcess[str], flag: str) -> None:
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [BAD[flag]], done.stderr  # no "summarizing …" before it


@pytest.mark.parametrize("flag", sorted(BAD))
def test_an_unknown_name_is_found_before_any_work_and_names_the_flag(tmp_path, flag):
    file = _file(tmp_path)
    before = file.read_bytes()
    done = _tether(tmp_path, "session", "compact", str(file), "--keep", "3000", flag, "nope")
    _fails_first(done, flag)
    assert file.read_bytes() == before


@pytest.fixture(scope="module")
def compacted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session compacted until nothing is left to compact (made once; tests copy it)."""
    folder = tmp_path_factory.mktemp("compacted")
    file = _file(folder)
    done = _tether(folder, "session", "compact", str(file), "--keep", "3000", *OFFLINE)
    assert done.returncode == 0 and "compacted into entry" in done.stdout, done.stderr
    again = _tether(folder, "session", "compact", str(file), *OFFLINE)
    assert again.returncode == 0 and "nothing to compact" in again.stdout, again.stderr
    return file


@pytest.mark.parametrize("flag", sorted(BAD))
def test_an_unknown_name_fails_on_a_file_with_nothing_to_compact(tmp_path, compacted, flag):
    file = tmp_path / compacted.name
    shutil.copyfile(compacted, file)
    before = file.read_bytes()
    _fails_first(_tether(tmp_path, "session", "compact", str(file), flag, "nope"), flag)
    assert file.read_bytes() == before


def test_branch_summarize_names_the_summarizer_flag(tmp_path):
    file = _file(tmp_path)
    before = file.read_bytes()
    first = file.read_text().splitlines()[1].split('"id":"', 1)[1].split('"', 1)[0]
    done = _tether(
        tmp_path, "session", "branch", str(file), "--to", first, "--summarize",
        "--summarizer", "nope",
    )  # fmt: skip
    _fails_first(done, "--summarizer")
    assert file.read_bytes() == before
