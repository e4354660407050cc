"""The assistant's proposals the user accepts: a closing question that only points back
("Shall I go ahead with that?") stands for the sentence before it."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_turns, live_rules
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.proposals import points_back, proposed


@pytest.mark.parametrize(
    ("rule", "offer", "proposal", "reply"),
    [
        (
            "The worker pool size is 4.",
            "The queue backs up under load. I would suggest a pool size of 12 with a "
            "backlog of 500. Should I do that?",
            "I would suggest a pool size of 12 with a backlog of 500.",
            "sure",
        ),
        (
            "Keep the request timeout at 5s.",
            "The upstream is slow on cold starts. I'd recommend a request timeout of 20s. "
            "Want me to go with this?",
            "I'd recommend a request timeout of 20s.",
            "sounds good",
        ),
        (
            "缓存过期时间设成 60 秒。",
            "命中率太低了。我建议把缓存过期时间改成 300 秒。要不要这样改？",
            "我建议把缓存过期时间改成 300 秒。",
            "好的",
        ),
    ],
)  # fmt: skip
def test_an_accepted_pointing_question_files_the_sentence_it_points_to(
    rule: str, offer: str, proposal: str, reply: str
) -> None:
    ledger = ledger_of_turns(
        ("user", "Tune the service. " + rule), ("assistant", offer), ("user", reply)
    )
    live = live_rules(ledger)
    assert proposal in live
    assert not any(text.endswith(("?", "？")) for text in live)


def test_a_question_that_names_its_value_is_the_proposal_itself() -> None:
    cues = default_cues()
    said = "The build is red. Should I pin ruff to 0.4.2?"
    assert proposed(said, cues) == ["Should I pin ruff to 0.4.2?"]


@pytest.mark.parametrize(
    ("sentence", "pointing"),
    [
        ("Want me to do that?", True),
        ("Shall I go ahead with it?", True),
        ("要我这样改吗？", True),
        ("Shall I raise it to 8?", False),
        ("Should I bump the base image and rebuild every service in the repo?", False),
    ],
)
def test_only_a_short_question_without_a_value_points_back(sentence: str, pointing: bool) -> None:
    assert points_back(sentence) is pointing


@pytest.mark.parametrize(
    ("rule", "offer", "reply"),
    [
        (
            "The worker image runs Go 1.20.",
            "The linter needs a newer toolchain. Should I switch the worker image to Go 1.22?",
            "yes please",
        ),
        (
            "数据库连接池大小 20。",
            "压测时连接不够用。我建议把连接池大小改成 50，可以吗？",
            "可以",
        ),
    ],
)
def test_an_accepted_change_retires_the_rule_it_changes(rule: str, offer: str, reply: str) -> None:
    ledger = ledger_of_turns(
        ("user", "Keep the service healthy. " + rule), ("assistant", offer), ("user", reply)
    )
    assert rule not in live_rules(ledger)


@pytest.mark.parametrize(
    ("offer", "yes"),
    [
        ("Would it make sense to move the cache to Valkey 8? Same protocol.", "sure, do that"),
        ("What about pinning pytest to 8.2.1 until the plugin catches up?", "yes please"),
        ("可以考虑把批大小改成 2000，网络往返少一些。", "行"),
    ],
)
def test_a_proposal_asked_as_a_question_is_accepted(offer: str, yes: str) -> None:
    ledger = ledger_of_turns(("user", "Keep the build green."), ("assistant", offer), ("user", yes))
    decisions = [f.text for f in ledger.live("decision")]
    assert any(d in offer for d in decisions), decisions


def test_an_accepted_offer_of_a_bare_version_bump_retires_the_pin() -> None:
    ledger = ledger_of_turns(
        ("user", "Port the synth to CLAP. Pin SDL 2.28.4 in the vendored deps."),
        ("assistant", "SDL 2.28.4 crashes on Wayland resize. Want me to bump to 2.30.2?"),
        ("user", "yes, bump it"),
    )
    rules = live_rules(ledger)
    assert "Pin SDL 2.28.4 in the vendored deps." not in rules
    assert "bump to 2.30.2" in rules  # the change itself, not the words that offered it


def test_a_bare_version_change_retires_the_named_pin() -> None:
    ledger = ledger_of_turns(
        ("user", "Port the synth to CLAP. Pin SDL 2.28.4 in the vendored deps."),
        ("user", "bump to 2.30.2 please"),
    )
    assert "Pin SDL 2.28.4 in the vendored deps." not in live_rules(ledger)
