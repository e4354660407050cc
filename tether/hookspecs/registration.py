"""Registration hooks: plugins contribute tools, providers, commands, prompt sections, clients."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookspec

if TYPE_CHECKING:  # the types plugins get from ``tether``
    from tether.core.base.settings import Settings
    from tether.core.host.manager import PluginManager
    from tether.hookspecs.model_registry import ModelRegistry
    from tether.hookspecs.prompt import PromptOptions, Section
    from tether.hookspecs.providers import Model, Provider
    from tether.hookspecs.tools import FunctionTool


@hookspec
def register_tools(register: Callable[[FunctionTool | Any], None]) -> None:
    """Contribute tools the model may call.

    When: once per agent set-up (``tether chat``/``run``, ``tether prompt``), after all plugins
    are loaded. Arguments: ``register(tool)`` — call it once per tool. The usual tool is a
    :class:`tether.FunctionTool` (``name``, ``description``, ``parameters`` — a JSON schema
    dict —, ``run(tool_call_id, args, ctx)`` returning a :class:`tether.ToolResult`; optional
    ``label``, ``prompt_snippet``, ``prompt_guidelines``, ``execution_mode``); any object with
    those attributes and an ``execute(tool_call_id, args, ctx)`` method works too. ``ctx`` is a
    :class:`tether.ToolContext` (``cwd``, ``signal``, ``on_update``, ``settings``).
    Return: nothing (collect hook). Ordering: every implementation runs; a later registration
    with the same name replaces an earlier one, and third-party plugins run after the
    built-ins, so a plugin can replace ``read``, ``bash`` and so on. If it raises, a warning
    names the plugin and the hook, and none of this plugin's tools are used.

    Example::

        @hookimpl
        def register_tools(register):
            def run(tool_call_id, args, ctx):
                return ToolResult.text(f"Hello, {args['name']}!")

            register(
                FunctionTool(
                    name="hello",
                    description="Say hello to someone",
                    parameters={
                        "type": "object",
                        "properties": {"name": {"type": "string"}},
                        "required": ["name"],
                    },
                    run=run,
                )
            )
    """


@hookspec
def register_providers(register: Callable[[Provider], None]) -> None:
    """Contribute LLM API adapters.

    When: the first time a model is resolved in a process. Arguments: ``register(provider)``,
    where ``provider`` has an ``api`` name (e.g. ``"openai-completions"``,
    ``"anthropic-messages"``, ``"faux"``) and a ``stream(model, context, options)``
    method (the :class:`tether.Provider` protocol). ``models.json``
    entries pick an adapter by its ``api``. Return: nothing. Ordering: all run; the last
    registration of an ``api`` wins (third-party after built-ins). If it raises, a warning
    names the plugin and the hook, and none of this plugin's adapters are used.

    Example::

        @hookimpl
        def register_providers(register):
            register(MyGatewayProvider())
    """


@hookspec
def register_provider_defaults(register: Callable[[str, Mapping[str, Any]], None]) -> None:
    """Contribute providers that work by name alone (``--provider openai``).

    When: the first time a process reads the provider configuration (resolving a model,
    ``tether models``, redacting keys). Arguments: ``register(name, defaults)`` — call it once
    per provider; ``defaults`` has the shape of a ``models.json`` ``providers.<name>`` entry:
    ``api`` (the adapter, see ``register_providers``), ``baseUrl``, ``apiKeyEnv`` (the
    variable holding the key; its value is also redacted from error texts), optional
    ``headers``, ``contextWindow``/``maxTokens``/``reasoning``/``input`` (defaults for its
    models) and ``models`` (a list of ``{"id": ...}`` objects always listed). A ``models.json``
    entry of the same name extends it key by key (its models are added, same ids replaced); a
    provider registered here needs no ``baseUrl`` in ``models.json``. Return: nothing (collect
    hook). Ordering: all run, the built-ins (``trylast``) first, then third-party plugins in
    load order; a later registration of a name replaces an earlier one, so a plugin can point
    ``openai`` at a gateway. If it raises (or ``register`` gets a name that is not a non-empty
    string, or defaults that are not a mapping), a warning names the plugin and the hook, and
    none of this plugin's providers are used. The built-ins: ``provider_openai`` registers
    ``openai``, ``openrouter`` and ``ollama``; ``provider_anthropic`` ``anthropic``;
    ``provider_faux`` ``faux`` (with its model ``faux-1``).

    Example::

        @hookimpl
        def register_provider_defaults(register):
            register("gateway", {"api": "openai-completions",
                                 "baseUrl": "https://llm.example.com/v1",
                                 "apiKeyEnv": "GATEWAY_API_KEY"})
    """


@hookspec
def register_commands(app: Any) -> None:
    """Add commands to the ``tether`` command line.

    When: while the CLI is built (every ``tether`` invocation). Arguments: ``app`` — the root
    ``typer.Typer``; add commands with ``@app.command()`` or sub-apps with ``app.add_typer``.
    Keep imports inside the command functions so start-up stays fast. Return: nothing.
    Ordering: all run, built-ins first; a duplicate command name is reported as an error.
    If it raises, a warning names the plugin and the hook, and the commands and groups it
    added are removed; every other command works.

    Example::

        @hookimpl
        def register_commands(app):
            @app.command()
            def hello():
                print("hi")
    """


@hookspec(firstresult=True)
def route_command_line(args: list[str], commands: list[str]) -> list[str] | None:
    """Rewrite the command line before it is parsed: forms that name no command.

    When: once per ``tether`` invocation, after plugins have registered their commands and
    before typer parses the line. Arguments: ``args`` — the arguments after ``tether`` (root
    options such as ``--disable-plugin NAME`` first; ``--store``, ``--wait`` and pi's
    ``--mode`` are already read); ``commands`` — the names of the top-level commands. Return:
    the arguments to parse instead, or ``None`` to let the next implementation answer (no
    answer at all: the line as given). Ordering: firstresult; the built-in answer (plugin
    ``pi_forms``: ``tether -p …`` → ``run``, ``tether -c``/``"prompt"`` → ``chat``,
    ``--list-models``, ``--export``, ``-V``/``-h``) is ``trylast``, so a plugin wins. A
    ``tether.TetherError`` it raises is the user's error, printed as one line (a usage error
    exits with 2); anything else it raises, or an answer that is not a list of strings, is
    an error naming the plugin.

    Example::

        @hookimpl
        def route_command_line(args, commands):
            if args[:1] == ["ls"]:  # a habit from another tool
                return ["sessions", *args[1:]]
            return None
    """


@hookspec
def system_prompt_sections(options: PromptOptions) -> list[Section] | Section | None:
    """Contribute sections of the system prompt.

    When: before every agent run (the prompt is rebuilt each run) and by ``tether prompt``.
    Arguments: ``options`` — a :class:`tether.PromptOptions` (cwd, home, active tools with
    their snippets and guidelines, custom prompt, appended prompt, now, ``extra`` — a dict free
    for plugins — and ``warnings``, a list to append problems to). The built-in
    ``prompt_sections`` plugin loads the project context files and skills itself and keeps them
    in ``options.extra["context_files"]`` / ``["skills"]``.
    Return: one :class:`tether.Section` (``name``, ``order``, ``text``) or a list of them,
    or ``None``. Sections are joined in ascending ``order``; ties keep plugin call order.
    ``tether prompt --explain`` shows which plugin wrote each section. Ordering: all run.

    Example::

        @hookimpl
        def system_prompt_sections(options):
            return Section(name="house-rules", order=450, text="Always run the tests.")
    """


@hookspec(firstresult=True)
def model_registry(pm: Any, settings: Any) -> ModelRegistry | None:
    """Provide the model registry: how model references resolve and model calls are made.

    When: whenever tether needs models (an agent set-up, a summary, ``tether models``), once
    per use; the kernel closes what it gets. Arguments: ``pm`` — the plugin manager (ask it for
    ``register_providers``, ``register_provider_defaults`` and ``http_client`` through
    :class:`tether.Hooks`); ``settings`` — the merged settings (``default_provider``,
    ``default_model``, ``provider.idle_timeout_ms``) or ``None``. Return: a
    :class:`tether.ModelRegistry` (``resolve``, ``find_model``, ``models``, ``stream``,
    ``close``: a ``Protocol``, any object with these methods; the built-in answers a
    ``tether.ProviderRegistry``, which summarizers get as ``request.registry``) or ``None`` to
    let the next implementation answer. Ordering:
    firstresult; the built-in answer (plugin ``model_registry``: models.json in the tether
    home, keys from ``--api-key``/environment/file, keys redacted from error texts) is
    ``trylast``, so a plugin (a central model catalogue, a key vault) wins. With no answer at
    all, a command that needs a model fails with one line saying the registry is missing; if
    an implementation raises, the error names the plugin and the hook.

    Example::

        @hookimpl
        def model_registry(pm, settings):
            return VaultRegistry(pm, vault_url="https://vault.internal")
    """


@hookspec(firstresult=True)
def choose_model(
    registry: ModelRegistry,
    ref: str | None,
    provider: str | None,
    model: str | None,
    stored: dict[str, Any] | None,
    current: Model | None,
    warn: Callable[[str], None],
) -> Model | None:
    """Choose the model a session runs with.

    When: as a :class:`tether.Harness` binds a session (at its start, and after
    new/resume/fork/clone) and when the model is switched (``/model``, RPC ``set_model``).
    Arguments: ``registry`` — the :class:`tether.ModelRegistry` in use; ``ref``, ``provider``,
    ``model`` — what the user asked for (``--model provider/id`` or an id, ``--provider``;
    ``/model``'s ``provider/id``), all ``None`` when nothing was asked; ``stored`` — the model
    recorded on the branch (``{"provider", "modelId"}``), only for a session that has
    messages, else ``None``; ``current`` — the model in use when a running harness switches
    sessions (``None`` at its start); ``warn`` — gives the user one warning line. Return: a
    :class:`tether.Model` (from ``registry``) or ``None`` to let the next implementation
    answer. Ordering: firstresult; the built-in answer (plugin ``model_choice``, pi's rule) is
    ``trylast``, so a plugin wins: the model asked for, else the stored one if it is
    configured and has a key (else a warning ``Could not restore model …`` and the current or
    the default one), else the current one, else the settings' default; a model that cannot
    be used raises the registry's one-line :class:`tether.ProviderError`. The model chosen is
    recorded as a ``model_change`` entry when it differs from the stored one (always for a
    session without messages). With no answer at all, binding fails with one line; an
    implementation that raises or returns something else than a ``Model`` fails it with an
    error naming the plugin and the hook.

    Example::

        @hookimpl
        def choose_model(registry, ref, provider, model, stored, current):
            if not (ref or provider or model or stored or current):  # nothing asked, new session
                return registry.find_model("ollama", "qwen3")
    """


@hookspec(firstresult=True)
def choose_thinking_level(
    requested: str | None, branch_level: str | None, model: Model | None, settings: Settings
) -> str | None:
    """Choose the thinking level a session runs with.

    When: as a :class:`tether.Harness` binds a session, when the level is set
    (``--thinking``, RPC ``set_thinking_level``), when the model is switched (the level is
    chosen again for the new model) and by ``tether session context --request``. Arguments:
    ``requested`` — the level asked for (``None``: none); ``branch_level`` — the
    ``thinkingLevel`` of the branch's last ``thinking_level_change``, for a session that has
    messages (else ``None``); ``model`` — the :class:`tether.Model` chosen; ``settings`` — the
    merged :class:`tether.Settings` (``default_thinking_level``). Return: a level (``"off"``,
    ``"minimal"``, ``"low"``, ``"medium"``, ``"high"``, ``"xhigh"``) or ``None`` to let the next
    implementation answer. Ordering: firstresult; the built-in answer (plugin ``model_choice``)
    is ``trylast``: the level asked for (an unknown one is one error line listing the levels),
    else the branch's, else ``defaultThinkingLevel`` or ``"medium"`` — always ``"off"`` for a
    model without reasoning. A ``thinking_level_change`` entry records a level that differs
    from the branch's. With no answer at all, the caller fails with one line; an
    implementation that raises or returns something else than a string fails it with an error
    naming the plugin and the hook.

    Example::

        @hookimpl(tryfirst=True)
        def choose_thinking_level(requested, branch_level, model, settings):
            if requested is None and model is not None and model.id.endswith("-mini"):
                return "off"  # small models answer without thinking unless asked
    """


@hookspec
def watch_hook_calls(pm: PluginManager, environ: Mapping[str, str]) -> None:
    """Watch the hook calls of a plugin manager (a tracer, a profiler, a call counter).

    When: once per plugin manager, as :func:`tether.create_plugin_manager` finishes: every
    plugin is loaded and no other hook has been called yet. Arguments: ``pm`` — the new
    :class:`tether.PluginManager`; ``environ`` — the environment it was made with (the
    process's, or the one a caller passed). Return: nothing. To watch, set ``pm.observer`` to
    an object with four methods, which the kernel calls for the hooks it calls one
    implementation at a time (the ``register_*`` hooks, ``system_prompt_sections`` and every
    hook whose answers it checks): ``called(hook_name, arg_names, plugins)`` before the calls
    (``plugins`` in call order), ``failed(hook_name, plugin, exc)`` when one raises or gives an
    answer the kernel refuses, ``answered(hook_name, plugin)`` for a single-answer hook
    (``plugin`` is ``None`` when none answered), ``chose(kind, name, why, plugin)`` when a
    summarizer, counter or strategy is chosen by name (``why``: ``flag``, ``setting``,
    ``default-claim`` or ``built-in default``). Calls made through pluggy (``pm.hook.x``) are
    seen by wrapping pluggy's own call monitoring (``pm.add_hookcall_monitoring``). There is one
    observer: a later implementation that sets it replaces an earlier one. Ordering: every
    implementation runs, in call order. The built-in one (plugin ``plugin_trace``) watches when
    ``TETHER_TRACE_PLUGINS=1``: one stderr line per call. An implementation that raises is one
    warning naming the plugin; the others still run.

    Example::

        class HookCounter:  # counts the hook calls the kernel makes plugin by plugin
            def __init__(self):
                self.counts = {}

            def called(self, hook_name, arg_names, plugins):
                self.counts[hook_name] = self.counts.get(hook_name, 0) + 1

            def failed(self, hook_name, plugin, exc): ...

            def answered(self, hook_name, plugin): ...

            def chose(self, kind, name, why, plugin): ...

        @hookimpl
        def watch_hook_calls(pm, environ):
            if environ.get("MY_COUNT_HOOKS"):
                pm.observer = HookCounter()
    """


@hookspec(firstresult=True)
def tool_arguments_validator() -> Callable[[str, dict[str, Any], Any], Any] | None:
    """Provide the check every tool call's arguments pass before the tool runs.

    When: once per agent set-up (``tether chat``/``run``, RPC, a :class:`tether.Harness`).
    Arguments: none. Return: a function ``validate(tool_name, schema, arguments)`` returning
    the arguments the tool runs with (a coerced copy, say) and raising an exception whose text
    is what the model reads as the call's error result — or ``None`` to let the next
    implementation answer. Ordering: firstresult; the built-in answer (plugin
    ``tool_arguments``: pi's JSON-schema subset, pi's coercions such as ``"3"`` → 3, pi's
    ``Validation failed for tool …`` text) is ``trylast``, so a plugin (a full JSON-schema
    validator, stricter rules) wins. With no answer at all the arguments reach the tool as the
    model sent them. If an implementation raises or returns something that is not callable,
    the agent set-up fails with one error naming the plugin and the hook.

    Example::

        @hookimpl
        def tool_arguments_validator():
            def validate(tool_name, schema, arguments):
                unknown = sorted(set(arguments) - set(schema.get("properties", {})))
                if unknown:  # the text the model reads
                    raise ValueError(f"{tool_name} takes no {', '.join(unknown)}")
                return arguments

            return validate
    """


@hookspec(firstresult=True)
def http_client(purpose: str) -> Any | None:
    """Provide the ``httpx.Client`` used for a purpose.

    When: whenever tether is about to make HTTP requests (a provider call, a summary).
    Arguments: ``purpose`` — e.g. ``"provider:openai-completions"``, ``"summarize"``.
    Return: an ``httpx.Client`` or ``None`` to let the next implementation answer.
    Ordering: firstresult; the built-in answer is ``trylast`` so a plugin (proxy, tests,
    custom TLS) always wins.

    Example::

        @hookimpl
        def http_client(purpose):
            return httpx.Client(proxy="http://proxy:3128")
    """
