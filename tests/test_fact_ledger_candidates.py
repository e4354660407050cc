"""What a user states reaches the summary though no cue word names it (issue 23, items 1, 3).

- every request that states something (not an acknowledgement, not a question that asks) is a
  candidate the gate keeps, ranked within a budget, not filtered by a list of shapes;
- a fact keeps its own spaces within its line (a pasted ``#define`` and its comment);
- the error line of a failing run is found by what it says, whatever its words: a qualifier in
  parentheses, a value against the one expected, a fault tagged in capitals, a Perl location;
- a pasted block's prose comments and settings are kept whole as history (kind ``said``).
"""

from __future__ import annotations

from pathlib import Path

from tests.gate_helpers import assistant, text, tool_turn, user
from tests.ledger_helpers import compacted, ledger_of, section
from tether.builtin_plugins.memory.fact_ledger.comments import comment_rules, pasted_notes
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.errorline import failure_lines
from tether.builtin_plugins.memory.fact_ledger.noted import noted
from tether.builtin_plugins.memory.fact_ledger.recall import kept_requests
from tether.builtin_plugins.memory.offline_summarizer.facts import quote

PLAIN = "Fine, serde_json."  # an answer naming a crate: two words, no value, no cue
LONG = (
    "Thanks, the new upload path reads a lot better and the diff is small enough to review "
    "in one sitting, which the team will appreciate on Monday morning. Add a short note to "
    "the changelog about the new chunk size when you get a moment. For the manifest, hmm. " + PLAIN
)  # a long message: its sentences are requests, not remarks


def test_a_request_that_states_something_is_kept_without_a_value() -> None:
    cues = default_cues()
    assert not noted(PLAIN, cues)  # the shape filter alone dropped it
    messages = [
        user("Port the uploader to the new storage API."),
        assistant([text("Looking.")]),
        user(LONG),
        assistant([text("Ok.")]),
        user("what does the serde_json default do?"),
        assistant([text("It backs off.")]),
        user("ok"),
    ]
    ledger = ledger_of(messages)
    assert PLAIN in [f.text for f in ledger.live("request")]
    kept = [f.text for f in kept_requests(ledger, cues)]
    assert PLAIN in kept
    assert "what does the serde_json default do?" not in kept  # a question that asks states nothing
    assert "ok" not in kept


def test_a_negation_an_absolute_or_a_confirming_tag_makes_a_request_a_candidate() -> None:
    cues = default_cues()
    stated = [
        "Nobody edits the ledger table by hand, ever.",
        "the invoice PDFs are still A four portrait right?",
        "发票抬头别再改了",
        "batch the thumbnail writes first, it's the slow page for everyone",
        "fix the two warnings, and keep -Wall on",
    ]
    asked = ["isn't the invoice job slow?"]
    messages = [user("Port the invoicing job to the new queue.")]
    for sentence in [*stated, *asked]:
        messages += [assistant([text("Ok.")]), user(LONG.replace(PLAIN, sentence))]
    ledger = ledger_of(messages)
    requests = [f.text for f in ledger.live("request")]
    kept = [f.text for f in kept_requests(ledger, cues)]
    for sentence in stated:
        assert sentence not in requests or sentence in kept, sentence
    assert all(stated[n] in kept for n in (0, 1, 3, 4))
    assert asked[0] in requests and asked[0] not in kept


def test_kept_requests_rank_within_the_budget_noted_first() -> None:
    cues = default_cues()
    said = [f"Tidy module number {n} a bit." for n in range(30)]
    valued = "Uploads retry 4 times with jitter."
    messages = [user("Clean up the uploader.")]
    for sentence in [valued, *said]:
        messages += [assistant([text("Ok.")]), user(LONG.replace(PLAIN, sentence))]
    kept = [f.text for f in kept_requests(ledger_of(messages), cues, max_items=5)]
    assert len(kept) == 5 and set(said) & set(kept)
    assert valued in kept  # said first, yet ranked above newer requests with less in them
    assert said[-1] in kept and said[0] not in kept  # then the newest


def test_the_gate_keeps_a_plain_request_against_a_fact_free_summary(tmp_path: Path) -> None:
    messages = [
        user("Port the uploader to the new storage API."),
        assistant([text("Looking.")]),
        user(LONG),
        assistant([text("Ok.")]),
    ]
    entries = compacted(tmp_path, messages, "factfree", k=2)
    assert PLAIN in entries[-1]["summary"]


def test_a_one_line_fact_keeps_its_own_spaces() -> None:
    line = "#define RX_RING_SLOTS     64      // never shrink this, the DMA wraps"
    assert quote(line, 2000) == line
    assert quote("two\n  lines\there") == "two lines here"


