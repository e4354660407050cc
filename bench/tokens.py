"""How far pi's chars/4 estimate is from a real tokenizer, per kind of content.

Reads the pi fixture sessions (tests/fixtures/pi/gen/*.jsonl by default), splits every message
into the text pieces that the estimate counts (text, thinking, tool-call name and arguments,
bash command/output, summaries), classifies each piece as English prose, code, JSON or CJK
(heuristics below), and prints per kind: pieces, chars/4 tokens, tiktoken tokens, the ratio
estimate / tiktoken overall, and the median, 10th and 90th percentile of per-piece ratios.
A ratio below 1 means chars/4 undercounts (the context is fuller than pi believes).

    python bench/tokens.py [--encoding o200k_base|cl100k_base] [FILES...]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from tether.builtin_plugins.memory.tiktoken_counter import IMAGE_TOKENS, get_encoding, message_parts
from tether.builtin_plugins.storage.format.jscompat import js_len

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_GLOB = "tests/fixtures/pi/gen/*.jsonl"

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]")
_CODE_HINTS = re.compile(
    r"```|^\s*(def|class|import|from|return|const|let|var|function|if|for|while)\b|[;{}]\s*$"
    r"|=>|::|\b\w+\([^)]*\)|^\s{4,}\S",
    re.MULTILINE,
)
KINDS = ("prose", "code", "json", "cjk")


def classify(text: str, *, is_arguments: bool = False) -> str:
    """``cjk`` if ≥ 25 % CJK characters, ``json`` if it parses as an object/array, ``code``
    if ≥ 30 % of its lines look like code, else ``prose``."""
    letters = sum(1 for ch in text if not ch.isspace()) or 1
    if len(_CJK.findall(text)) / letters >= 0.25:
        return "cjk"
    stripped = text.strip()
    if is_arguments or stripped[:1] in ("{", "["):
        try:
            json.loads(stripped)
            return "json"
        except ValueError:
            pass
    lines = [line for line in text.splitlines() if line.strip()] or [text]
    code_lines = sum(1 for line in lines if _CODE_HINTS.search(line))
    return "code" if code_lines / len(lines) >= 0.3 else "prose"


def _messages(path: Path):
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("message"), dict):
            yield entry["message"]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--encoding", default="o200k_base")
    args = parser.parse_args(argv)
    files = args.files or sorted(ROOT.glob(DEFAULT_GLOB))
    encoding = get_encoding(args.encoding)

    estimate: dict[str, int] = defaultdict(int)
    exact: dict[str, int] = defaultdict(int)
    ratios: dict[str, list[float]] = defaultdict(list)
    role_estimate: dict[str, int] = defaultdict(int)
    role_exact: dict[str, int] = defaultdict(int)
    images = 0
    for path in files:
        for message in _messages(path):
            texts, image_count = message_parts(message)
            images += image_count
            role = str(message.get("role"))
            is_call = message.get("role") == "assistant"
            for text in texts:
                if not text:
                    continue
                kind = classify(text, is_arguments=is_call and text[:1] in "{[")
                chars4 = math.ceil(js_len(text) / 4)
                tokens = len(encoding.encode_ordinary(text))
                estimate[kind] += chars4
                exact[kind] += tokens
                role_estimate[role] += chars4
                role_exact[role] += tokens
                if tokens >= 8:  # per-piece ratios of tiny pieces are noise
                    ratios[kind].append(chars4 / tokens)

    print(f"{len(files)} sessions, encoding {args.encoding}; ratio = chars/4 ÷ tiktoken")
    header = f"{'kind':<8}{'pieces':>8}{'chars/4':>10}{'tiktoken':>10}{'ratio':>8}"
    print(header + f"{'median':>8}{'p10':>7}{'p90':>7}")
    for kind in KINDS:
        if not exact[kind]:
            print(f"{kind:<8}{0:>8}")
            continue
        values = ratios[kind] or [estimate[kind] / exact[kind]]
        print(
            f"{kind:<8}{len(ratios[kind]):>8}{estimate[kind]:>10}{exact[kind]:>10}"
            f"{estimate[kind] / exact[kind]:>8.2f}{statistics.median(values):>8.2f}"
            f"{_percentile(values, 0.1):>7.2f}{_percentile(values, 0.9):>7.2f}"
        )
    total_est, total_exact = sum(estimate.values()), sum(exact.values())
    if total_exact:
        print(f"{'all':<8}{'':>8}{total_est:>10}{total_exact:>10}{total_est / total_exact:>8.2f}")
    print("\nper role (text only):")
    for role in sorted(role_exact):
        if role_exact[role]:
            print(
                f"  {role:<18}{role_estimate[role]:>10}{role_exact[role]:>10}"
                f"{role_estimate[role] / role_exact[role]:>8.2f}"
            )
    print(f"images: {images} (both count {IMAGE_TOKENS} tokens each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
