"""HTTP failures → typed provider errors (by status, structured error type or exception type)."""

from __future__ import annotations

import json
import time
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

from tether.builtin_plugins.providers.provider_errors import error_for_status, is_overflow_wording
from tether.providers import ContextOverflowError, PermanentError, ProviderError, TransientError

if TYPE_CHECKING:
    import httpx

#: Structured error types of OpenAI-/Anthropic-style bodies → the HTTP status they stand for.
ERROR_TYPE_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "rate_limit_exceeded": 429,
    "api_error": 500,
    "server_error": 500,
    "service_unavailable": 503,
    "timeout_error": 504,
    "overloaded_error": 529,
}


def retry_after_seconds(headers: httpx.Headers) -> float | None:
    """``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date), in seconds.

    A number is returned as sent, even ``inf``, ``nan`` or negative: the built-in retry policy
    (:mod:`tether.builtin_plugins.providers.retry_policy`) ignores such a value with a warning. A
    date in
    the past means "now" (0)."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return float(raw_ms) / 1000
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return float(raw)
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(raw).timestamp() - time.time())
    except (TypeError, ValueError, OverflowError):
        return None


def body_error_text(data: Any) -> str:
    """The human message inside an error body (OpenAI, Anthropic, llama.cpp, Ollama shapes)."""
    if isinstance(data, dict):
        err = data.get("error")
        if isinstance(err, dict):
            text = err.get("message")
            metadata = err.get("metadata")
            raw = metadata.get("raw") if isinstance(metadata, dict) else None
            if isinstance(text, str) and text:
                return f"{text}\n{raw}" if isinstance(raw, str) and raw else text
            return json.dumps(err)
        if isinstance(err, str) and err:
            return err
        for key in ("message", "detail"):
            if isinstance(data.get(key), str) and data[key]:
                return data[key]
    return json.dumps(data)[:1000]


def http_error(status: int, raw: bytes, headers: httpx.Headers) -> ProviderError:
    """The typed error of an HTTP error response: ``"<status> <provider message>"``."""
    text = raw.decode("utf-8", "replace").strip()
    if not text:
        message = f"{status} status code (no body)"
    else:
        try:
            message = f"{status} {body_error_text(json.loads(text))}"
        except ValueError:
            message = f"{status} {text[:1000]}"
    return error_for_status(status, message, retry_after=retry_after_seconds(headers))


def structured_error(err: Any) -> ProviderError:
    """The typed error of an error object sent inside a stream or a 200 body."""
    if not isinstance(err, dict):
        text = str(err)
        return ContextOverflowError(text) if is_overflow_wording(text) else PermanentError(text)
    text = body_error_text({"error": err})
    kind = str(err.get("type") or err.get("code") or "")
    status = next(
        (v for v in (err.get("status"), err.get("code")) if isinstance(v, int) and v >= 400),
        ERROR_TYPE_STATUS.get(kind),
    )
    message = f"{kind}: {text}" if kind and not kind.isdigit() else text
    if status is not None:
        return error_for_status(status, message)
    return ContextOverflowError(message) if is_overflow_wording(text) else PermanentError(message)


def exception_error(exc: BaseException) -> ProviderError:
    """Typed error for an exception raised while talking to the server (by exception type)."""
    if isinstance(exc, ProviderError):
        return exc
    import httpx

    if isinstance(exc, httpx.TimeoutException):
        return TransientError(f"Request timed out: {exc or type(exc).__name__}")
    if isinstance(exc, httpx.TransportError):
        return TransientError(f"Connection error: {exc or type(exc).__name__}")
    if isinstance(exc, httpx.StreamError):
        return TransientError(f"Stream error: {exc or type(exc).__name__}")
    return PermanentError(f"{type(exc).__name__}: {exc}")
