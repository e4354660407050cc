"""Built-in plugin `provider_faux` (not yet implemented)."""

from __future__ import annotations
