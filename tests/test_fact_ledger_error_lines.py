"""A failing tool's output keeps its error lines as open errors (issue 23). A short output
keeps every line that tells of the failure (table rows, records of one form); of a long one,
up to three lines: the line that says what went wrong, then the other lines of an error
shape (a failed test case, an abort, a missing dependency, an undefined name) — never a bare
tally. A later success of the same call resolves them all. The offline summary shows what the
gate requires."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.gate_helpers import user
from tests.ledger_helpers import ledger_of, ledger_of_said
from tether.builtin_plugins.memory.fact_ledger.errorline import failure_lines
from tether.builtin_plugins.memory.offline_summarizer.checkpoint import build_checkpoint
from tether.builtin_plugins.memory.offline_summarizer.facts import read_facts
from tether.builtin_plugins.memory.offline_summarizer.sections import render
from tether.builtin_plugins.memory.summary_gate.required import open_errors

ABORT = "MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD with errorcode 17"
MISSING = "- nothing provides libwavelet.so.4()(64bit) needed by sonar-tools-3.2-1.x86_64"
UNDEFINED = "jinja2.exceptions.UndefinedError: 'customer_name' is undefined"
CLUSTER = """launching solver on 4 ranks
[rank 0] iteration 40 residual 3.1e-04
MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD with errorcode 17
srun: error: node-b07: task 2: Exited with exit code 17
srun: Terminating StepId=81234.0
"""
GRADLE = """> Task :ledger:test

InvoiceMathTest > roundsHalfEven FAILED
    org.opentest4j.AssertionFailedError: expected: <2.34> but was: <2.35>
        at app//InvoiceMathTest.roundsHalfEven(InvoiceMathTest.java:57)

41 tests completed, 1 failed

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':ledger:test'.

BUILD FAILED in 14s
"""
PACKAGES = """Updating and loading repositories:
Repositories loaded.
Failed to resolve the transaction:
Problem: conflicting requests
  - nothing provides libwavelet.so.4()(64bit) needed by sonar-tools-3.2-1.x86_64
You can try to add to command line:
  --skip-broken to skip uninstallable packages
"""
TEMPLATE = """rendering mail/welcome.txt.j2
Traceback (most recent call last):
  File "send.py", line 30, in <module>
    body = tpl.render(**ctx)
  File "mail/welcome.txt.j2", line 3, in top-level template code
    Hello {{ customer_name }},
jinja2.exceptions.UndefinedError: 'customer_name' is undefined
*** Error 1
"""


def _long(output: str) -> str:
    """``output`` behind enough progress lines that it is no longer read whole."""
    return "".join(f"stage {n} of 12 ok\n" for n in range(1, 13)) + output


@pytest.mark.parametrize(
    ("output", "wanted"),
    [
        (CLUSTER, [ABORT, "srun: error: node-b07: task 2: Exited with exit code 17"]),
        (GRADLE, ["org.opentest4j.AssertionFailedError: expected: <2.34> but was: <2.35>",
                  "InvoiceMathTest > roundsHalfEven FAILED"]),
        (PACKAGES, [MISSING]),
    ],
)  # fmt: skip
def test_other_error_lines_of_one_output_are_kept(output: str, wanted: list[str]) -> None:
    lines = failure_lines(_long(output))
    assert len(lines) <= 3
    for line in wanted:
        assert line in lines, f"{line!r} not among {lines!r}"


def test_tallies_are_never_an_extra_line() -> None:
    lines = failure_lines(GRADLE)
    assert lines[0] == "org.opentest4j.AssertionFailedError: expected: <2.34> but was: <2.35>"
    assert not {"BUILD FAILED in 14s", "41 tests completed, 1 failed"} & set(lines)
    assert "Execution failed for task ':ledger:test'." not in lines  # "failed" in prose only
    template = failure_lines(TEMPLATE)
    assert template[0] == UNDEFINED and "*** Error 1" not in template


def test_the_frame_where_the_error_was_raised_is_kept() -> None:
    assert 'File "mail/welcome.txt.j2", line 3, in top-level template code' in failure_lines(
        TEMPLATE
    )  # the innermost Python frame, not the outer "send.py"
    dotnet = (
        "InvalidOperationException: Sequence contains no elements\n"
        "  at Inventory.Sync.PullOrders () (at Assets/Scripts/Sync/OrderSync.cs:141)\n"
        "  at Inventory.Sync.Run () (at Assets/Scripts/Sync/Runner.cs:12)\n"
        "Tests: 12 passed, 1 failed"
    )
    lines = failure_lines(_long(dotnet))
    assert "at Inventory.Sync.PullOrders () (at Assets/Scripts/Sync/OrderSync.cs:141)" in lines
    assert not [line for line in lines if "Runner.cs" in line]


LINKER = """\
   Compiling openssl-sys v0.9.102
