"""``python -m tether`` and the ``tether`` console script."""

from __future__ import annotations

import sys


def main() -> None:
    # first, before anything changes sys.path: plugins come from installed distributions only
    from tether.core.host.manager import installed_path

    path = installed_path()
    from tether.core.host.cli import main as run

    _exit_now(run(plugin_path=path))


def _exit_now(code: int) -> None:
    """Exit without tearing down every object: after loading a 100k-entry session, freeing
    the parsed entries one by one takes longer than the command itself. Output streams are
    flushed and ``atexit`` handlers run first; the CLI keeps no other state worth finalizing."""
    import atexit
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: the process started with that descriptor closed
                stream.flush()
        except (OSError, ValueError):  # closed or broken pipe: nothing more to say
            pass
    atexit._run_exitfuncs()
    os._exit(code)


if __name__ == "__main__":
    main()
