"""Built-in plugin ``pins``: pinned texts, kept verbatim in every summary tether writes.

Answers the ``pins`` hook (``trylast``: an installed plugin's answer wins; ``--disable-plugin
pins`` stores summaries as written). A pin is a ``tether.pin`` custom entry, an unpin a
``tether.unpin`` one (:mod:`.format`: what is in force on a branch, the ``## Pinned`` section
placed before a summary's file lists; :mod:`.pinning`: the entries written), imported when
first used so that loading this plugin stays cheap. The commands ``tether session
pin|unpin|pins`` and chat's ``/pin`` are the ``pin_commands`` plugin's.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


class PinnedTexts:
    """The built-in :class:`tether.Pins`: custom entries on the branch, a ``## Pinned``
    section in every summary."""

    def pins(self, session: Any) -> list[dict[str, Any]]:
        from tether.builtin_plugins.memory.pins.pinning import current_pins

        return [pin.as_json() for pin in current_pins(session)]

    def pin(self, session: Any, text: str) -> str:
        from tether.builtin_plugins.memory.pins.pinning import pin_text

        return pin_text(session, text).pin_id

    def unpin(self, session: Any, pin_id: str) -> str:
        from tether.builtin_plugins.memory.pins.pinning import unpin

        return unpin(session, pin_id).pin_id

    def previous_summary(self, text: str | None, branch: list[dict[str, Any]]) -> str | None:
        from tether.builtin_plugins.memory.pins.format import without_pins

        return without_pins(text, branch)

    def stored_summary(self, summary: str, branch: list[dict[str, Any]]) -> str:
        from tether.builtin_plugins.memory.pins.format import with_pins

        return with_pins(summary, branch)


@hookimpl(trylast=True)
def pins() -> PinnedTexts:
    return PinnedTexts()