error: failed to run custom build command for `openssl-sys v0.9.102`
  --- stderr
  x86_64-w64-mingw32-gcc: not found
"""


def test_the_last_line_of_a_failure_is_kept_when_it_is_the_cause() -> None:
    for output in (LINKER, _long(LINKER)):
        lines = failure_lines(output)
        assert lines[0].startswith("error: failed to run custom build command")
        assert "x86_64-w64-mingw32-gcc: not found" in lines
        assert "--- stderr" not in lines


SCAN = """2025-03-02T07:40:11Z	INFO	scanning image shop/web:4.1.0
Total: 2 (HIGH: 1, CRITICAL: 1)

| zlib1g  | CVE-2023-45853 | CRITICAL | 1:1.2.13.dfsg-1 |
| libexpat1 | CVE-2024-28757 | HIGH | 2.5.0-1 |
"""
COMPARE = """MISMATCH field=pressure cell=(4,9) got 101.325 want 101.322
MISMATCH field=humidity cell=(4,9) got 0.61 want 0.63
*** Error 2
"""


def test_a_short_failing_output_keeps_every_line_that_tells_of_the_failure() -> None:
    """Every row of a short findings table and every mismatch record stays, verbatim; the
    scanner's progress line, a tally and the exit line do not."""
    lines = failure_lines(SCAN)
    assert set(lines) == {
        "| zlib1g  | CVE-2023-45853 | CRITICAL | 1:1.2.13.dfsg-1 |",
        "| libexpat1 | CVE-2024-28757 | HIGH | 2.5.0-1 |",
    }
    records = failure_lines(COMPARE + "exit code 2\n")
    assert set(records) == set(COMPARE.splitlines()[:2])
    logged = "09:14:02  Load failed for model stg_refunds\n09:14:02    100038 (22018): "
    said = failure_lines(logged + "Numeric value '-' is not recognized\n09:14:02  Done. ERROR=1")
    assert "09:14:02    100038 (22018): Numeric value '-' is not recognized" in said
    checks = "| check | result |\n| lint | ok |\n| unit | FAILED 2 of 40 |\n| types | ok |"
    assert failure_lines(checks) == ("| unit | FAILED 2 of 40 |",)  # not the passing rows
    long_scan = failure_lines(_long(SCAN))
    assert len(long_scan) < 2  # of a long output, only lines that name a failure


PASTED_LINK = """The release archive breaks, output:

```
ld: Undefined symbols for architecture x86_64:
  "_kernel_fft_plan", referenced from:
      _run_transform in transform.o
clang: error: linker command failed with exit code 1
```
"""


def test_a_pasted_block_whose_diagnostic_sits_mid_line_keeps_its_lines() -> None:
    """A pasted block that opens no line with an error but has "clang: error: …" in it is a
    failing log: its lines are kept verbatim, the symbol the linker misses among them (as
    identifiers: the one pasted error a later paste replaces stays the one it was)."""
    ledger = ledger_of_said(PASTED_LINK)
    kept = {f.text for f in ledger.live("error", "identifier")}
    assert '"_kernel_fft_plan", referenced from:' in kept
    for snippet in (
        "if error:\n    raise Retry(error)",
        "} catch (err: unknown) {\n  report(err)\n}\ntry { x() } catch (error: unknown) {}",
        "- run: make lint\n  continue-on-error: false",
        'log.Printf("fatal: %v", err)',
    ):
        pasted = f"fix this:\n```\n{snippet}\n```"
        assert not ledger_of_said(pasted).live("error"), snippet  # code naming an error


