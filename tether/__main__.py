"""``python -m tether`` and the ``tether`` console script."""

from __future__ import annotations

import sys


def main() -> None:
    from tether.core.cli import main as run

    sys.exit(run())


if __name__ == "__main__":
    main()
