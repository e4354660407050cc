"""One tree semantics on every session store: JSONL files, SQLite, PostgreSQL (a real server).

The pi golden corpus is put into each store and ``session context|tree|estimate|prepare`` are
compared with pi's goldens; export gives back every byte; a writer killed with -9 mid-append
leaves a readable session that takes the next append; two writers (two processes — for
PostgreSQL two connections, as from two machines) never split a session.
"""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from tests.store_backends import BACKENDS, DATABASES, Backend, kill, make_backend
from tests.store_helpers import CORPUS, assistant_message, golden, user_message
from tests.test_context_golden import assert_same_context
from tests.test_estimate_golden import assert_same_estimate
from tests.test_prepare_golden import cli_args, expected_cli_json
from tests.test_tree_golden import FIELDS
from tether.core.cli.app import main
from tether.core.host.manager import create_plugin_manager

NAMES = [p.stem for p in CORPUS]
LEGACY = {"e35-legacy-v1", "e36-legacy-v2-hookmessage"}
SAMPLE = next(p for p in CORPUS if p.stem == "g09-bash-exec")
GOLDEN_REQUESTS = json.loads((CORPUS[0].parent.parent / "golden" / "requests.json").read_text())


@pytest.fixture(scope="module")
def pm() -> Any:
    return create_plugin_manager(environ={**os.environ, "TETHER_LOAD_PLUGINS": ""})


@pytest.fixture(scope="module", params=BACKENDS)
def corpus(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Backend, dict[str, str]]:
    """The whole corpus in one store: (backend, name → how the commands name the session)."""
    backend = make_backend(request, request.param, tmp_path_factory.mktemp(request.param))
    if backend.uri is None:
        return backend, {p.stem: backend.add(p) for p in CORPUS}
    out = io.StringIO()
    os.environ["TETHER_STORE"] = backend.uri
    try:
        with redirect_stdout(out):
            code = main(["session", "import", *map(str, CORPUS), "--json"])
    finally:
        del os.environ["TETHER_STORE"]
    assert code == 0
    imported = json.loads(out.getvalue())
    return backend, {Path(item["file"]).stem: item["sessionId"] for item in imported}


def cli(pm: Any, backend: Backend, monkeypatch: pytest.MonkeyPatch, capsys: Any, *args: str) -> Any:
    """One in-process ``tether`` command on ``backend``; its JSON output."""
    if backend.uri is not None:
        monkeypatch.setenv("TETHER_STORE", backend.uri)
    capsys.readouterr()
    code = main(list(args), pm=pm)
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_every_builtin_store_takes_append_from_one_base() -> None:
    """The JSONL file and the SQL databases (SQLite, PostgreSQL) share one ``append``: records
    become pi's lines in one place; each store only writes the lines."""
    from tether.builtin_plugins.storage.format.line_store import LineStore
    from tether.builtin_plugins.storage.jsonl.store import JsonlStore
    from tether.builtin_plugins.storage.sql.db_store import DatabaseSessionStore

    for store in (JsonlStore, DatabaseSessionStore):
        assert issubclass(store, LineStore) and "append" not in vars(store), store


