"""``tether session context --quiet`` does all the work of the full output but the printing:
the messages are built, the plugins' context hooks run, the LLM form is made; so it can stand
in for the real work in a benchmark, and its counts are those of the full output."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.context_loader import GEN
from tests.harness_helpers import NO_THIRD_PARTY
from tests.store_helpers import run_tether

FILES = [GEN / "g16-branched.jsonl", GEN / "g01-tiny-linear.jsonl", GEN / "g08-long-outputs.jsonl"]

PROBE = """
import json, sys
from tether.core.context import build
from tether.core.session.reader import SessionReader
calls = []
real_build, real_convert = SessionReader.build_context, build.convert_to_llm
def build_context(self, *args, **kwargs):
    calls.append("build_context")
    return real_build(self, *args, **kwargs)
def convert_to_llm(*args, **kwargs):
    calls.append("convert_to_llm")
    return real_convert(*args, **kwargs)
SessionReader.build_context, build.convert_to_llm = build_context, convert_to_llm
from tether.core.host.cli import main
code = main(["session", "context", sys.argv[1], "--quiet", "--json"])
sys.stderr.write(json.dumps(calls) + "\\n")
"""


def test_quiet_builds_the_messages_and_their_llm_form() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(FILES[0])],
        capture_output=True,
        text=True,
        timeout=60,
        env={**__import__("os").environ, **NO_THIRD_PARTY},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stderr.strip().splitlines()[-1]) == ["build_context", "convert_to_llm"]
    assert set(json.loads(done.stdout)) == {
        "leafId",
        "thinkingLevel",
        "model",
        "entryCount",
        "messageCount",
        "llmMessageCount",
    }


def test_quiet_counts_are_those_of_the_full_output() -> None:
    for path in FILES:
        quiet = run_tether("session", "context", str(path), "--quiet", "--json", env=NO_THIRD_PARTY)
        full = run_tether("session", "context", str(path), "--json", env=NO_THIRD_PARTY)
        assert quiet.returncode == full.returncode == 0, quiet.stderr + full.stderr
        counts, whole = json.loads(quiet.stdout), json.loads(full.stdout)
        assert counts["messageCount"] == len(whole["messages"])
        assert counts["llmMessageCount"] == len(whole["llmMessages"])
        assert counts == {k: whole[k] for k in counts}
        assert quiet.stderr == full.stderr