def _call(at: int, name: str, args: dict[str, Any]) -> dict[str, Any]:
    block = {"type": "toolCall", "id": f"c{at}", "name": name, "arguments": args}
    return {"role": "assistant", "content": [block], "stopReason": "toolUse"}


def _result(at: int, name: str, text: str, *, error: bool) -> dict[str, Any]:
    content = [{"type": "text", "text": text}]
    return {"role": "toolResult", "toolCallId": f"c{at}", "toolName": name,
            "content": content, "isError": error}  # fmt: skip


def _session() -> list[dict[str, Any]]:
    gradle = {"command": "./gradlew :ledger:test"}
    return [
        {"role": "user", "content": "Get the invoice service green before Friday's release."},
        _call(1, "bash", gradle),
        _result(1, "bash", GRADLE, error=True),
        _call(2, "bash", {"command": "srun -n 4 ./solver case7.cfg"}),
        _result(2, "bash", CLUSTER, error=True),
        {
            "role": "bashExecution",
            "command": "dnf install sonar-tools",
            "output": PACKAGES,
            "exitCode": 1,
        },  # fmt: skip
        _call(3, "bash", gradle),
        _result(3, "bash", "BUILD SUCCESSFUL in 11s", error=False),
    ]


def test_a_later_success_resolves_every_line_of_its_failure() -> None:
    messages = _session()
    before = {f.text for f in ledger_of(messages[:-2]).live("error")}
    assert "InvoiceMathTest > roundsHalfEven FAILED" in before
    ledger = ledger_of(messages)
    live = {f.text for f in ledger.live("error")}
    assert not any("ledger:test" in t or "roundsHalfEven" in t or "2.34" in t for t in live)
    resolved = {f.text for f in ledger.facts if f.status == "resolved"}
    assert "InvoiceMathTest > roundsHalfEven FAILED" in resolved
    assert ABORT in live
    assert any("nothing provides libwavelet.so.4()(64bit)" in t for t in live)
    assert any(t.startswith("exit code 1: ") for t in live)  # the shell's exit code leads


def test_a_new_failure_of_the_same_call_replaces_all_its_lines() -> None:
    again = "srun: error: node-b07: task 0: Out Of Memory"
    messages = [*_session()[:5], _call(9, "bash", {"command": "srun -n 4 ./solver case7.cfg"}),
                _result(9, "bash", again, error=True)]  # fmt: skip
    live = [f.text for f in ledger_of(messages).live("error")]
    assert again in live
    assert not any("MPI_ABORT" in t or "exit code 17" in t for t in live)


def test_the_offline_summary_shows_every_error_the_gate_requires() -> None:
    messages = _session()
    ledger = ledger_of(messages)
    required = open_errors(SimpleNamespace(ledger=ledger))  # type: ignore[arg-type]
    assert len(required) >= 4  # the solver's lines and the package manager's
    summary = render(build_checkpoint(read_facts(messages), ledger), "compaction", None)
    for item in required:
        assert item.text in summary, item.text
    assert "MPI_ABORT was invoked on rank 2" in summary
    assert "roundsHalfEven" not in summary.split("## Blocked")[1].split("##")[0]


JOB_LOG = """IEF403I NIGHTLY1 - STARTED - TIME=02.10.00
IEF142I NIGHTLY1 STEP010 - STEP WAS EXECUTED - COND CODE 0000
IEF450I NIGHTLY1 STEP020 - ABEND=S0C4 U0000 REASON=00000011
IEF404I NIGHTLY1 - ENDED - TIME=02.10.09
"""
REGION_LOG = """+XYZSI1517 REGION7 Control is being given to the monitor.
XYZAC2206 02:11:40 REGION7 Transaction ORD1 failed with abend AEI0. Updates backed out.
XYZME0116 REGION7 Trace written to auxiliary storage.
"""


