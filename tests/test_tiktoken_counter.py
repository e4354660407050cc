"""The tiktoken counter: shipped rank files, offline construction, selection by setting."""

from __future__ import annotations

import base64
import hashlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tether.builtin_plugins.memory import tiktoken_counter as tc
from tether.core.base.errors import TetherError
from tether.core.choices.running import token_counter
from tether.core.host.manager import create_plugin_manager

SAMPLES = [
    "The quick brown fox jumps over the lazy dog. It's what we'd call a pangram.",
    "def summarize(request):\n    return Summary(text=request.messages[0], summarizer='x')\n",
    '{"path": "src/app.py", "offset": 12, "limit": 40, "flags": [true, null]}',
    "这是一个测试会话压缩的句子。日本語のテキスト、한국어 문장 🚀👨‍👩‍👧‍👦",
    "   leading spaces\r\n\ttabs 12345678 <|endoftext|> literal",
]


@pytest.fixture
def isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty TETHER_HOME and project directory; no counter from the environment."""
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.setenv("TETHER_HOME", str(home))
    monkeypatch.delenv("TETHER_TOKEN_COUNTER", raising=False)
    monkeypatch.chdir(project)
    return home


def _upstream_encoding(name: str, ranks: dict[bytes, int]):
    """tiktoken's own constructor for ``name`` fed our ranks (no download)."""
    import tiktoken
    from tiktoken_ext import openai_public

    mp = pytest.MonkeyPatch()
    mp.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: ranks)
    try:
        params = getattr(openai_public, name)()
    finally:
        mp.undo()
    return tiktoken.Encoding(**params)


@pytest.mark.parametrize("name", sorted(tc.SHIPPED_ENCODINGS))
def test_shipped_encoding_matches_tiktoken_exactly(name: str) -> None:
    spec = tc.SHIPPED_ENCODINGS[name]
    assert spec.rank_file.is_file()
    assert hashlib.sha256(spec.rank_file.read_bytes()).hexdigest() == spec.sha256
    ours = tc.get_encoding(name)
    upstream = _upstream_encoding(name, tc.read_ranks(spec.rank_file, spec.sha256))
    assert ours.special_tokens_set == upstream.special_tokens_set
    for text in SAMPLES:
        assert ours.encode_ordinary(text) == upstream.encode_ordinary(text)
        assert ours.decode(ours.encode_ordinary(text)) == text


def test_upstream_hashes_are_the_shipped_ones() -> None:
    import inspect

    from tiktoken_ext import openai_public

    for name, spec in tc.SHIPPED_ENCODINGS.items():
        assert spec.sha256 in inspect.getsource(getattr(openai_public, name))


def test_damaged_rank_file_is_refused(tmp_path: Path) -> None:
    spec = tc.SHIPPED_ENCODINGS["cl100k_base"]
    damaged = tmp_path / "cl100k_base.tiktoken"
    data = bytearray(spec.rank_file.read_bytes())
    data[100] ^= 0x01
    damaged.write_bytes(bytes(data))
    bad = tc.EncodingSpec(spec.name, damaged, spec.sha256, spec.pat_str, spec.special_tokens)
    with pytest.raises(TetherError, match="sha256 .* does not match"):
        tc.build_encoding(bad)


def test_tiny_rank_file_written_by_the_test(tmp_path: Path) -> None:
    ranks = {bytes([b]): b for b in range(256)}
    ranks[b"ab"] = 256
    ranks[b"abab"] = 257
    rank_file = tmp_path / "tiny.tiktoken"
    rank_file.write_bytes(
        b"".join(base64.b64encode(tok) + b" " + str(r).encode() + b"\n" for tok, r in ranks.items())
    )
    digest = hashlib.sha256(rank_file.read_bytes()).hexdigest()
    spec = tc.EncodingSpec("tiny", rank_file, digest, r"\S+|\s+", {"<|end|>": 258})
    encoding = tc.build_encoding(spec)
    assert encoding.encode_ordinary("abab") == [257]
    assert encoding.encode_ordinary("ababab x") == [257, 256, 32, 120]
    message = {"role": "user", "content": [{"type": "text", "text": "abab"}]}
    assert tc.count_message(encoding, message) == 1


def test_malformed_rank_line_names_the_line(tmp_path: Path) -> None:
    rank_file = tmp_path / "bad.tiktoken"
    rank_file.write_bytes(b"YQ== 0\nnot-a-pair\n")
    with pytest.raises(TetherError, match=r"bad\.tiktoken:2: expected"):
        tc.read_ranks(rank_file, None)