def test_a_failing_run_names_its_error_by_what_it_says() -> None:
    outputs = {
        "Error (nc_put_vara): NetCDF: Numeric conversion not representable": (
            "step 1: writing\nError (nc_put_vara): NetCDF: Numeric conversion not representable\n"
            "step 1: aborted cleanly"
        ),
        "CHECKSUM FAIL: header 0x1A2B != payload 0x1A2C": (
            "loading image\nCHECKSUM FAIL: header 0x1A2B != payload 0x1A2C\nrc=8"
        ),
        "[UsageFault] UFSR=0x0100 PC=0x0800F00D": (
            "boot ok\n[UsageFault] UFSR=0x0100 PC=0x0800F00D\nwatchdog: reset in 2 s, no reply"
        ),
        'Can\'t locate object method "new" via package "Ledger" at bin/post.pl line 14.': (
            'Can\'t locate object method "new" via package "Ledger" at bin/post.pl line 14.\n'
            "ERROR: batch rejected, see log"
        ),
        "quota_test.go:41: remaining got 3, want 4": (
            "=== RUN   TestQuota\nquota_test.go:41: remaining got 3, want 4\n--- FAIL: TestQuota"
        ),
        "< HTTP/1.1 503 Service Unavailable": (
            "* Connected to api.internal\n< HTTP/1.1 503 Service Unavailable\n< retry-after: 30"
        ),
        "EEPROM id: 0x00 (expected 0x50)": (
            "probe i2c bus 1\nEEPROM id: 0x00 (expected 0x50)\nFAIL: eeprom_probe (1 of 3)"
        ),
    }
    for line, output in outputs.items():
        assert line in failure_lines(output), line
    messages = [
        user("Get the flasher test green."),
        *tool_turn(
            "c1", "bash", {"command": "./flash --verify"}, outputs[next(iter(outputs))], True
        ),
    ]
    errors = [f.text for f in ledger_of(messages).live("error")]
    assert next(iter(outputs)) in errors


PASTE = (
    "the job file as it stands, I noted the odd bits:\n\n```yaml\n"
    "workers: 6\n"
    "queue: bulk-low\n"
    "retries: compute_retries(cfg) * 2\n"
    "# bulk-low is the one the night shift watches, the fast queue pages people\n"
    "spool: /var/spool/ingest   # 2 GB is plenty here, do NOT move it to tmpfs\n"
    "# never point this at the prod bucket\n"
    "```\n\ncan you make it restartable?"
)


def test_a_pastes_comments_and_settings_are_kept_whole_as_history(tmp_path: Path) -> None:
    notes = pasted_notes(PASTE)
    assert "# bulk-low is the one the night shift watches, the fast queue pages people" in notes
    assert "spool: /var/spool/ingest   # 2 GB is plenty here, do NOT move it to tmpfs" in notes
    assert "workers: 6" in notes and "queue: bulk-low" in notes
    assert not any("compute_retries" in note for note in notes)  # code, not a setting
    assert comment_rules(PASTE) == ["# never point this at the prod bucket"]  # a rule stays one
    log = "```\n" + "\n".join(f"step{n}: ok" for n in range(60)) + "\n```"
    assert pasted_notes("the log:\n" + log) == []  # a long block is a log, not settings
    messages = [user("Make the ingest job restartable."), assistant([text("Ok.")]), user(PASTE)]
    for summarizer in ("offline", "factfree"):
        summary = compacted(tmp_path / summarizer, messages, summarizer, k=2)[-1]["summary"]
        for note in notes:
            assert note in summary, (summarizer, note)
        assert "workers: 6" not in section(summary, "## Constraints & Preferences")


def test_a_short_chinese_prohibition_in_a_pasted_config_is_a_rule() -> None:
    paste = (
        "现在的配置：\n```ini\n[cache]\nttl = 600\nevict = lru   ; 别改\n"
        "compress = false   # 不许开压缩\n```\n帮我看看命中率为什么低"
    )
    assert comment_rules(paste) == ["evict = lru   ; 别改", "compress = false   # 不许开压缩"]


def test_a_filler_word_before_a_choice_does_not_make_it_thanks() -> None:
    said = [  # the user's turns; the assistant proposes after the first, agrees after the next
        "帮我看看这个串口驱动，收数据老丢。",
        "嗯 接收改成 idle 中断吧，轮询确实跟不上。波特率别动",
        "谢谢分析。继续",
    ]
    replies = ["接收是轮询的。建议：改成 IDLE 中断 + DMA 接收，缓冲区加到 512 字节。", "好的。"]
    messages = [user(said[0])]
    for reply, turn in zip(replies, said[1:], strict=True):
        messages += [assistant([text(reply)]), user(turn)]
    live = [f.text for f in ledger_of(messages).live()]
    assert any("嗯 接收改成 idle 中断吧" in fact for fact in live), live
    assert not any("谢谢分析" in fact for fact in live), live