def test_a_message_id_line_that_says_something_failed_is_the_error() -> None:
    """A line opening with a message id (capitals, digits, a severity letter) and saying
    something failed or ended abnormally is the error line, not the job's last line; a
    user who pastes one gets it as an open error, verbatim."""
    assert failure_lines(JOB_LOG)[0] == JOB_LOG.splitlines()[2]
    ledger = ledger_of_said(f"the region said:\n{REGION_LOG}")
    assert [f.text for f in ledger.live("error")] == [
        "XYZAC2206 02:11:40 REGION7 Transaction ORD1 failed with abend AEI0. Updates backed out."
    ]


SCRIPT_LOG = """Loading /data/run_07/ch2.mat ...
Error using resample
Input signal must be longer than the filter kernel.

Error in clean_channel (line 18)
    y = resample(x, p, q);

job 5521 exited with code 1
"""
PASTED_SQL = """```
Database Error in model fct_orders (models/marts/fct_orders.sql)
  002003 (42S02): SQL compilation error:
  Object 'RAW.SHOP.ORDERS' does not exist or not authorized.
```
probably a grant missing on my role."""


def test_a_header_naming_only_the_error_keeps_its_message_line() -> None:
    """ "Error using resample" says where; the prose line after it says what went wrong."""
    first = failure_lines(SCRIPT_LOG)[0]
    assert "Input signal must be longer than the filter kernel." in first


def test_a_pasted_error_header_ending_in_a_colon_keeps_its_message_line() -> None:
    ledger = ledger_of_said(PASTED_SQL)
    errors = [f.text for f in ledger.live("error")]
    assert any("Object 'RAW.SHOP.ORDERS' does not exist or not authorized." in e for e in errors)


RUSTC = """   Compiling ledger v0.4.0 (/home/dev/ledger)
error[E0599]: no method named `settle` found for struct `Book` in the current scope
  --> src/main.rs:12:10
error: aborting due to 1 previous error
"""


def test_aborting_due_to_previous_errors_only_tallies() -> None:
    """ "aborting due to 1 previous error" only tallies: the line before it says what."""
    line = "error[E0599]: no method named `settle` found for struct `Book` in the current scope"
    assert failure_lines(RUSTC)[0] == line


EVENT = """the desktop team pasted this from Event Viewer:

```
Log Name:      Application
Source:        Application Error
Event ID:      1000
Level:         Error
Description:
Faulting application name: Notes.exe, version: 2.1.0.0, time stamp: 0x65f2a1c4
Faulting module name: libvpx.dll, version: 0.0.0.0, time stamp: 0x65d7b2e0
Exception code: 0xc0000005
Fault offset: 0x00000000001a4f3b
```"""


def test_a_pasted_log_keeps_its_other_error_lines_verbatim() -> None:
    """A pasted log states more than its last error line: the faulting module of a Windows
    event too, kept word for word as an identifier."""
    ledger = ledger_of([user(EVENT)])
    kept = [f.text for f in ledger.live("error", "identifier")]
    line = "Faulting module name: libvpx.dll, version: 0.0.0.0, time stamp: 0x65d7b2e0"
    assert line in kept


@pytest.mark.parametrize(
    "line",
    [
        "asyncpg.exceptions.UniqueViolationError: duplicate key value violates unique constraint",
        "psycopg2.errors.SerializationFailure: could not serialize access due to update",
        "sqlalchemy.exc.NoResultFound: No row was found when one was required",
    ],
)
def test_a_class_of_an_errors_module_is_the_pasted_error(line: str) -> None:
    """A qualified class of an ``errors``/``exceptions`` module names the error even when
    its own name does not end in "Error": it beats the log line above it."""
    pasted = (
        "the worker logs this every few minutes:\n\n```\n"
        f"2025-01-09 11:02:07,114 WARN jobs.sync retrying batch 77\n{line}\n"
        '  DETAIL: while inserting into relation "ledger_rows"\n```'
    )
    ledger = ledger_of([user(pasted)])
    assert [f.text for f in ledger.live("error")] == [line]
