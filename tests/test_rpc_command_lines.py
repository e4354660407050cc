"""The RPC reader knows a line is still coming while it holds part of it (a long command line
arrives in pieces; the run must not go on between two of them)."""

from __future__ import annotations

import os

from tether.builtin_plugins.commands.rpc.command_lines import CommandLines


def test_part_of_a_line_held_means_more_is_waiting() -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb", buffering=0) as stream:
        os.write(write_end, b'{"type": "prompt"}\n{"type": "prompt", "padding": [1, 2')
        lines = CommandLines(stream)
        assert lines.readline() == b'{"type": "prompt"}\n'
        assert lines.more_waiting()  # the rest of the second line is not written yet
        os.write(write_end, b", 3]}\n")
        assert lines.readline() == b'{"type": "prompt", "padding": [1, 2, 3]}\n'
        assert not lines.more_waiting()  # nothing held, nothing written
        os.close(write_end)
        assert lines.more_waiting()  # the end is there
        assert lines.readline() == b""
