"""pytest-xdist workers share the compiling of a cold run. Each worker collects the whole
suite: in a fresh checkout (or a fresh ``PYTHONPYCACHEPREFIX``) each one rewrote the asserts of
all ~190 test modules and compiled tether's ~300 modules itself, ~10 s of CPU per worker where
warm caches need ~3.5 s. Before collecting, worker ``k`` of ``n`` writes the caches of every
``n``-th file from ``k`` (assert-rewritten pycs the way pytest's import hook writes and reads
them, plain pycs for the rest); the others then find them. Best effort: a cache not yet written
or not writable is made by the import as before, so nothing but the time depends on it."""

from __future__ import annotations

import importlib.util
import py_compile
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _rewritten() -> list[Path]:
    """The files pytest's import hook rewrites: the test modules."""
    found = [*(ROOT / "tests").glob("test_*.py"), *ROOT.glob("plugin_examples/*/tests/test_*.py")]
    return sorted(found)


def _this_run(config: pytest.Config) -> list[Path]:
    """The test modules under the paths this run was given (all of them without any)."""
    known = set(_rewritten())
    found: set[Path] = set()
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        found.update(p for p in known if p == path or path in p.parents)
    return sorted(found)


def _plain() -> list[Path]:
    """The modules imported without rewriting: tether's, the examples' and the test helpers."""
    found = [*(ROOT / "tether").rglob("*.py"), *ROOT.glob("plugin_examples/*/tether_*/*.py")]
    found += (p for p in (ROOT / "tests").glob("*.py") if not p.name.startswith("test_"))
    return sorted(p for p in found if p.name != "conftest.py")


def _write_rewritten(config: pytest.Config, files: list[Path]) -> None:
    from _pytest.assertion import rewrite

    state = config.stash[rewrite.assertstate_key]
    for fn in files:
        cache_dir = rewrite.get_cache_dir(fn)
        pyc = cache_dir / (fn.name[:-3] + rewrite.PYC_TAIL)
        if pyc.exists() or not rewrite.try_makedirs(cache_dir):
            continue
        source_hash, co = rewrite._rewrite_test(fn, config)
        rewrite._write_pyc(state, co, source_hash, pyc)


def _write_plain(files: list[Path]) -> None:
    for fn in files:
        cfile = importlib.util.cache_from_source(str(fn))
        if not Path(cfile).exists():
            py_compile.compile(str(fn), cfile=cfile, doraise=False, quiet=2)


def share_compiling(config: pytest.Config) -> None:
    """In an xdist worker (``config.workerinput``): write this worker's share of the caches."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None or sys.dont_write_bytecode:
        return
    k, n = int(workerinput["workerid"].removeprefix("gw")), int(workerinput["workercount"])
    try:
        tests = _this_run(config)
        if len(tests) < 4 * n:  # a few files: sharing would compile more than the run needs
            return
        if config.getoption("assertmode") == "rewrite":
            _write_rewritten(config, tests[k::n])
        _write_plain(_plain()[k::n])
    except Exception:  # pytest's internals moved: the imports compile as before
        return


__all__ = ["share_compiling"]
