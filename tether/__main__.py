"""``python -m tether`` and the ``tether`` console script."""

from __future__ import annotations

import sys
from collections.abc import Callable


def main() -> None:
    # first, before anything changes sys.path: plugins come from installed distributions only
    from tether.core.host.manager import installed_path

    path = installed_path()
    from tether.core.cli.app import main as run

    restore = _blocking_stdout()
    _exit_now(run(plugin_path=path), restore)


def _blocking_stdout() -> Callable[[], None]:
    """Make standard output blocking for the command; returns what makes it non-blocking
    again. A pipe that another process made non-blocking (the flag belongs to the pipe,
    shared by every process writing to it) fails writes with EAGAIN once it is full, and
    the output would end short without an error."""
    import os

    try:
        if os.get_blocking(1):
            return _nothing
        os.set_blocking(1, True)
    except (OSError, ValueError):  # no descriptor 1, or not one with that flag
        return _nothing

    def restore() -> None:
        try:
            os.set_blocking(1, False)
        except OSError:
            pass

    return restore


def _nothing() -> None:
    pass


def _exit_now(code: int, restore: Callable[[], None] = _nothing) -> None:
    """Exit without tearing down every object: after loading a 100k-entry session, freeing
    the parsed entries one by one takes longer than the command itself. Output streams are
    flushed (then ``restore`` runs) and ``atexit`` handlers run first; the CLI keeps no other
    state worth finalizing."""
    import atexit
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: the process started with that descriptor closed
                stream.flush()
        except (OSError, ValueError):  # closed or broken pipe: nothing more to say
            pass
    restore()
    atexit._run_exitfuncs()
    os._exit(code)


if __name__ == "__main__":
    main()
