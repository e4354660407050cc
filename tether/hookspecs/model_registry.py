"""What the ``model_registry`` hook returns: the kernel's view of models and providers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tether.hookspecs.providers import (
        LlmContext,
        Model,
        Provider,
        StreamEvent,
        StreamOptions,
    )


class ModelRegistry(Protocol):
    """Resolves model references and makes model calls for one plugin manager.

    A ``Protocol``: the built-in ``model_registry`` plugin answers a
    :class:`tether.ProviderRegistry`; a summarizer gets the one in use as ``request.registry``.

    ``resolve`` raises a :class:`tether.ProviderError` of kind ``config`` (one line saying
    what to configure); ``stream`` never raises for a failed call (its last event is an ``error``;
    ``StreamOptions(stream=False)`` makes it one non-streaming request, as for summaries, and
    :func:`tether.providers.drain` gives its final message and typed error);
    ``close`` releases the HTTP clients (a registry is also a context manager). A registry
    may also offer ``fresh()``: a new registry of the same configuration with clients of its
    own, which the kernel uses for the second summary request of a split turn (made on another
    thread); without it, both requests share this registry.
    """

    def resolve(
        self, ref: str | None = None, *, provider: str | None = None, model: str | None = None
    ) -> tuple[Model, Provider]:
        """``"provider/model"`` (or ``provider=``/``model=``, or the settings' defaults) →
        the model and its adapter."""
        ...

    def find_model(self, provider: str, model: str) -> Model:
        """The model :meth:`resolve` would give, without loading its adapter."""
        ...

    def models(self) -> list[Model]:
        """Every listed model."""
        ...

    def stream(
        self, model: Model, context: LlmContext, options: StreamOptions | None = None
    ) -> Iterator[StreamEvent]:
        """The adapter's stream with the key and HTTP client filled in."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> ModelRegistry: ...

    def __exit__(self, *exc: object) -> None: ...


__all__ = ["ModelRegistry"]
