"""tether-tool-guard: refuse dangerous bash commands and file writes outside the project."""

from __future__ import annotations

__version__ = "0.1.0"
