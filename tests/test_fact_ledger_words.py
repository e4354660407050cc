"""The small helpers of ``fact_ledger.words`` that two readers of values share."""

from __future__ import annotations

from tether.builtin_plugins.memory.fact_ledger.words import memo_per_cues, unsaid_pairs


def test_unsaid_pairs_skips_values_the_old_text_says_and_reads_new_only_when_needed() -> None:
    read_texts: list[str] = []

    def read(text: str) -> list[str]:
        read_texts.append(text)
        return text.split()

    pairs = list(unsaid_pairs("Redis 7 postgres", "redis 6", read, str))
    assert pairs == [("7", "redis"), ("7", "6"), ("postgres", "redis"), ("postgres", "6")]
    read_texts.clear()
    assert list(unsaid_pairs("Redis 7", "", read, str)) == []
    assert read_texts == [""]  # nothing old: the new text is not read


def test_memo_per_cues_reads_a_text_once_per_cue_set() -> None:
    calls: list[tuple[str, object]] = []

    @memo_per_cues
    def read(text: str, cues: object) -> list[str]:
        calls.append((text, cues))
        return text.split()

    first, second = object(), object()
    assert read("a b", first) is read("a b", first)
    assert read("a b", second) == ["a", "b"]
    assert calls == [("a b", first), ("a b", second)]
    assert read.__name__ == "read"


def test_every_vocabulary_list_is_read_by_the_ledger_and_holds_lower_case_words() -> None:
    import json
    import re
    from pathlib import Path

    import tether.builtin_plugins.memory.fact_ledger as ledger

    folder = Path(ledger.__file__).parent
    lists = json.loads((folder / "vocabulary.json").read_text(encoding="utf-8"))
    used = set()
    for module in folder.glob("*.py"):
        source = module.read_text(encoding="utf-8")  # a set, a regex alternation or a search
        readers = r"""(?:vocabulary|alternation|word_search)\(["'](\w+)["']\)"""
        used.update(re.findall(readers, source))
    assert used == set(lists), "a list nobody reads, or a name with no list"
    for name, lines in lists.items():
        words = " ".join(lines).split()
        assert words == [w.casefold() for w in words], f"{name}: words are compared lower-case"
        assert len(words) == len(set(words)), f"{name}: a word listed twice"
