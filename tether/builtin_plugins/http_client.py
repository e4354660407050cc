"""Built-in plugin `http_client` (not yet implemented)."""

from __future__ import annotations
