"""The one implementation of :class:`tether.hookspecs.session_protocol.HookSession`.

A :class:`PluginSession` is what every hook receives as ``session``. Made by a harness
(:meth:`PluginSession.of_harness`) it reads the harness's *current* session, model and
thinking level (so a view kept by a plugin follows ``/new``, ``/resume`` and ``/fork``) and
its actions are pi's ``ExtensionAPI`` session actions. Made for a session command
(:meth:`PluginSession.reading`), it reads the given session and every action raises
:class:`~tether.core.base.errors.NoAgentError` naming the action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from tether.core.base.errors import NoAgentError, TetherError
from tether.core.hooks.custom_messages import as_custom_message
from tether.hookspecs.session_protocol import DeliverAs

if TYPE_CHECKING:
    from tether.hookspecs.pins import Pins


class AgentHost(Protocol):
    """What a :class:`PluginSession` needs of a running agent (the harness is one): its
    current session, hooks, model and settings, and the actions plugins may take."""

    session: Any
    hooks: Any
    model: Any
    thinking_level: str
    cwd: str
    settings: Any
    busy: bool

    def send_custom_message(
        self, message: dict[str, Any], *, deliver_as: DeliverAs | None, trigger_turn: bool
    ) -> None: ...

    def send_user_message(self, text: str, *, deliver_as: DeliverAs | None = None) -> None: ...

    def abort(self) -> None: ...

    def compact(self, custom_instructions: str | None = None) -> Any: ...


class PluginSession:
    """What hooks get as ``session`` (see the module documentation)."""

    def __init__(
        self,
        *,
        harness: AgentHost | None = None,
        session: Any = None,
        hooks: Any = None,
        model: dict[str, Any] | None = None,
        branch: list[dict[str, Any]] | None = None,
        settings: Any = None,
        thinking_level: str | None = None,
    ) -> None:
        self.harness = harness
        self._session = session
        self._hooks = hooks
        self._model = model
        self._branch = branch
        self._settings = settings
        self._thinking = thinking_level

    @classmethod
    def of_harness(cls, harness: AgentHost) -> PluginSession:
        """The session of a running agent: reads follow the harness, actions work."""
        return cls(harness=harness)

    @classmethod
    def reading(
        cls,
        session: Any,
        hooks: Any,
        model: dict[str, Any] | None = None,
        *,
        branch: list[dict[str, Any]] | None = None,
        settings: Any = None,
    ) -> PluginSession:
        """A session outside an agent (session commands): reads work, actions raise."""
        return cls(session=session, hooks=hooks, model=model, branch=branch, settings=settings)

    # -- read side -------------------------------------------------------------------------------

    @property
    def session(self) -> Any:
        """The underlying :class:`tether.core.session.session.Session` (``None`` if there is
        none)."""
        return self.harness.session if self.harness is not None else self._session

    @property
    def hooks(self) -> Any:
        return self.harness.hooks if self.harness is not None else self._hooks

    @property
    def pm(self) -> Any:
        hooks = self.hooks
        return None if hooks is None else hooks.pm

    @property
    def file(self) -> Any:
        return getattr(self.session, "file", None)

    @property
    def header(self) -> dict[str, Any]:
        return self.session.header if self.session is not None else {}

    def entries(self) -> list[dict[str, Any]]:
        return self.session.entries() if self.session is not None else []

    def get_branch(self, from_id: str | None = None) -> list[dict[str, Any]]:
        """The branch to ``from_id``; without it, the branch this view was made for."""
        if from_id is None and self._branch is not None:
            return self._branch
        if self.session is None:
            return []
        return (
            self.session.get_branch(from_id) if from_id is not None else self.session.get_branch()
        )

    @property
    def leaf_id(self) -> str | None:
        return self.session.leaf_id if self.session is not None else None

    def get_entry(self, entry_id: str) -> dict[str, Any] | None:
        return self.session.get_entry(entry_id) if self.session is not None else None

    @property
    def model(self) -> dict[str, Any] | None:
        """The current model as a context record ``{"provider", "modelId"}`` (or ``None``)."""
        if self.harness is None:
            return self._model
        model = self.harness.model
        return None if model is None else {"provider": model.provider, "modelId": model.id}

    @property
    def model_info(self) -> Any:
        """The current :class:`~tether.hookspecs.providers.Model` (``None`` without an agent)."""
        return self.harness.model if self.harness is not None else None

    @property
    def thinking_level(self) -> str:
        if self.harness is not None:
            return self.harness.thinking_level
        if self._thinking is None:
            context = self.session.build_context() if self.session is not None else None
            self._thinking = getattr(context, "thinking_level", None) or "off"
        return self._thinking

    @property
    def cwd(self) -> str:
        if self.harness is not None:
            return self.harness.cwd
        import os

        return getattr(self.session, "cwd", None) or os.getcwd()

    @property
    def settings(self) -> Any:
        if self.harness is not None:
            return self.harness.settings
        if self._settings is None:
            from tether.core.base.settings import load_settings

            self._settings = load_settings(self.cwd)
        return self._settings

    def plugin_settings(self, name: str) -> dict[str, Any]:
        """``settings.json``'s ``{"plugins": {name: {...}}}`` section (``{}`` when absent)."""
        section = self.settings.extra("plugins").get(name)
        return section if isinstance(section, dict) else {}

    def count_tokens(self, messages: list[dict[str, Any]]) -> list[int]:
        """Token counts of ``messages`` by the chosen token counter, for the current model."""
        from tether.core.choices.running import token_counter

        return token_counter(self.hooks.pm, self.settings, model=self.model)(messages)

    def pins(self) -> list[dict[str, Any]]:
        """The pins in force at the leaf (``{"pinId", "text", "entryId", "holderId"}``)."""
        pins = self.hooks.pins() if self.session is not None else None
        return [] if pins is None else pins.pins(self.session)

    @property
    def has_agent(self) -> bool:
        return self.harness is not None

    def is_idle(self) -> bool:
        return self.harness is None or not self.harness.busy

    def __len__(self) -> int:
        return len(self.session) if self.session is not None else 0

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "harness":  # not yet set (copy/pickle)
            raise AttributeError(name)
        return getattr(self.session, name)

    # -- act side --------------------------------------------------------------------------------

    def _agent(self, action: str) -> AgentHost:
        if self.harness is None:
            raise NoAgentError(action)
        return self.harness

    def send_message(
        self, message: Any, *, deliver_as: DeliverAs | None = None, trigger_turn: bool = False
    ) -> None:
        """Deliver a custom message ``{"customType", "content", "display", "details"?}``."""
        self._agent("send_message").send_custom_message(
            as_custom_message(message), deliver_as=deliver_as, trigger_turn=trigger_turn
        )

    def send_user_message(self, text: str, *, deliver_as: DeliverAs | None = None) -> None:
        """Queue (while busy) or run (while idle) a user prompt, as pi's ``sendUserMessage``."""
        self._agent("send_user_message").send_user_message(text, deliver_as=deliver_as)

    def append_entry(self, custom_type: str, data: Any = None) -> str:
        """Store plugin state as a ``custom`` entry (not sent to the model); returns its id."""
        return self._agent("append_entry").session.append_custom_entry(custom_type, data)

    def set_name(self, name: str) -> str:
        return self._agent("set_name").session.append_session_info(name)

    def set_label(self, entry_id: str, label: str | None) -> str:
        return self._agent("set_label").session.append_label_change(entry_id, label)

    def pin(self, text: str) -> str:
        """Pin ``text`` (kept verbatim in every later summary); returns the pin id."""
        return self._pins().pin(self._agent("pin").session, text)

    def unpin(self, pin_id: str) -> str:
        """Unpin the pin in force whose id is (or starts with) ``pin_id``; returns its id."""
        return self._pins().unpin(self._agent("unpin").session, pin_id)

    def _pins(self) -> Pins:
        pins = self.hooks.pins()
        if pins is None:
            raise TetherError("no plugin keeps pins (is the plugin 'pins' disabled?)")
        return pins

    def abort(self) -> None:
        self._agent("abort").abort()

    def compact(self, custom_instructions: str | None = None) -> Any:
        """Compact now (only while idle); returns the compaction outcome."""
        return self._agent("compact").compact(custom_instructions)


__all__ = ["AgentHost", "PluginSession"]
