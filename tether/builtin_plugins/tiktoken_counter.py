"""Built-in plugin ``tiktoken_counter``: exact BPE token counts instead of pi's chars/4.

Answers ``count_tokens`` only when the setting ``tokens.counter`` is ``"tiktoken"`` (or the
environment variable ``TETHER_TOKEN_COUNTER=tiktoken``); otherwise it passes (``None``) and the
chars/4 built-in answers. It is a plain ``@hookimpl`` so it runs before that ``trylast`` one.

Works offline: the BPE rank files of ``o200k_base`` and ``cl100k_base`` ship in
``tether/builtin_plugins/data/`` and are checked against their published sha256 before use
(tiktoken would otherwise download them on first use). ``tokens.encoding`` picks one.

Per message it counts the same parts as pi's estimate (text, thinking, tool-call name plus
compact JSON arguments, bash command and output, summary text) and 1200 tokens per image —
including images in user messages, which pi's estimate ignores.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tether.core.errors import TetherError
from tether.hookspecs import hookimpl

if TYPE_CHECKING:
    import tiktoken

DATA_DIR = Path(__file__).with_name("data")
IMAGE_TOKENS = 1200  # pi charges 4800 chars = 1200 tokens per image

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

# pat_str and special tokens as in tiktoken_ext.openai_public (a test checks they still match).
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)


@dataclass(frozen=True)
class EncodingSpec:
    """Everything needed to build one encoding from a local rank file."""

    name: str
    rank_file: Path
    sha256: str | None
    pat_str: str
    special_tokens: dict[str, int]


SHIPPED_ENCODINGS: dict[str, EncodingSpec] = {
    "o200k_base": EncodingSpec(
        "o200k_base",
        DATA_DIR / "o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        _O200K_PATTERN,
        {ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
    ),
    "cl100k_base": EncodingSpec(
        "cl100k_base",
        DATA_DIR / "cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        _CL100K_PATTERN,
        {
            ENDOFTEXT: 100257,
            FIM_PREFIX: 100258,
            FIM_MIDDLE: 100259,
            FIM_SUFFIX: 100260,
            ENDOFPROMPT: 100276,
        },
    ),
}


def read_ranks(rank_file: Path, sha256: str | None) -> dict[bytes, int]:
    """Parse a ``.tiktoken`` rank file (``base64-token rank`` per line), checking its hash."""
    import base64
    import hashlib

    try:
        data = rank_file.read_bytes()
    except OSError as exc:
        raise TetherError(f"{rank_file}: cannot read token rank file: {exc.strerror}") from exc
    if sha256 is not None:
        actual = hashlib.sha256(data).hexdigest()
        if actual != sha256:
            raise TetherError(
                f"{rank_file}: sha256 {actual} does not match the expected {sha256}; "
                "the token rank file is damaged — reinstall tether"
            )
    ranks: dict[bytes, int] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        if not line:
            continue
        try:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
        except ValueError as exc:
            raise TetherError(f"{rank_file}:{number}: expected '<base64 token> <rank>'") from exc
    return ranks


def build_encoding(spec: EncodingSpec) -> tiktoken.Encoding:
    """Construct a ``tiktoken.Encoding`` from a local rank file (no network)."""
    import tiktoken

    return tiktoken.Encoding(
        spec.name,
        pat_str=spec.pat_str,
        mergeable_ranks=read_ranks(spec.rank_file, spec.sha256),
        special_tokens=dict(spec.special_tokens),
    )


@lru_cache(maxsize=4)
def get_encoding(name: str = "o200k_base") -> tiktoken.Encoding:
    """The shipped encoding called ``name`` (cached per process)."""
    spec = SHIPPED_ENCODINGS.get(name)
    if spec is None:
        known = ", ".join(sorted(SHIPPED_ENCODINGS))
        raise TetherError(
            f"settings: tokens.encoding: unknown encoding '{name}' (expected {known})"
        )
    return build_encoding(spec)


def message_parts(message: dict[str, Any]) -> tuple[list[str], int]:
    """The texts of a message that count, and its number of images (pi's estimate rules)."""
    role = message.get("role")
    texts: list[str] = []
    images = 0
    if role in ("user", "custom", "toolResult"):
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            for block in content:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "text":
                    texts.append(str(block.get("text", "")))
                elif block.get("type") == "image":
                    images += 1
    elif role == "assistant":
        for block in message.get("content") or []:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "text":
                texts.append(str(block.get("text", "")))
            elif kind == "thinking":
                texts.append(str(block.get("thinking", "")))
            elif kind == "toolCall":
                args = json.dumps(
                    block.get("arguments", {}), ensure_ascii=False, separators=(",", ":")
                )
                texts.append(str(block.get("name", "")))
                texts.append(args)
    elif role == "bashExecution":
        texts.append(str(message.get("command", "")))
        texts.append(str(message.get("output", "")))
    elif role in ("branchSummary", "compactionSummary"):
        texts.append(str(message.get("summary", "")))
    return texts, images


def count_message(encoding: tiktoken.Encoding, message: dict[str, Any]) -> int:
    """Tokens of one agent message under ``encoding``."""
    texts, images = message_parts(message)
    return (
        sum(len(encoding.encode_ordinary(text)) for text in texts if text) + images * IMAGE_TOKENS
    )


def _read_section(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # missing or broken: load_settings reports broken files elsewhere
    tokens = data.get("tokens") if isinstance(data, dict) else None
    return tokens if isinstance(tokens, dict) else {}


def _stamp(path: Path) -> tuple[str, int, int]:
    try:
        st = path.stat()
    except OSError:
        return (str(path), -1, -1)
    return (str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _counter_settings_cached(stamps: tuple[tuple[str, int, int], ...]) -> tuple[str, str]:
    merged: dict[str, Any] = {}
    for path, _mtime, _size in stamps:
        merged.update(_read_section(Path(path)))
    return str(merged.get("counter", "chars")), str(merged.get("encoding", "o200k_base"))


def counter_settings(cwd: str | Path | None = None) -> tuple[str, str]:
    """``(tokens.counter, tokens.encoding)`` from the settings files and the environment.

    Read without pydantic (this runs on every count): global ``settings.json`` under
    ``TETHER_HOME`` (or ``~/.tether``), then ``<cwd>/.tether/settings.json``, then
    ``TETHER_TOKEN_COUNTER``. Cached per file modification time.
    """
    home = os.environ.get("TETHER_HOME")
    home_dir = Path(home).expanduser() if home else Path.home() / ".tether"
    project = Path(cwd or os.getcwd()) / ".tether" / "settings.json"
    paths = [home_dir / "settings.json"]
    if project != paths[0]:
        paths.append(project)
    counter, encoding = _counter_settings_cached(tuple(_stamp(p) for p in paths))
    return os.environ.get("TETHER_TOKEN_COUNTER") or counter, encoding


@hookimpl
def count_tokens(messages: list[dict[str, Any]], model: dict[str, Any] | None) -> list[int] | None:
    """Exact token counts when ``tokens.counter == "tiktoken"``; otherwise pass."""
    counter, encoding_name = counter_settings()
    if counter != "tiktoken":
        return None
    encoding = get_encoding(encoding_name)
    return [count_message(encoding, message) for message in messages]


__all__ = [
    "IMAGE_TOKENS",
    "SHIPPED_ENCODINGS",
    "EncodingSpec",
    "build_encoding",
    "count_message",
    "count_tokens",
    "counter_settings",
    "get_encoding",
    "message_parts",
    "read_ranks",
]
