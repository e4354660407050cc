"""Hostile providers, with ``tether run`` as a real subprocess against loopback servers
(issue 7): a ``Retry-After`` beyond ``retry.maxDelayMs`` or not a finite number (item 12),
an API key echoed in an error body (item 13), a stream of keep-alives only (item 16)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import run_tether, session_files, write_home
from tests.servers.adversarial import AdversarialAnthropicServer, AdversarialOpenAIServer

MODEL = ["--model", "loop/test-model"]
APIS = {"openai": "openai-completions", "anthropic": "anthropic-messages"}


@pytest.fixture(params=["openai", "anthropic"])
def server(request: pytest.FixtureRequest) -> Iterator[AdversarialOpenAIServer]:
    cls = AdversarialOpenAIServer if request.param == "openai" else AdversarialAnthropicServer
    with cls() as running:
        yield running  # type: ignore[misc]


@pytest.fixture
def adv_openai() -> Iterator[AdversarialOpenAIServer]:
    with AdversarialOpenAIServer() as running:
        yield running


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


def _home(tmp_path: Path, server: object, **settings: object) -> Path:
    return write_home(tmp_path / "home", server, api=server.api, settings=settings)  # type: ignore[attr-defined]


# -- item 12: Retry-After -------------------------------------------------------------------------


def test_429_asking_longer_than_max_delay_says_so_and_names_the_setting(
    openai_server, tmp_path, project
):
    home = _home(tmp_path, openai_server)  # retry.maxDelayMs is 2000 there
    openai_server.error(429, "rate limited", headers={"retry-after": "120"})
    done = run_tether("run", *MODEL, "hi", home=home, cwd=project)
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith("tether: error: ") and "429 rate limited" in line
    assert "asked to wait 120 s" in line
    assert "retry.maxDelayMs" in line and "2 s" in line and "settings.json" in line
    assert len(openai_server.requests) == 1  # not waited out, not retried


@pytest.mark.parametrize("value", ["1e999", "inf", "nan", "-5"])
def test_non_finite_or_negative_retry_after_is_ignored_with_one_warning(
    openai_server, tmp_path, project, value
):
    home = _home(tmp_path, openai_server)
    openai_server.error(429, "slow down", headers={"retry-after": value})
    openai_server.text("made it")
    # one value in a real process, the others (the same code path) in this one
    run = run_tether if value == "inf" else run_in_process
    done = run("run", *MODEL, "hi", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "made it\n"
    warnings = [line for line in done.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "Retry-After" in warnings[0]
    assert ("inf" if value == "1e999" else value) in warnings[0]
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


# -- item 13: keys echoed by the provider ---------------------------------------------------------

SECRET_LITERAL = "sk-literal-0123456789abcdef"
SECRET_ENV = "sk-from-env-fedcba9876543210"


@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.parametrize("source", ["apiKey", "apiKeyEnv"])
def test_echoed_api_key_is_redacted_from_the_session_and_all_output(
    server, tmp_path, project, source, as_json
):
    home = _home(tmp_path, server)
    models = json.loads((home / "models.json").read_text())
    entry = models["providers"]["loop"]
    if source == "apiKey":
        entry["apiKey"] = SECRET_LITERAL
    else:
        del entry["apiKey"]
        entry["apiKeyEnv"] = "LOOP_TEST_KEY"
    (home / "models.json").write_text(json.dumps(models))
    server.echo_key(401)
    args = ["run", *(["--json"] if as_json else []), *MODEL, "hi"]
    # a literal key in a real process (all it writes, on both APIs, plain and --json); the
    # key from a variable in this one
    run = run_tether if source == "apiKey" else run_in_process
    done = run(*args, home=home, cwd=project, env={"LOOP_TEST_KEY": SECRET_ENV})
    assert done.returncode == 1
    headers = server.requests[-1].headers
    sent = headers.get("authorization") or headers.get("x-api-key") or ""
    secret = SECRET_LITERAL if source == "apiKey" else SECRET_ENV
    assert secret in sent  # the key did reach the server, which echoed it
    [file] = session_files(home)
    stored = file.read_text()
    assert "Incorrect API key provided" in stored and "[redacted]" in stored
    for text in (stored, done.stdout, done.stderr):
        assert secret not in text
    assert "[redacted]" in done.stderr
    if as_json:
        assert "[redacted]" in done.stdout


def test_well_known_key_variables_are_redacted_too(adv_openai, tmp_path, project):
    home = _home(tmp_path, adv_openai)  # the loop provider's own key is "test-key"
    models = json.loads((home / "models.json").read_text())
    models["providers"]["loop"]["apiKey"] = "sk-anthropic-fake-key-000111222"
    (home / "models.json").write_text(json.dumps(models))
    adv_openai.echo_key(400)
    env = {"ANTHROPIC_API_KEY": "sk-anthropic-fake-key-000111222"}
    done = run_tether("run", "--json", *MODEL, "hi", home=home, cwd=project, env=env)
    assert done.returncode == 1
    [file] = session_files(home)
    for text in (file.read_text(), done.stdout, done.stderr):
        assert "sk-anthropic-fake-key-000111222" not in text


def test_redactor_values_and_short_values():
    from tether.builtin_plugins.providers.models.redact import Redactor, secret_values

    providers = {
        "a": {"apiKey": "literal-key-123", "headers": {"Authorization": "Bearer tok-abcdef123"}},
        "b": {"apiKeyEnv": "MY_VAR"},
    }
    environ = {"MY_VAR": "env-secret-999", "FOO_API_KEY": "foo-secret-888", "GROQ_API_KEY": "abc"}
    redact = Redactor(secret_values(providers, environ))
    text = "literal-key-123 tok-abcdef123 env-secret-999 foo-secret-888 abc"
    assert redact.text(text) == "[redacted] [redacted] [redacted] [redacted] abc"


# -- item 16: keep-alives only --------------------------------------------------------------------


def test_the_idle_timeout_default_is_the_read_timeout():
    from tether.builtin_plugins.providers.http import READ_TIMEOUT
    from tether.core.base.settings import Settings
    from tether.hookspecs.providers import IDLE_TIMEOUT

    assert Settings().provider.idle_timeout_ms == IDLE_TIMEOUT * 1000 == READ_TIMEOUT * 1000


def test_a_stream_of_keepalives_only_times_out_and_is_retried(server, tmp_path, project):
    home = _home(tmp_path, server, provider={"idleTimeoutMs": 500})
    server.keepalives(30)
    server.text("after the stall")
    started = time.monotonic()
    done = run_tether("run", "--json", *MODEL, "hi", home=home, cwd=project, timeout=40)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert elapsed < 15, f"took {elapsed:.1f} s: the keep-alives were not timed out"
    records = [json.loads(line) for line in done.stdout.splitlines()]
    [retry] = [r for r in records if r["type"] == "auto_retry_start"]
    assert "no data" in retry["errorMessage"] and "provider.idleTimeoutMs" in retry["errorMessage"]
    final = [r for r in records if r["type"] == "message_end"][-1]["message"]
    assert final["content"] == [{"type": "text", "text": "after the stall"}]
