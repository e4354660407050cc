"""``tether session context --quiet`` does all the work of the full output but the printing:
the messages are built, the plugins' context hooks run, the LLM form is made, everything is
encoded; so it can stand in for the real work in a benchmark, and its counts are those of the
full output."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.cli_in_process import run_in_process
from tests.context_loader import GEN
from tests.harness_helpers import NO_THIRD_PARTY
from tests.store_helpers import run_tether

FILES = [GEN / "g16-branched.jsonl", GEN / "g01-tiny-linear.jsonl", GEN / "g08-long-outputs.jsonl"]

PROBE = """
import json, sys
from tether.builtin_plugins.storage.format import fastjson
from tether.builtin_plugins.storage.format import json_runs
encoded = []
real_dumps = fastjson.dumps_or_none
def dumps_or_none(value):
    encoded.append(value.get("role") if isinstance(value, dict) else None)
    return real_dumps(value)
real_many = json_runs.dumps_many_or_none
def dumps_many_or_none(values):
    encoded.extend(v.get("role") for v in values)
    return real_many(values)
real_pieces = json_runs.dumps_joined_pieces
def dumps_joined_pieces(values):
    pieces = real_pieces(values)
    if pieces is not None:  # else the messages are encoded again, one by one
        encoded.extend(v.get("role") for v in values)
    return pieces
fastjson.dumps_or_none = dumps_or_none
json_runs.dumps_many_or_none = dumps_many_or_none
json_runs.dumps_joined_pieces = dumps_joined_pieces
from tether.core.cli.app import main
code = main(["session", "context", sys.argv[1], "--quiet", "--json"])
sys.stderr.write(json.dumps(encoded) + "\\n")
"""


def test_quiet_builds_and_encodes_the_messages_and_their_llm_form() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(GEN / "g09-bash-exec.jsonl")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**__import__("os").environ, **NO_THIRD_PARTY},
    )
    assert done.returncode == 0, done.stderr
    roles = json.loads(done.stderr.strip().splitlines()[-1])
    counts = json.loads(done.stdout)
    # every message encoded (once), each converted LLM message too, then the counts
    converted = [r for r in roles[:-1] if r not in ("user", "assistant", "toolResult")]
    assert len(roles) - 1 - counts["messageCount"] > 0 and len(converted) > 0
    assert roles[-1] is None  # the counts
    assert set(counts) == {
        "leafId",
        "thinkingLevel",
        "model",
        "entryCount",
        "messageCount",
        "llmMessageCount",
    }


def test_quiet_counts_are_those_of_the_full_output() -> None:
    for path in FILES:
        run = run_tether if path == FILES[0] else run_in_process  # real processes for one file
        quiet = run("session", "context", str(path), "--quiet", "--json", env=NO_THIRD_PARTY)
        full = run("session", "context", str(path), "--json", env=NO_THIRD_PARTY)
        assert quiet.returncode == full.returncode == 0, quiet.stderr + full.stderr
        counts, whole = json.loads(quiet.stdout), json.loads(full.stdout)
        assert counts["messageCount"] == len(whole["messages"])
        assert counts["llmMessageCount"] == len(whole["llmMessages"])
        assert counts == {k: whole[k] for k in counts}
        assert quiet.stderr == full.stderr
