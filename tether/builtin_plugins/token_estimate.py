"""Built-in plugin `token_estimate` (not yet implemented)."""

from __future__ import annotations
