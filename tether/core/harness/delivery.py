"""How a message sent by a plugin reaches the agent (pi's ``sendMessage`` / ``sendUserMessage``).

Plain functions of a :class:`DeliveryHost` (the harness is one; its
``send_custom_message`` / ``send_user_message`` delegate here): while a run is going the
message is queued (steering or follow-up); while idle it is stored, starts a run, or is held
for the next prompt.
"""

from __future__ import annotations

from typing import Any, Protocol

from tether.hookspecs.events import AgentEvent, Message


class DeliveryHost(Protocol):
    """What delivery needs of the agent host."""

    agent: Any
    busy: bool
    next_turn: list[Message]

    def emit(self, event: AgentEvent) -> None: ...

    def persist(self, message: Message) -> None: ...

    def prompt(self, text: str, images: Any = None, *, source: str = ...) -> Any: ...

    def run_messages(self, messages: list[Message]) -> Any: ...


def send_custom_message(
    host: DeliveryHost,
    message: Message,
    *,
    deliver_as: str | None = None,
    trigger_turn: bool = False,
) -> None:
    """pi's ``sendMessage`` (see :meth:`.plugin_session.PluginSession.send_message`)."""
    agent = host.agent
    if deliver_as == "next_turn":
        host.next_turn.append(message)
    elif host.busy or agent.is_running:
        (agent.follow_up if deliver_as == "follow_up" else agent.steer)(message)
    elif trigger_turn:
        host.run_messages([message])
    else:
        agent.state.messages.append(message)
        host.emit(AgentEvent("message_start", {"message": message}))
        host.persist(message)
        host.emit(AgentEvent("message_end", {"message": message}))


def send_user_message(host: DeliveryHost, text: str, *, deliver_as: str | None = None) -> None:
    """pi's ``sendUserMessage``: queued while busy, a full prompt while idle."""
    agent = host.agent
    if host.busy or agent.is_running:
        (agent.follow_up if deliver_as == "follow_up" else agent.steer)(text)
    else:
        host.prompt(text, source="plugin")


__all__ = ["DeliveryHost", "send_custom_message", "send_user_message"]
