"""tether-git-status: the git branch and changed files, given to the model before each prompt."""

from __future__ import annotations

__version__ = "0.1.0"