def test_counts_each_part_of_each_role() -> None:
    enc = tc.get_encoding("o200k_base")

    def n(text: str) -> int:
        return len(enc.encode_ordinary(text))

    image = {"type": "image", "data": "AAAA", "mimeType": "image/png"}
    call = {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "src/数据.py"}}
    cases = [
        ({"role": "user", "content": "hello world"}, n("hello world")),
        ({"role": "user", "content": [{"type": "text", "text": "see"}, image]}, n("see") + 1200),
        (
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm, let me think"},
                    {"type": "text", "text": "Reading it."},
                    call,
                ],
            },
            n("hmm, let me think") + n("Reading it.") + n("read") + n('{"path":"src/数据.py"}'),
        ),
        (
            {"role": "toolResult", "content": [{"type": "text", "text": "1\tline"}, image]},
            n("1\tline") + 1200,
        ),
        ({"role": "bashExecution", "command": "ls -la", "output": "a\nb"}, n("ls -la") + n("a\nb")),
        ({"role": "compactionSummary", "summary": "## Goal\nx"}, n("## Goal\nx")),
        ({"role": "branchSummary", "summary": "explored"}, n("explored")),
        ({"role": "somethingNew", "content": "ignored"}, 0),
    ]
    for message, expected in cases:
        assert tc.count_message(enc, message) == expected, message["role"]


MESSAGES = [
    {"role": "user", "content": "Please refactor 数据模型 in src/模型.py", "timestamp": 0},
    {"role": "assistant", "content": [{"type": "text", "text": "こんにちは、始めます。"}]},
]


def test_not_selected_by_default_the_chars_estimate_counts(isolated_settings: Path) -> None:
    counts = token_counter(create_plugin_manager(environ={}))(MESSAGES)
    chars = [len(MESSAGES[0]["content"]), len(MESSAGES[1]["content"][0]["text"])]
    assert counts == [math.ceil(c / 4) for c in chars]  # pi's estimate answered


def test_selected_by_project_setting_with_encoding(isolated_settings: Path, tmp_path: Path) -> None:
    settings = tmp_path / "project" / ".tether" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"tokens": {"counter": "tiktoken", "encoding": "cl100k_base"}}))
    counts = token_counter(create_plugin_manager(environ={}))(MESSAGES)
    cl100k, o200k = tc.get_encoding("cl100k_base"), tc.get_encoding("o200k_base")
    assert counts == [tc.count_message(cl100k, m) for m in MESSAGES]
    assert counts != [tc.count_message(o200k, m) for m in MESSAGES]  # the setting mattered


def test_selected_by_global_setting_and_environment(
    isolated_settings: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (isolated_settings / "settings.json").write_text(json.dumps({"tokens": {"counter": "chars"}}))
    pm = create_plugin_manager(environ={})
    o200k = tc.get_encoding("o200k_base")
    expected = [tc.count_message(o200k, m) for m in MESSAGES]
    assert token_counter(pm)(MESSAGES) != expected  # "chars" chosen by the global setting
    (isolated_settings / "settings.json").write_text(
        json.dumps({"tokens": {"counter": "tiktoken"}})
    )
    assert token_counter(pm)(MESSAGES) == expected
    (isolated_settings / "settings.json").write_text(json.dumps({"tokens": {"counter": "chars"}}))
    monkeypatch.setenv("TETHER_TOKEN_COUNTER", "tiktoken")
    assert token_counter(pm)(MESSAGES) == expected  # the environment wins over the files


def test_unknown_encoding_is_one_clear_error(isolated_settings: Path) -> None:
    (isolated_settings / "settings.json").write_text(
        json.dumps({"tokens": {"counter": "tiktoken", "encoding": "p99k"}})
    )
    with pytest.raises(TetherError, match="unknown encoding 'p99k'"):
        tc.count_tokens(MESSAGES, None)


def test_works_without_network_and_writes_no_cache(tmp_path: Path) -> None:
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    env = {
        **os.environ,
        "TIKTOKEN_CACHE_DIR": str(cache),
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "HTTP_PROXY": "http://127.0.0.1:9",
        "TETHER_TOKEN_COUNTER": "tiktoken",
        "TETHER_HOME": str(tmp_path),
    }
    code = (
        "from tether.builtin_plugins.memory.tiktoken_counter import count_tokens\n"
        "print(count_tokens([{'role': 'user', 'content': 'offline tokens'}], None))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    message = {"role": "user", "content": "offline tokens"}
    expected = [tc.count_message(tc.get_encoding("o200k_base"), message)]
    assert out.stdout.strip() == repr(expected)
    assert list(cache.iterdir()) == []
