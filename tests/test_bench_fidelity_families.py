"""``bench/fidelity.py``'s families: the judge counts right on hand-made contexts (a stale value
shown as current counts, a change note or a kept entry does not, a verbatim fact is held), the
scripts keep their promises, private scripts load from JSON or fail in one line, and a tiny
slice (k ≤ 2, one session per family) runs on both tracks."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import fidelity  # noqa: E402
from factfree_server import CHECKPOINT  # noqa: E402
from family_format import ScriptError, load, messages, parse  # noqa: E402
from fidelity_families import FAMILIES, NAMES, RAW  # noqa: E402
from fidelity_judge import judge  # noqa: E402

CHANGED = {
    "family": "changed",
    "name": "hand-made",
    "turns": [
        {"user": "Use db-a.internal for now. Pin lib==1.0."},
        {"user": "Switch to db-b.internal."},
        {"user": "After all db-c.internal. And lib==2.0 please."},
        {"user": "Next, add the health check."},
        {"user": "We no longer pass --fast."},
    ],
    "facts": [
        {"text": "db-c.internal", "kind": "value"},
        {"text": "lib==2.0", "kind": "value", "section": "Constraints & Preferences"},
        {"text": "Next, add the health check.", "kind": "next_step", "section": "Next Steps"},
    ],
    "retired": [
        {"value": "db-a.internal", "by": "db-b.internal"},
        {"value": "db-b.internal", "by": "db-c.internal"},
        {"value": "lib==1.0", "by": "lib==2.0"},
        {"value": "--fast", "by": None},
    ],
}
SCRIPT = parse(CHANGED, "hand-made")


def summary(*sections: tuple[str, str]) -> str:
    return "\n\n".join(f"## {heading}\n{body}" for heading, body in sections)


def test_a_stale_value_in_a_current_section_counts_and_a_change_note_does_not() -> None:
    text = summary(
        ("Constraints & Preferences", "- Pin lib==1.0.\n- lib==2.0 (changed from lib==1.0)"),
        ("Key Decisions", "- db-c.internal (changed from db-a.internal)"),
        ("Critical Context", "- We no longer pass --fast."),
    )
    verdict = judge(text, text, SCRIPT)
    assert verdict["stale"] == 1
    assert verdict["staleShown"] == [
        {"value": "lib==1.0", "section": "Constraints & Preferences", "line": "- Pin lib==1.0."}
    ]


def test_a_change_note_excuses_only_the_old_value_it_stands_next_to() -> None:
    far = " and then a long stretch of words about something else entirely, " * 2
    text = summary(
        ("Goal", f"- Pin lib==1.0 (changed to lib==2.0){far}and use db-a.internal here."),
        ("Critical Context", f"- db-a.internal{far}changed from nothing"),
    )
    shown = judge(text, text, SCRIPT)["staleShown"]
    assert [(s["value"], s["section"]) for s in shown] == [("db-a.internal", "Goal")]
    # a note may name only the part that changed ("1.0" of "lib==1.0")
    text = summary(("Goal", f"- Pin lib==1.0{far}(later: 1.0 changed to 2.0)"))
    assert judge(text, text, SCRIPT)["staleShown"] == []
    text = summary(("Goal", f"- Pin lib==1.0{far}(later: 3.1 changed to 3.2)"))
    assert [s["value"] for s in judge(text, text, SCRIPT)["staleShown"]] == ["lib==1.0"]


def test_a_longer_value_that_starts_with_a_retired_one_is_not_stale() -> None:
    text = summary(("Constraints & Preferences", "- Pin lib==1.05 and mylib==1.0\n- 用lib==1.0吧"))
    (shown,) = judge(text, text, SCRIPT)["staleShown"]
    assert shown["line"] == "- 用lib==1.0吧"  # CJK next to a value is still a boundary


def test_a_value_changed_twice_the_middle_one_is_stale_the_first_is_not() -> None:
    text = summary(("Key Decisions", "- Switch from db-a.internal to db-b.internal"))
    verdict = judge(text, text, SCRIPT)
    assert [s["value"] for s in verdict["staleShown"]] == ["db-b.internal"]


def test_done_items_and_kept_entries_are_history_not_stale() -> None:
    text = "## Progress\n### Done\n- [x] Used db-a.internal\n\n## Goal\n- ship"
    kept = "Use db-a.internal for now. Pin lib==1.0. --fast"  # a kept entry, verbatim
    verdict = judge(text, f"{text}\n{kept}", SCRIPT)
    assert verdict["stale"] == 0


def test_a_revoked_value_without_a_change_word_is_stale_in_the_carried_block() -> None:
    text = "## Carried Forward (restored by the summary gate)\n### Constraints & Preferences\n"
    text += "- pass --fast"
    (shown,) = judge(text, text, SCRIPT)["staleShown"]
    assert shown["value"] == "--fast" and shown["section"].endswith("/ Constraints & Preferences")


def test_held_counts_verbatim_facts_anywhere_in_the_context() -> None:
    text = summary(("Constraints & Preferences", "- lib==2.0"))
    kept = "After all db-c.internal. And lib==2.0 please."
    verdict = judge(text, f"{text}\n{kept}", SCRIPT)
    assert verdict["held"] == 2 and verdict["total"] == 3
    assert verdict["missing"] == ["Next, add the health check."]
    assert judge(text, text.replace("2.0", "2"), SCRIPT)["held"] == 0  # verbatim, not fuzzy


def test_section_placement_and_a_ticked_next_step() -> None:
    step = "Next, add the health check."
    placed = summary(("Constraints & Preferences", "- lib==2.0"), ("Next Steps", f"1. {step}"))
    verdict = judge(placed, placed, SCRIPT)
    assert (verdict["inSection"], verdict["sectioned"], verdict["ticked"]) == (2, 2, 0)
    assert verdict["inSectionByKind"] == {"next_step": [1, 1], "value": [1, 1]}
    ticked = summary(("Progress", f"### Done\n- [x] {step}"), ("Next Steps", f"- [x] {step}"))
    verdict = judge(ticked, ticked, SCRIPT)
    assert (verdict["inSection"], verdict["ticked"]) == (0, 1)
    assert verdict["misplaced"] == ["lib==2.0", step]


def test_the_scripts_keep_their_promises() -> None:
    assert set(NAMES) == {
        "chinese", "changed", "identifiers", "casual", "heldout", "shapes", "revisions",
        "robust", "unseen",
    }  # fmt: skip
    for family in NAMES:
        assert sum(s.family == family for s in FAMILIES) >= 3, family
    for script in FAMILIES:
        text = "\n".join(str(m) for m in messages(script))
        assert judge(CHECKPOINT, CHECKPOINT, script)["held"] == 0  # the fact-free model
        assert all(r.value in text for r in script.retired)
        if script.family == "casual":
            users = [m for m in messages(script) if m["role"] == "user"]
            logs = [
                len(t["content"][0]["text"]) for t in messages(script) if t["role"] == "toolResult"
            ]
            assert len(users) >= 40 and min(logs) >= 5500 and max(logs) <= 12_500
    changed = [s for s in FAMILIES if s.family == "changed"]
    values = [r.value for s in changed for r in s.retired]
    twice = [r for s in changed for r in s.retired if r.by in values]
    assert len(twice) >= 3 and any(r.by is None for s in changed for r in s.retired)


def test_the_held_out_family_uses_every_cue_and_other_values() -> None:
    heldout = [s for s in FAMILIES if s.family == "heldout"]
    said = "\n".join(t.get("user", "") for s in heldout for t in s.turns)
    cues = ["switch to", "instead of", "scratch that", "after all", "no longer", "from now on"]
    cues += ["改为", "换成", "改用", "不再", "取消", "以后"]
    assert [c for c in cues if c not in said.lower()] == []
    changed = {r.value for s in FAMILIES if s.family == "changed" for r in s.retired}
    assert changed.isdisjoint(r.value for s in heldout for r in s.retired)
    values = [r.value for s in heldout for r in s.retired]
    assert any(r.by in values for s in heldout for r in s.retired)  # changed twice
    assert any(r.by is None for s in heldout for r in s.retired)  # revoked


def test_the_shapes_family_changes_values_across_languages() -> None:
    shapes = [s for s in FAMILIES if s.family == "shapes"]
    wide = [(r.value.isascii(), (r.by or "").isascii()) for s in shapes for r in s.retired]
    assert (False, True) in wide and (True, True) in wide  # 中文 → English, and one script
    bys = [r.by for s in shapes for r in s.retired]
    assert any(bys.count(by) > 1 for by in bys)  # a value changed twice
    assert sum(f.kind == "constraint" for s in shapes for f in s.facts) >= 3  # look-alikes


def test_the_robust_family_has_the_shapes_that_broke_blind_sets() -> None:
    robust = [s for s in FAMILIES if s.family == "robust"]
    said = "\n".join(t.get("user", "") for s in robust for t in s.turns)
    assert "we don't have" in said  # a negation describing a thing
    assert "主库" in said and "Staging nodes" in said  # values per part in one sentence
    assert any(r.by is None for s in robust for r in s.retired)  # revoked
    assert any(not r.value.isascii() for s in robust for r in s.retired)  # Chinese
    long = [t["user"] for s in robust for t in s.turns if len(t.get("user", "")) > 240]
    assert long  # cue-less statements inside long messages


def test_the_built_in_scripts_round_trip_through_the_json_format(tmp_path: Path) -> None:
    (tmp_path / "all.json").write_text(json.dumps(RAW, ensure_ascii=False), "utf-8")
    loaded = load(tmp_path)
    assert [(s.family, s.name, s.facts, s.retired) for s in loaded] == [
        (s.family, s.name, s.facts, s.retired) for s in FAMILIES
    ]
    assert [messages(s) for s in loaded] == [messages(s) for s in FAMILIES]


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({**CHANGED, "turns": [{"say": "x"}]}, "turns[0]: expected one of the keys"),
        ({**CHANGED, "facts": [{"text": "nowhere", "kind": "value"}]}, "'nowhere' is never said"),
        ({**CHANGED, "facts": [{"text": "lib==2.0", "kind": "rule"}]}, "field 'kind'"),
        ({**CHANGED, "retired": [{"value": "db-c", "by": "db-c.internal"}]}, "part of its"),
    ],
)
def test_a_bad_script_is_one_clear_error(obj: dict[str, Any], message: str) -> None:
    with pytest.raises(ScriptError, match="^where: .*" + message.replace("[", r"\[")):
        parse(obj, "where")


def test_sessions_dir_a_bad_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.json").write_text(json.dumps([CHANGED, {**CHANGED, "name": 3}]), "utf-8")
    with pytest.raises(SystemExit) as exit_info:
        fidelity.main(["--sessions-dir", str(tmp_path), "--summarizer", "offline"])
    (err,) = capsys.readouterr().err.strip().splitlines()
    assert exit_info.value.code == 2
    assert err.endswith(
        f"{tmp_path / 'a.json'}: session 1: field 'name': expected a non-empty string"
    )
    (tmp_path / "empty").mkdir()
    with pytest.raises(ScriptError, match="no \\*.json session scripts"):
        load(tmp_path / "empty")


def test_a_tiny_slice_runs_on_both_tracks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TETHER_HOME", str(tmp_path / "home"))  # main() sets it; restored
    private = tmp_path / "private"
    private.mkdir()
    (private / "mine.json").write_text(json.dumps(CHANGED), "utf-8")
    first = {f: next(s for s in FAMILIES if s.family == f) for f in NAMES}
    monkeypatch.setattr(fidelity, "FAMILIES", list(first.values()))  # one session per family
    args = ["--families", ",".join(NAMES), "--sessions-dir", str(private), "--max-k", "2"]
    fidelity.main([*args, "--json", "--out", str(tmp_path / "out")])
    document = json.loads(capsys.readouterr().out)
    assert document["runs"] == []  # naming families only runs no kind
    offline, llm = document["familyRuns"]
    assert (offline["track"], llm["track"]) == ("offline", "llm (fact-free model)")
    for run in (offline, llm):
        assert set(run["families"]) == {*NAMES}  # the private one is family "changed" too
        assert set(run["families"]["changed"]) == {"hand-made", first["changed"].name}
        for family, sessions in run["families"].items():
            for rows in sessions.values():
                assert [r["k"] for r in rows] == [1, 2]
                assert all(r["held"] <= r["total"] and r["summaryChars"] > 0 for r in rows)
            totals = run["totals"][family]
            assert totals["total"] == sum(r["total"] for s in sessions.values() for r in s)
