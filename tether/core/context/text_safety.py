"""Lone surrogates on the way out: standard output and error write U+FFFD instead of failing.

A session may hold ``"\\ud83d"`` (valid JSON: pi writes it when it cuts UTF-16 text); Python
reads it as a lone surrogate code point that UTF-8 cannot encode. The stored bytes stay as they
are; what tether prints is made encodable by :func:`install_output_handler`: a split pair
becomes its character, a lone surrogate U+FFFD. What a provider sends is cleaned the same way
by the providers (``tether.providers.encode_json_body``).
"""

from __future__ import annotations

import codecs
import sys
from typing import Any

HANDLER = "tether-replace-surrogates"


def _handler(exc: UnicodeError) -> tuple[bytes, int]:
    """Codec error handler: the UTF-8 bytes of the run UTF-8 could not encode (surrogates
    only), read as UTF-16 code units: a pair becomes its character, a lone one U+FFFD (the
    encoder takes only ASCII text or bytes from a handler)."""
    if isinstance(exc, UnicodeEncodeError):
        units = exc.object[exc.start : exc.end].encode("utf-16-le", "surrogatepass")
        return units.decode("utf-16-le", "replace").encode("utf-8"), exc.end
    raise exc


def install_output_handler() -> None:
    """Make ``sys.stdout``/``sys.stderr`` write U+FFFD for lone surrogates instead of raising."""
    try:
        codecs.lookup_error(HANDLER)
    except LookupError:
        codecs.register_error(HANDLER, _handler)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and _is_utf8(getattr(stream, "encoding", None)):
            try:
                reconfigure(errors=HANDLER)
            except (ValueError, OSError):  # pragma: no cover - a closed or odd stream
                pass


def _is_utf8(encoding: Any) -> bool:
    try:
        return isinstance(encoding, str) and codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


__all__ = ["HANDLER", "install_output_handler"]
