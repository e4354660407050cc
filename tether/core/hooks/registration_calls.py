"""The registration side of :class:`~tether.core.hooks.facade.Hooks`: the hooks that hand the
kernel a part (the model registry, the tool-argument check, the command-line route, the HTTP
client) and the ``register_*`` hooks, called plugin by plugin."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tether.core.base.errors import HookError, ProviderConfigError, TetherError
from tether.core.hooks.checks import expect_args, expect_callable, expect_registry
from tether.core.hooks.runner import attributed
from tether.core.host.calls import call_registration

if TYPE_CHECKING:
    from tether.core.hooks.runner import HookRunner
    from tether.core.host.calls import Registration
    from tether.core.host.manager import PluginManager
    from tether.hookspecs.model_registry import ModelRegistry

NO_MODEL_REGISTRY = "no plugin provides the model registry (is 'model_registry' disabled?)"


class RegistrationCalls:
    """Mixed into :class:`~tether.core.hooks.facade.Hooks` (which provides ``pm``, ``runner``
    and ``_first``)."""

    pm: PluginManager
    runner: HookRunner

    def _first(self, name: str, failure: str | None, answer_check: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def model_registry(self, settings: Any = None) -> ModelRegistry:
        """The registry a plugin provides (``model_registry``); one line when none does."""
        found = self._first(
            "model_registry", "no model registry", expect_registry, pm=self.pm, settings=settings
        )
        if found is None:
            raise ProviderConfigError(NO_MODEL_REGISTRY)
        return found

    def tool_arguments_validator(self) -> Callable[[str, dict[str, Any], Any], Any] | None:
        """The function tool-call arguments pass through (``None``: no plugin gives one)."""
        return self._first("tool_arguments_validator", "no tool argument check", expect_callable)

    def route_command_line(self, args: list[str], commands: list[str]) -> list[str]:
        """The line to parse: a plugin's rewrite, else ``args``. A ``TetherError`` a plugin
        raises on purpose (a typo of a command) is said as the plugin said it."""
        kwargs = {"args": list(args), "commands": list(commands)}
        try:
            found = self.runner.first("route_command_line", kwargs, expect_args)
        except TetherError as exc:
            failure = attributed(exc)
            if failure is not None and not isinstance(exc, HookError):
                exc.args = (failure.detail, *exc.args[1:])
            raise
        return list(args) if found is None else found

    def http_client(self, purpose: str) -> Any:
        return self._first("http_client", None, None, purpose=purpose)

    def register_tools(self, registration: Registration) -> list[str]:
        """Call ``register_tools`` plugin by plugin; return the plugins that failed."""
        return call_registration(self.pm, "register_tools", registration)

    def register_providers(self, registration: Registration) -> list[str]:
        return call_registration(self.pm, "register_providers", registration)

    def register_commands(self, registration: Registration) -> list[str]:
        return call_registration(self.pm, "register_commands", registration)

    def register_provider_defaults(self, registration: Registration) -> list[str]:
        """In registration order: an installed plugin's registration replaces a built-in's."""
        return call_registration(self.pm, "register_provider_defaults", registration)


__all__ = ["NO_MODEL_REGISTRY", "RegistrationCalls"]
