"""``tether.storage.check_store``, the conformance checks a store plugin author runs: they pass
on the three built-in stores (PostgreSQL a real server) and name the check a broken store fails."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.store_backends import BACKENDS, make_backend
from tether import hookimpl
from tether.core.host.manager import create_plugin_manager
from tether.storage import (
    EntryTable,
    LoadedSession,
    SessionChangedError,
    StoreError,
    check_store,
)

ALL_CHECKS = [
    "contract",
    "new session",
    "header",
    "version_on_disk",
    "entries",
    "no problems",
    "leaf",
    "validate_all",
    "stale append",
    "nothing written",
    "appended",
]


def _plugins(*extra: object) -> Any:
    pm = create_plugin_manager(environ={**os.environ, "TETHER_LOAD_PLUGINS": ""})
    for number, plugin in enumerate(extra):
        pm.register(plugin, name=f"test_store_{number}")
    return pm


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_the_built_in_stores_pass(
    backend_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = make_backend(request, backend_name, tmp_path / "store")
    uri = backend.uri or str(tmp_path / "store" / "new.jsonl")
    assert check_store(uri, plugins=_plugins()) == [*ALL_CHECKS, "lease"]


SHARED: dict[str, list[dict[str, Any]]] = {}


class MemoryStore:
    """A store of the process's memory, with the faults a test asks for."""

    def __init__(self, uri: str, fault: str) -> None:
        self.uri, self.fault, self.path = uri, fault, None
        self.known: int | None = None

    def load(self, *, readonly: bool = False, validate_all: bool = False) -> LoadedSession:
        records = SHARED.get(self.uri, [])
        self.known = len(records)
        table = EntryTable()
        for number, record in enumerate(records[1:], 2):
            table.add_record(dict(record), number)
        header = dict(records[0]) if records else None
        version = header["version"] if header and self.fault != "no version" else None
        return LoadedSession(header, table, exists=bool(records), version_on_disk=version)

    def append(
        self,
        records: Sequence[Mapping[str, Any]],
        *,
        header: Mapping[str, Any],
        header_written: bool = False,
    ) -> None:
        stored = SHARED.setdefault(self.uri, [])
        if self.fault != "no stale check" and self.known is not None and len(stored) != self.known:
            raise SessionChangedError(f"{self.uri}: another writer appended")
        new = [dict(r) for r in records]
        if self.fault == "reorders" and len(new) > 1:
            new.reverse()
        stored.extend([dict(header)] if not stored else [])
        stored.extend(new)
        self.known = len(stored)


class OldMemoryStore(MemoryStore):
    """A store whose ``load`` lacks ``validate_all`` (``session show --validate`` passes it)."""

    def load(self, *, readonly: bool = False) -> LoadedSession:  # type: ignore[override]
        return super().load(readonly=readonly)


def _memory_plugin(fault: str) -> object:
    kind = OldMemoryStore if fault == "no validate_all" else MemoryStore

    class Plugin:
        @hookimpl
        def open_store(self, uri: str, settings: Any) -> Any:
            return kind(uri, fault) if uri.startswith("memory:") else None

    return Plugin()


def test_a_store_without_faults_passes_without_a_lease() -> None:
    assert check_store("memory:good", plugins=_plugins(_memory_plugin("none"))) == ALL_CHECKS


@pytest.mark.parametrize(
    ("fault", "check"),
    [
        ("reorders", "entries"),
        ("no validate_all", "validate_all"),
        ("no stale check", "stale append"),
    ],
)
def test_a_broken_store_fails_the_check_it_breaks(fault: str, check: str) -> None:
    with pytest.raises(AssertionError, match=f"^check_store: {check}: "):
        check_store(f"memory:{fault}", plugins=_plugins(_memory_plugin(fault)))


def test_a_uri_no_plugin_answers_is_one_clear_error() -> None:
    with pytest.raises(StoreError, match="no store plugin handles this URI"):
        check_store("nowhere://x", plugins=_plugins())


def test_session_show_says_when_a_store_reports_no_version(capsys: Any) -> None:
    """``version_on_disk`` may be ``None``: ``session show`` says so instead of failing."""
    from tether import Session
    from tether.core.cli.app import main

    pm = _plugins(_memory_plugin("no version"))
    session = Session.from_store(MemoryStore("memory:show", "no version"))
    session.append_message({"role": "user", "content": "hi", "timestamp": 1})
    session.append_message({"role": "assistant", "content": [], "timestamp": 2})
    assert main(["session", "show", "memory:show"], pm=pm) == 0
    out, err = capsys.readouterr()
    assert "(format version not reported)" in out, err
