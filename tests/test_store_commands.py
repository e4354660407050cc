"""Every command works in a database store, a session named by its id or a unique prefix:
``run`` (new, ``--session``, ``-c``, ``--fork``), RPC mode, ``chat`` and its ``/new``, ``/resume``,
``/clone``, ``/session``; ``sessions`` (``--all``, ``--search``, ``--json``); ``session
show|tree|context|estimate|prepare|compact|branch|fork|clone|export|import``; the store chosen
by ``--store``, ``TETHER_STORE`` or the ``session.store`` setting."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.store_backends import DATABASES, Backend, make_backend
from tests.store_helpers import CORPUS
from tether.storage import uri_without_password

SAMPLE = next(p for p in CORPUS if p.stem == "g09-bash-exec")


def ok(backend: Backend, *args: str, **kw: object) -> str:
    done = backend.tether(*args, **kw)  # type: ignore[arg-type]
    assert done.returncode == 0, f"{args}: {done.stderr}"
    return str(done.stdout)


def listed(backend: Backend, *args: str) -> list[dict[str, object]]:
    return list(json.loads(ok(backend, "sessions", "--json", *args)))


@pytest.mark.parametrize("backend_name", DATABASES)
def test_every_command_works_in_a_database_store(
    backend_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = make_backend(request, backend_name, tmp_path / "store")
    ok(backend, "run", "--provider", "faux", "zebra crossing")
    [first] = listed(backend)
    sid = str(first["id"])
    prefix = sid[:13]
    assert first["firstMessage"] == "zebra crossing" and first["store"]
    # the first run and the RPC and chat sessions below are real processes; the other
    # writing commands run in this one (tests/cli_in_process.py), as the reading ones do
    ok(backend, "run", "--session", prefix, "--provider", "faux", "second turn", process=False)
    ok(backend, "run", "-c", "--provider", "faux", "third turn", process=False)
    tree = json.loads(ok(backend, "session", "tree", prefix, "--json"))
    assert tree["entryCount"] == 8  # model, thinking, 3 × (user, assistant)
    context = json.loads(ok(backend, "session", "context", prefix, "--json"))
    assert [m["role"] for m in context["messages"]] == ["user", "assistant"] * 3
    assert "entries" in json.loads(ok(backend, "session", "estimate", prefix, "--json"))
    assert "reason" in json.loads(ok(backend, "session", "prepare", prefix, "--json"))
    assert sid in ok(backend, "session", "show", prefix)

    users = [e for e in tree["entries"] if e["type"] == "message"][0::2]  # user, assistant, …
    forked = ok(backend, "session", "fork", prefix, "--before", users[1]["id"], process=False)
    forked = forked.strip()
    public = uri_without_password(backend.uri or "")
    assert forked.startswith(public) and "#" in forked
    cloned = ok(backend, "session", "clone", prefix, process=False).strip()
    branch = ok(backend, "session", "branch", prefix, "--to", users[0]["id"], "--label", "back")
    assert branch
    compact = ok(
        backend, "session", "compact", prefix, "--summarizer", "offline", "--keep", "1",
        process=False,
    )  # fmt: skip
    assert compact
    after = json.loads(ok(backend, "session", "tree", prefix, "--json"))
    assert after["labels"] and after["entryCount"] > tree["entryCount"]

    run_fork = ok(backend, "run", "--fork", prefix, "--provider", "faux", "on a copy")
    assert "on a copy" in run_fork
    rows = listed(backend, "--all")
    assert len(rows) == 4  # the session, its fork, its clone, the --fork copy
    assert {str(r["id"]) for r in rows} >= {forked.split("#")[1], cloned.split("#")[1]}
    [copy] = [r for r in rows if r["id"] not in (sid, forked.split("#")[1], cloned.split("#")[1])]
    shown = json.loads(ok(backend, "session", "show", str(copy["id"]), "--json"))
    assert shown["header"]["parentSession"] == f"{public}#{sid}"  # no password stored
    password = urlsplit(backend.uri or "").password
    if password:  # PostgreSQL: never shown nor written into a header
        for out in (forked, cloned, ok(backend, "session", "show", prefix), json.dumps(shown)):
            assert password not in out
    assert sid in [r["id"] for r in listed(backend, "--all", "--search", "zebra crossing")]
    assert listed(backend, "--search", "quagga") == []
    out = tmp_path / "exported.jsonl"
    ok(backend, "session", "export", prefix, "-o", str(out))
    assert out.read_bytes().count(b"\n") == after["entryCount"] + 1

    lines = [{"id": "s", "type": "get_state"}, {"id": "p", "type": "prompt", "message": "via rpc"}]
    rpc = backend.tether(
        "--mode", "rpc", "--provider", "faux", "--session", prefix,
        stdin_text="".join(json.dumps(line) + "\n" for line in lines),
    )  # fmt: skip
    assert rpc.returncode == 0, rpc.stderr
    answers = [json.loads(line) for line in rpc.stdout.splitlines()]
    state = next(a for a in answers if a.get("id") == "s")
    assert state["success"] and state["data"]["sessionId"] == sid
    assert any(a.get("type") == "agent_end" for a in answers)
    context = json.loads(ok(backend, "session", "context", prefix, "--json"))
    assert context["messages"][-2]["content"][0]["text"] == "via rpc"  # stored in the database

    script = "hello chat\n/new\nsecond chat\n/session\n/resume\n1\n/clone\n/quit\n"
    done = backend.tether("chat", "--provider", "faux", stdin_text=script)
    assert done.returncode == 0, done.stderr
    chat = done.stdout + done.stderr  # chat's notes go to stderr when stdin is not a terminal
    assert "new session " + public in chat and "resumed " in chat
    assert not password or password not in chat
    assert "cloned into " + public in chat
    assert len(listed(backend, "--all")) == 7


def test_the_store_comes_from_the_flag_the_variable_or_the_setting(tmp_path: Path) -> None:
    backend = Backend("sqlite", tmp_path, f"sqlite:///{tmp_path}/s.db")
    plain = {"TETHER_STORE": None}
    ok(backend, "run", "--provider", "faux", "via the variable")
    flag = ok(backend, "sessions", "--json", "--store", str(backend.uri), env=plain)
    assert json.loads(flag)[0]["firstMessage"] == "via the variable"
    settings = tmp_path / ".tether" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"session": {"store": backend.uri}}))
    assert json.loads(ok(backend, "sessions", "--json", env=plain))[0]["store"]
    jsonl = ok(backend, "sessions", "--json", "--store", "jsonl", env=plain)
    assert json.loads(jsonl) == []  # the default JSONL files: none here
    assert not list((tmp_path / "home").glob("sessions/*/*.jsonl"))
