"""The ``session`` object plugins receive from the harness: the session plus pi's actions.

Attribute reads fall through to the harness's *current* session (``file``, ``leaf_id``,
``get_branch``…), so a view kept by a plugin follows ``/new``, ``/resume`` and ``/fork``.
The actions are pi's ``ExtensionAPI`` session actions:

- :meth:`HarnessView.send_message` — pi's ``sendMessage``: a custom message delivered as
  steering (default while a run is active), as a follow-up, with the next prompt
  (``deliver_as="next_turn"``), as a new turn (``trigger_turn=True`` while idle), or stored
  at once;
- :meth:`HarnessView.send_user_message` — pi's ``sendUserMessage``;
- :meth:`HarnessView.append_entry` — pi's ``appendEntry``: a ``custom`` entry (plugin state);
- :meth:`HarnessView.set_name`, :meth:`HarnessView.set_label`, :meth:`HarnessView.abort`,
  :meth:`HarnessView.is_idle`, :meth:`HarnessView.compact`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from tether.core.providers import now_ms

if TYPE_CHECKING:
    from tether.core.harness import Harness

DeliverAs = Literal["steer", "follow_up", "next_turn"]


def custom_message(
    custom_type: str,
    content: str | list[dict[str, Any]],
    display: bool = True,
    details: Any = None,
) -> dict[str, Any]:
    """A ``custom`` agent message (pi's ``createCustomMessage``); ``details`` omitted if None."""
    message: dict[str, Any] = {
        "role": "custom",
        "customType": custom_type,
        "content": content,
        "display": display,
    }
    if details is not None:
        message["details"] = details
    message["timestamp"] = now_ms()
    return message


def as_custom_message(value: Any, default_type: str = "plugin") -> dict[str, Any]:
    """A hook's message (``{"customType", "content", "display", "details"?}`` or a string) as a
    ``custom`` agent message."""
    if isinstance(value, str):
        return custom_message(default_type, value)
    if not isinstance(value, dict):
        raise TypeError(f"expected a message dict, got {type(value).__name__}")
    if value.get("role") == "custom" and "timestamp" in value:
        return value
    return custom_message(
        str(value.get("customType") or value.get("custom_type") or default_type),
        value.get("content", ""),
        bool(value.get("display", True)),
        value.get("details"),
    )


class HarnessView:
    """What hooks get as ``session`` from a :class:`~tether.core.harness.Harness`."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness

    # -- reading ---------------------------------------------------------------------------------

    @property
    def session(self) -> Any:
        return self.harness.session

    @property
    def hooks(self) -> Any:
        return self.harness.hooks

    @property
    def pm(self) -> Any:
        return self.harness.pm

    @property
    def settings(self) -> Any:
        return self.harness.settings

    @property
    def cwd(self) -> str:
        return self.harness.cwd

    @property
    def model(self) -> dict[str, Any] | None:
        """The current model as a context record ``{"provider", "modelId"}`` (or ``None``)."""
        model = self.harness.model
        return None if model is None else {"provider": model.provider, "modelId": model.id}

    @property
    def model_info(self) -> Any:
        """The current :class:`~tether.core.providers.Model` (context window, api…)."""
        return self.harness.model

    @property
    def thinking_level(self) -> str:
        return self.harness.thinking_level

    def is_idle(self) -> bool:
        return not self.harness.busy

    def __len__(self) -> int:
        return len(self.harness.session)

    def __getattr__(self, name: str) -> Any:
        if name == "harness":  # not yet set (copy/pickle): do not recurse
            raise AttributeError(name)
        return getattr(self.harness.session, name)

    # -- actions ---------------------------------------------------------------------------------

    def send_message(
        self,
        message: Any,
        *,
        deliver_as: DeliverAs | None = None,
        trigger_turn: bool = False,
    ) -> None:
        """Deliver a custom message ``{"customType", "content", "display", "details"?}``."""
        self.harness.send_custom_message(
            as_custom_message(message), deliver_as=deliver_as, trigger_turn=trigger_turn
        )

    def send_user_message(self, text: str, *, deliver_as: DeliverAs | None = None) -> None:
        """Queue (while busy) or run (while idle) a user prompt, as pi's ``sendUserMessage``."""
        self.harness.send_user_message(text, deliver_as=deliver_as)

    def append_entry(self, custom_type: str, data: Any = None) -> str:
        """Store plugin state as a ``custom`` entry (not sent to the model); returns its id."""
        return self.harness.session.append_custom_entry(custom_type, data)

    def set_name(self, name: str) -> str:
        return self.harness.session.append_session_info(name)

    def set_label(self, entry_id: str, label: str | None) -> str:
        return self.harness.session.append_label_change(entry_id, label)

    def abort(self) -> None:
        self.harness.abort()

    def compact(self, custom_instructions: str | None = None) -> Any:
        """Compact now (only while idle); returns the compaction outcome."""
        return self.harness.compact(custom_instructions)


__all__ = ["DeliverAs", "HarnessView", "as_custom_message", "custom_message"]
