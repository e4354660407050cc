"""The error line of a failing build is what went wrong, not the wrapper's report that a
tool it ran failed ("collect2: error: ld returned 1 exit status", ninja's "FAILED: x")."""

from __future__ import annotations

from tether.builtin_plugins.memory.fact_ledger.errorline import error_line

LINK_LOG = """[12/40] Linking CXX executable bin/gateway
FAILED: bin/gateway
/usr/bin/ld: bin/gateway section `.rodata' will not fit in region `ROM'
/usr/bin/ld: region `ROM' overflowed by 912 bytes
collect2: error: ld returned 1 exit status
ninja: build stopped: subcommand failed.
"""


def test_the_linker_line_not_the_wrapper_report_is_the_error() -> None:
    assert error_line(LINK_LOG) == "/usr/bin/ld: region `ROM' overflowed by 912 bytes"


def test_a_wrapper_report_alone_is_still_the_error() -> None:
    log = "[3/9] Linking C executable fw.elf\ncollect2: error: ld returned 1 exit status\n"
    assert error_line(log) == "collect2: error: ld returned 1 exit status"
