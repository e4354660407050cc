"""The session-script format of ``bench/fidelity.py``'s families, and its loader and builder.

A script is one JSON object (a file may hold one object or a list of them)::

    {
      "family": "changed",               # groups sessions in the report (any name)
      "name": "deploy-config",           # unique within its family
      "fillers": ["continue", "继续"],    # optional: user turns appended between compactions
      "acks": ["OK.", "Done."],          # optional: assistant replies added after a user turn
      "turns": [
        {"user": "The staging DB lives at db-stage-1.internal:5432, use it."},
        {"assistant": "Pointing the migrations there."},
        {"tool": "bash", "args": {"command": "pytest -q"}, "result": "...", "isError": true},
        {"log": 8000, "command": "pytest -q"}
      ],
      "facts": [
        {"text": "db-stage-2.internal:5432", "kind": "value"},
        {"text": "所有时间按北京时间显示", "kind": "constraint",
         "section": "Constraints & Preferences"}
      ],
      "retired": [
        {"value": "db-stage-1.internal", "by": "db-stage-3.internal"},
        {"value": "--minify", "by": null}
      ]
    }

``turns``: ``user`` / ``assistant`` text; ``tool`` an assistant tool call with its result;
``log`` a synthetic passing test log of about that many bytes (a ``bash`` call). A user or tool
turn not followed by an assistant or tool turn gets an ack (cycled from ``acks``).
``facts``: strings that must reach the model verbatim (summary or kept entries); ``kind`` is
one of :data:`FACT_KINDS`; ``section`` (optional) is the summary section it belongs under
(one of :data:`SECTIONS`), also counted. ``retired``: values replaced later (``by``: the value
that replaced it, or ``null`` when revoked); each must be said in the turns, and must not be
part of its replacement. A retired value shown in the summary as current is an error (see
``bench/fidelity_judge.py``); a revoking sentence should carry a change word (no longer, 不再…).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FACT_KINDS = (
    "goal",
    "constraint",
    "preference",
    "decision",
    "next_step",
    "identifier",
    "error",
    "value",
)
SECTIONS = ("Goal", "Constraints & Preferences", "Key Decisions", "Next Steps", "Critical Context")
DEFAULT_FILLERS = ("continue", "Continue.", "go on", "keep going")
DEFAULT_ACKS = ("OK.", "Got it.", "Done.", "On it.")
T0 = 1_700_000_000_000
PROGRESS = (  # ~1.4 KB, so three filler turns exceed a keep budget of 1000 tokens
    "the tests pass, the last change is in place and nothing is blocked. I re-ran the checks, "
    "reviewed the diff for style and left the remaining work as it was. "
) * 8
USAGE = {
    "input": 100,
    "output": 20,
    "cacheRead": 0,
    "cacheWrite": 0,
    "totalTokens": 120,
    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
}


class ScriptError(ValueError):
    """A session script that does not match the format (one line: where and what)."""


@dataclass(frozen=True)
class Fact:
    text: str
    kind: str
    section: str | None = None


@dataclass(frozen=True)
class Retired:
    value: str
    by: str | None


@dataclass
class Script:
    """One scripted session of a family."""

    family: str
    name: str
    turns: list[dict[str, Any]]
    facts: list[Fact]
    retired: list[Retired] = field(default_factory=list)
    fillers: tuple[str, ...] = DEFAULT_FILLERS
    acks: tuple[str, ...] = DEFAULT_ACKS

    def said(self) -> str:
        """Every text the turns put into the session (user, assistant, tool results, logs)."""
        return "\n".join(text for message in messages(self) for text in _texts(message))


def _fail(where: str, what: str) -> ScriptError:
    return ScriptError(f"{where}: {what}")


def _text(obj: dict[str, Any], key: str, where: str, optional: bool = False) -> Any:
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise _fail(where, f"field {key!r}: expected a non-empty string")
    return value


def _strings(obj: dict[str, Any], key: str, where: str, default: tuple[str, ...]) -> tuple:
    value = obj.get(key, list(default))
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise _fail(where, f"field {key!r}: expected a non-empty list of strings")
    return tuple(value)


def _turn(turn: Any, where: str) -> dict[str, Any]:
    if not isinstance(turn, dict):
        raise _fail(where, "expected an object")
    if "user" in turn or "assistant" in turn:
        _text(turn, "user" if "user" in turn else "assistant", where)
    elif "tool" in turn:
        _text(turn, "tool", where)
        _text(turn, "result", where)
        if not isinstance(turn.get("args", {}), dict):
            raise _fail(where, "field 'args': expected an object")
    elif "log" in turn:
        if not isinstance(turn["log"], int) or not 0 < turn["log"] <= 200_000:
            raise _fail(where, "field 'log': expected a byte count 1…200000")
    else:
        raise _fail(where, "expected one of the keys user, assistant, tool, log")
    return turn


def parse(obj: Any, where: str) -> Script:
    """A :class:`Script` from one JSON object; :class:`ScriptError` names what is wrong."""
    if not isinstance(obj, dict):
        raise _fail(where, "expected a session object")
    family, name = _text(obj, "family", where), _text(obj, "name", where)
    turns = obj.get("turns")
    if not isinstance(turns, list) or not turns:
        raise _fail(where, "field 'turns': expected a non-empty list")
    checked = [_turn(t, f"{where}: turns[{i}]") for i, t in enumerate(turns)]
    facts = []
    for i, raw in enumerate(obj.get("facts") or []):
        at = f"{where}: facts[{i}]"
        if not isinstance(raw, dict):
            raise _fail(at, "expected an object")
        kind, section = _text(raw, "kind", at), _text(raw, "section", at, optional=True)
        if kind not in FACT_KINDS:
            raise _fail(at, f"field 'kind': expected one of {', '.join(FACT_KINDS)}")
        if section is not None and section not in SECTIONS:
            raise _fail(at, f"field 'section': expected one of {', '.join(SECTIONS)}")
        facts.append(Fact(_text(raw, "text", at), kind, section))
    if not facts:
        raise _fail(where, "field 'facts': expected a non-empty list")
    retired = []
    for i, raw in enumerate(obj.get("retired") or []):
        at = f"{where}: retired[{i}]"
        if not isinstance(raw, dict):
            raise _fail(at, "expected an object")
        value, by = _text(raw, "value", at), _text(raw, "by", at, optional=True)
        if by is not None and value in by:
            raise _fail(at, f"retired value {value!r} is part of its replacement {by!r}")
        retired.append(Retired(value, by))
    script = Script(
        family,
        name,
        checked,
        facts,
        retired,
        _strings(obj, "fillers", where, DEFAULT_FILLERS),
        _strings(obj, "acks", where, DEFAULT_ACKS),
    )
    said = script.said()
    for label, value in [("fact", f.text) for f in facts] + [("retired", r.value) for r in retired]:
        if value not in said:
            raise _fail(where, f"{label} {value!r} is never said in the turns")
    return script


def load(directory: Path) -> list[Script]:
    """Every script in ``directory/*.json`` (sorted by file name)."""
    if not directory.is_dir():
        raise ScriptError(f"{directory}: not a directory")
    out: list[Script] = []
    for path in sorted(directory.glob("*.json")):
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ScriptError(f"{path}: not readable JSON: {exc}") from None
        items = data if isinstance(data, list) else [data]
        out += [parse(obj, f"{path}: session {i}") for i, obj in enumerate(items)]
    if not out:
        raise ScriptError(f"{directory}: no *.json session scripts")
    return out


def make_log(size: int, seed: int, command: str = "pytest -q") -> str:
    """A passing pytest-style log of about ``size`` bytes (deterministic per ``seed``)."""
    rng = random.Random(seed)
    modules = ["api", "models", "store", "render", "config", "cli", "jobs", "auth", "cache"]
    lines = [f"$ {command}", "============ test session starts ============", "collected tests"]
    n = 0
    while sum(len(line) + 1 for line in lines) < size - 80:
        n += 1
        module = rng.choice(modules)
        lines.append(
            f"tests/test_{module}.py::test_{module}_{rng.randint(1, 999):03d} PASSED"
            f"{' ' * rng.randint(1, 12)}[{min(99, n // 3):>3}%]"
        )
    lines.append(f"============ {n} passed in {rng.randint(2, 59)}.{rng.randint(10, 99)}s ========")
    return "\n".join(lines)


def _user(text: str, t: int) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": t}


def _assistant(content: list[dict[str, Any]], t: int, stop: str = "stop") -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": content,
        "api": "openai-completions",
        "provider": "faux",
        "model": "faux-1",
        "usage": USAGE,
        "stopReason": stop,
        "timestamp": t,
    }


def _say(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def _texts(message: dict[str, Any]) -> list[str]:
    return [b["text"] for b in message.get("content", []) if b.get("type") == "text"]


def messages(script: Script) -> list[dict[str, Any]]:
    """The session's messages, in order (pi's v3 message shapes)."""
    out: list[dict[str, Any]] = []
    acks = 0
    for i, turn in enumerate(script.turns):
        t = T0 + i
        following = script.turns[i + 1] if i + 1 < len(script.turns) else {}
        if "user" in turn:
            out.append(_user(turn["user"], t))
        elif "assistant" in turn:
            out.append(_assistant([_say(turn["assistant"])], t))
            continue
        else:
            name = turn.get("tool", "bash")
            args = turn.get("args") or {"command": turn.get("command", "pytest -q")}
            result = turn.get("result") or make_log(turn["log"], i, args.get("command", "pytest"))
            call = {"type": "toolCall", "id": f"call_{i}", "name": name, "arguments": args}
            out.append(_assistant([_say(f"Running {name}."), call], t, "toolUse"))
            out.append(
                {
                    "role": "toolResult",
                    "toolCallId": f"call_{i}",
                    "toolName": name,
                    "content": [_say(result)],
                    "isError": bool(turn.get("isError", False)),
                    "timestamp": t,
                }
            )
        if not ({"assistant", "tool", "log"} & set(following)):
            out.append(_assistant([_say(script.acks[acks % len(script.acks)])], t))
            acks += 1
    return out


def filler(script: Script, n: int) -> list[dict[str, Any]]:
    """Filler turn ``n`` between compactions: a bare continue, a test run of another part of
    the suite (new progress detail each time, no new fact) and a progress reply."""
    t = T0 + 10_000 + n
    command = f"pytest -q tests/test_part{n}.py"
    call = {
        "type": "toolCall",
        "id": f"fill_{n}",
        "name": "bash",
        "arguments": {"command": command},
    }
    result = {
        "role": "toolResult",
        "toolCallId": f"fill_{n}",
        "toolName": "bash",
        "content": [_say(f"{n % 7 + 5} passed in 0.{n % 9 + 1}s")],
        "isError": False,
        "timestamp": t,
    }
    return [
        _user(script.fillers[n % len(script.fillers)], t),
        _assistant([_say("Running the next part of the suite."), call], t, "toolUse"),
        result,
        _assistant([_say(f"Progress check {n}: " + PROGRESS)], t),
    ]
