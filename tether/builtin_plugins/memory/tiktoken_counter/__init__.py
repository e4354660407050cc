"""Built-in plugin ``tiktoken_counter``: exact BPE token counts instead of pi's chars/4.

The token counter ``tiktoken``: chosen with the setting ``tokens.counter`` (or
``TETHER_TOKEN_COUNTER=tiktoken``, or ``--counter tiktoken``).

Works offline: the BPE rank files of ``o200k_base`` and ``cl100k_base`` ship in
``tether/builtin_plugins/data/`` and are checked against their published sha256 before use
(tiktoken would otherwise download them on first use). ``tokens.encoding`` picks one.

Per message it counts the same parts as pi's estimate (text, thinking, tool-call name plus
compact JSON arguments, bash command and output, summary text) and 1200 tokens per image —
including images in user messages, which pi's estimate ignores.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tether import TetherError
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


def encoding_setting() -> str:
    """The setting ``tokens.encoding`` (default ``o200k_base``), read without pydantic."""
    from tether import peek_setting

    return str(peek_setting("tokens", "encoding") or "o200k_base")


def count_tokens(messages: list[dict[str, Any]], model: dict[str, Any] | None) -> list[int]:
    """The ``tiktoken`` counter: exact token counts in the ``tokens.encoding`` encoding."""
    encoding = get_encoding(encoding_setting())
    return [count_message(encoding, message) for message in messages]


@hookimpl
def register_token_counters(register: Any) -> None:
    register("tiktoken", count_tokens)


__all__ = [
    "IMAGE_TOKENS",
    "SHIPPED_ENCODINGS",
    "EncodingSpec",
    "build_encoding",
    "count_message",
    "count_tokens",
    "encoding_setting",
    "get_encoding",
    "message_parts",
    "read_ranks",
    "register_token_counters",
]