@pytest.mark.parametrize("name", NAMES)
def test_the_corpus_equals_pi_goldens_on_every_store(
    name: str, corpus: Any, pm: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    backend, refs = corpus
    ref = refs[name]
    legacy = name in LEGACY

    context = cli(pm, backend, monkeypatch, capsys, "session", "context", ref, "--json")
    assert_same_context(context, golden(name, "context"), leaf=not legacy)

    tree = cli(pm, backend, monkeypatch, capsys, "session", "tree", ref, "--json")
    expected_tree = golden(name, "tree")
    fields = ("entryCount", "sessionName") if legacy else FIELDS
    for field in fields:
        assert tree[field] == expected_tree[field], field

    request = GOLDEN_REQUESTS[f"{name}.estimate"]
    args = ["--window", str(request["window"]), "--reserve", str(request["reserve"])]
    args += ["--keep", str(request["keep"]), "--json"]
    estimate = cli(pm, backend, monkeypatch, capsys, "session", "estimate", ref, *args)
    assert_same_estimate(estimate, golden(name, "estimate"), ids=not legacy)

    prepare_args = cli_args(Path(ref), GOLDEN_REQUESTS[f"{name}.prepare"])
    report = cli(pm, backend, monkeypatch, capsys, *prepare_args, "--json")
    expected = expected_cli_json(name)
    if name == "e40-no-messages":  # tether's fix §8.10 (as tests/test_prepare_golden.py)
        assert report["reason"].startswith("Nothing to compact")
        return
    if name == "g09-bash-exec":  # §8.8
        expected["isSplitTurn"] = False
    if legacy:
        for key in ("summarizedEntryIds", "turnPrefixEntryIds"):
            assert len(report.pop(key, [])) == len(expected.pop(key, []))
        report.pop("firstKeptEntryId", None)
        expected.pop("firstKeptEntryId", None)
    assert {k: report.get(k) for k in expected} == expected


@pytest.mark.parametrize("backend_name", DATABASES)
def test_export_gives_back_every_byte(
    backend_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = make_backend(request, backend_name, tmp_path / "store")
    files = [p for p in CORPUS if p.stem not in LEGACY]
    files.append(Path(__file__).parent / "fixtures" / "store_pi" / "dup-header-pi.jsonl")
    header, first, second, *_ = SAMPLE.read_bytes().split(b"\n")
    header = header.replace(b'"id":"', b'"id":"0dd', 1)
    odd = tmp_path / "odd.jsonl"  # a BOM, blank lines, a damaged line, no final newline
    odd.write_bytes(
        b"\xef\xbb\xbf" + header + b"\r\n\n  \n" + first + b'\n{"type":"mess\n' + second
    )
    files.append(odd)
    done = backend.tether("session", "import", *map(str, files), "--json")
    assert done.returncode == 0, done.stderr
    from tether.builtin_plugins.commands.store.listing import export_session

    imported = json.loads(done.stdout)
    for number, item in enumerate(imported):
        out = tmp_path / f"{item['sessionId']}.jsonl"
        if number == 0:  # the command once, the same function for the rest
            exported = backend.tether("session", "export", item["sessionId"][:13], "-o", str(out))
            assert exported.returncode == 0, exported.stderr
        else:
            export_session(backend.database(), item["sessionId"], out)
        assert out.read_bytes() == Path(item["file"]).read_bytes(), item["file"]


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_kill_9_mid_append_leaves_a_session_that_goes_on(
    backend_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = make_backend(request, backend_name, tmp_path / "store")
    ref = backend.add(SAMPLE)
    before = len(backend.open(ref, readonly=True).entries())
    child = backend.child("append", ref, "100000")
    try:
        assert child.stdout is not None
        for line in child.stdout:
            if line.strip() == "ok 40":
                break
    finally:
        kill(child)
    session = backend.open(ref)
    added = session.entries()[before:]
    texts = [e["message"]["content"][0]["text"] for e in added]
    pairs = len(texts) // 2
    assert pairs >= 41
    assert texts[: 2 * pairs] == [t for i in range(pairs) for t in (f"m{i}", f"a{i}")]
    assert all(p.kind == "torn" for p in session.problems)  # only JSONL can tear a line
    session.append_message(user_message("after the crash"))
    session.append_message(assistant_message("still here"))
    again = backend.open(ref, readonly=True)
    assert [e["message"]["content"][0]["text"] for e in again.get_branch()[-2:]] == [
        "after the crash",
        "still here",
    ]
    assert not again.problems


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_a_second_writer_process_is_stopped_by_the_lease(
    backend_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = make_backend(request, backend_name, tmp_path / "store")
    ref = backend.add(SAMPLE)
    holder = backend.child("hold", ref)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        busy = backend.tether("run", "--session", ref, "--provider", "faux", "hi")
        assert busy.returncode != 0
        assert busy.stderr.count("\n") == 1 and f"in use by pid {holder.pid}" in busy.stderr
    finally:
        kill(holder)  # the lease ends with its holder, however it ends
    done = backend.tether("run", "--session", ref, "--provider", "faux", "hi")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_an_append_on_a_stale_read_is_refused_and_writes_nothing(
    backend_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = make_backend(request, backend_name, tmp_path / "store")
    ref = backend.add(SAMPLE)
    stale = backend.child("stale", ref)  # another process: for PostgreSQL another connection
    try:
        assert stale.stdout is not None and stale.stdout.readline().strip() == "read"
        session = backend.open(ref)
        session.append_message(user_message("first writer"))
        count = len(backend.open(ref, readonly=True).entries())
        answer, _ = stale.communicate("go\n", timeout=60)
    finally:
        kill(stale)
    assert answer.startswith("refused: ") and "another writer appended 1 entry" in answer
    after = backend.open(ref, readonly=True)
    assert len(after.entries()) == count
    assert after.get_branch()[-1]["message"]["content"][0]["text"] == "first writer"


@pytest.mark.parametrize("backend_name", DATABASES)
def test_a_session_stored_in_many_chunks_reads_and_exports_the_same(
    backend_name: str, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: Any
) -> None:
    from tether.builtin_plugins.commands.store.listing import export_session
    from tether.builtin_plugins.storage.sql import database
    from tether.core.context.build import build_session_context
    from tether.core.session.session import Session

    monkeypatch.setattr(database, "CHUNK_BYTES", 2000)  # dozens of chunks instead of one
    backend = make_backend(request, backend_name, tmp_path / "store")
    ref = backend.add(SAMPLE)
    session = backend.open(ref)
    session.append_message(user_message("one more"))
    session.append_message(assistant_message("and its answer"))
    assert len(backend.database().read(ref).chunks) > 20
    out = tmp_path / "out.jsonl"
    export_session(backend.database(), ref, out)
    ours = backend.open(ref, readonly=True)
    theirs = Session.open(out, readonly=True)
    assert out.read_bytes().startswith(SAMPLE.read_bytes())
    assert ours.leaf_id == theirs.leaf_id
    assert (
        build_session_context(ours.get_branch()).messages
        == build_session_context(theirs.get_branch()).messages
    )
    store = backend.database()
    assert [len(x) for x in store.tail(ref, 3)] == [
        len(x) for x in out.read_bytes().split(b"\n")[-4:-1]
    ]
