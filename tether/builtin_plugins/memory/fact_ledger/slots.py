"""The values and subjects a sentence states, by shape (see :mod:`.subject`): a version pin, a
``KEY=value``, a flag with a value, a host, an IP address, a URL, a quantity with its unit, a
number after a name, a library-like name; a path, a variable's name, a ticket id, a bare flag,
a numbered part ("Module 3") are subjects, not values."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from tether.builtin_plugins.memory.fact_ledger.identifiers import host_role, identifier_spans
from tether.builtin_plugins.memory.fact_ledger.words import LATIN_W, vocabulary

_FILE_EXT = vocabulary("file_extensions")
_TLD = frozenset("com net org dev internal local svc cloud lan corp app ai cn io".split())
#: Heads too generic to say two names fill one role (``FastAPI`` / ``OpenAPI``).
_GENERIC = vocabulary("name_heads_generic")
_UNITS = {
    "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s", "秒": "s",
    "ms": "ms", "millisecond": "ms", "milliseconds": "ms", "毫秒": "ms",
    "m": "min", "min": "min", "mins": "min", "minute": "min", "minutes": "min", "分钟": "min",
    "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h", "小时": "h",
    "d": "d", "day": "d", "days": "d", "天": "d",
    "week": "week", "weeks": "week", "month": "month", "months": "month",
    "year": "year", "years": "year",
    "k": "k", "kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb", "kib": "kb", "mib": "mb",
    "gib": "gb", "兆": "mb", "%": "%", "px": "px", "rem": "rem", "em": "em",
    # counted things, one name in either language (行 is a row or a line; 条 an entry)
    "row": "line", "rows": "line", "line": "line", "lines": "line", "行": "line",
    "item": "item", "items": "item", "entry": "item", "entries": "item", "record": "item",
    "records": "item", "条": "item", "项": "item", "time": "time", "times": "time", "次": "time",
    "request": "request", "requests": "request", "req": "request",
    # kept copies by period ("7 daily snapshots", "14 dailies plus 4 weeklies")
    "hourly": "hourly", "hourlies": "hourly", "daily": "daily", "dailies": "daily",
    "weekly": "weekly", "weeklies": "weekly", "monthly": "monthly", "monthlies": "monthly",
    # rates and frequencies ("30 Hz", "0.8 m/s", "60 fps", "3000 rpm", "50 赫兹")
    "hz": "hz", "khz": "khz", "mhz": "mhz", "ghz": "ghz", "赫兹": "hz", "fps": "fps",
    "rpm": "rpm", "m/s": "m/s", "km/h": "km/h", "kmh": "km/h", "mph": "mph",
    # money, by its code or its sign ("20 USD" / "$25", "40 EUR" / "€40")
    "usd": "usd", "dollars": "usd", "eur": "eur", "euros": "eur", "gbp": "gbp",
    "pounds": "gbp", "jpy": "jpy", "yen": "jpy",
}  # fmt: skip
_CURRENCY = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy"}
WORD_STOP = vocabulary("slot_stop")
_QTY = re.compile(
    rf"(?<!{LATIN_W})(?<!\.)(\d+(?:\.\d+)?)(?:(\s?|-)(%|[a-zA-Z]{{1,12}}(?:/[a-zA-Z]{{1,3}})?\b)|\s?(分钟|小时|毫秒|赫兹|[个条行次秒天年月周页位台人件张元块倍层字兆份组批项列]))"
)
#: An amount after its currency sign: "$0.02", "€40", "£ 1,200.50".
_MONEY = re.compile(rf"(?<!{LATIN_W})([$€£¥])\s?\d+(?:[.,]\d+)*(?!{LATIN_W}|[.,]\d)")
#: A plain number, in scientific notation too ("dt=2.5e-5", "lr 3e-4").
_NUMBER = re.compile(
    rf"(?<!{LATIN_W})(?<![.:/-])(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?!{LATIN_W}|[%:/-]|\.\d)"
)
#: Dimensions: "256x256", "1920×1080", "3 x 3", "64x64x32".
_DIMENSIONS = re.compile(
    rf"(?<!{LATIN_W})(?<![.:/-])\d+(?:\s?[x×]\s?\d+){{1,2}}(?!{LATIN_W}|[.:/-]\d)"
)
_IP = re.compile(rf"(?<!{LATIN_W})(?<!\.)\d{{1,3}}(?:\.\d{{1,3}}){{3}}(?!{LATIN_W}|\.)")
_DOTTED = re.compile(r"(?<![\w.@/-])[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)+(?![\w-]|\.\w)")
_CAMEL = re.compile(
    r"(?<![\w.-])[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*(?![\w-])|(?<![\w.-])[A-Z]{2,}[a-z]\w*"
)
#: A hyphenated name ("pg-bouncer", "acme-tf-state-prod", "pre-prod"), not a prefixed word
#: ("non-prod", "self-hosted", "re-run").
_HYPHENED = re.compile(
    r"(?<![\w.-])(?!(?:non|post|re|co|multi|sub|self|anti|semi|cross|well|per)-[a-z]+(?![\w-]))"
    r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])"
)
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
#: Nouns whose number says which one, not how much ("Module 3 stays frozen" / "Module 4 …":
#: two modules, two facts).
_ID_NOUNS = "module|phase|step|stage|part|section|chapter|milestone|sprint|shard|partition|epic"
_ID_NUMBER = re.compile(
    r"(?:\b(?:number|no\.|nr\.?|id|编号|第|(?:" + _ID_NOUNS + r")s?)\s*|#)(\d+)\b(?!\.\d)",
    re.IGNORECASE,
)
_NAME_BEFORE = re.compile(r"((?:[A-Za-z][\w+.-]*\s+)?[A-Za-z][\w+.-]*)\s*$")


@dataclass(frozen=True)
class Slot:
    """A value (``value``) or a subject (not ``value``) stated in a sentence, with its
    ``shape`` and, when the sentence names it, its ``key`` (same key = same subject)."""

    text: str
    shape: str
    key: str = ""
    value: bool = True
    head: str = ""  # names: the part saying what the thing is (``yaml`` in ``ruamel.yaml``)


def _head(name: str) -> str:
    parts = [p.casefold() for p in _PARTS.findall(name)]
    while parts and (parts[-1] in _GENERIC or len(parts[-1]) < 3 or parts[-1].isdigit()):
        parts.pop()
    if not parts:
        return ""
    return parts[-1] if len(parts) > 1 or "." in name or "-" in name else ""


def _identifier_slot(token: str, kind: str, subject: str) -> Slot:
    if kind == "ticket":
        return Slot(token, "ticket", value=False)
    if kind == "env" and "=" not in token:
        return Slot(token, "env", value=False)
    if kind == "flag" and not subject:
        return Slot(token, "flag", value=False)
    if kind == "path":
        if "/" in token:  # key: its base name (the same file moved is one subject)
            return Slot(token, "path", "path:" + token.rstrip("/").rsplit("/", 1)[-1], False)
        return Slot(token, "file", value=False, head=_head(token))
    if kind == "version":
        return Slot(token, "num", subject)
    shape = {"env": "set", "assign": "set", "hostport": "host", "image": "image"}.get(kind, kind)
    return Slot(token, shape, subject)


def _taken(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < b and a < end for a, b in spans)


@lru_cache(maxsize=1024)
def slots(text: str) -> tuple[Slot, ...]:
    """The values and subjects ``text`` states, left to right."""
    found: list[tuple[int, int, Slot]] = []
    spans: list[tuple[int, int]] = []

    def add(start: int, end: int, slot: Slot) -> None:
        if not _taken(spans, start, end):
            found.append((start, end, slot))
            spans.append((start, end))

    for start, end, kind, subject in identifier_spans(text):
        add(start, end, _identifier_slot(text[start:end], kind, subject))
    for match in _IP.finditer(text):
        add(match.start(), match.end(), Slot(match.group(0), "ip"))
    for match in _DOTTED.finditer(text):
        token = match.group(0)
        labels = token.casefold().split(".")
        if min(len(label) for label in labels) < 2:
            continue  # e.g., i.e.
        if labels[-1] in _TLD and (len(labels) > 2 or labels[-1] not in _FILE_EXT):
            add(match.start(), match.end(), Slot(token, "host", "host:" + host_role(token)))
        else:
            add(match.start(), match.end(), Slot(token, "name", head=_head(token)))
    for pattern in (_CAMEL, _HYPHENED):
        for match in pattern.finditer(text):
            token = match.group(0)
            add(match.start(), match.end(), Slot(token, "name", head=_head(token)))
    for match in _ID_NUMBER.finditer(text):  # "module number 3", "#12": which one, not how much
        add(match.start(1), match.end(1), Slot(match.group(1), "id", value=False))
    for match in _DIMENSIONS.finditer(text):  # "256x256", "1920×1080": one value
        add(match.start(), match.end(), Slot(match.group(0), "qty:dims"))
    for match in _MONEY.finditer(text):  # "$0.02", "€ 40": an amount of that currency
        add(match.start(), match.end(), Slot(match.group(0), "qty:" + _CURRENCY[match.group(1)]))
    for match in _QTY.finditer(text):
        unit = (match.group(3) or match.group(4) or "").casefold()
        if match.group(2) == "-" and (unit not in _UNITS or len(unit) < 2):
            continue  # "a 12-month lookback", "30-day retention"; not "3-way", "3-D", "10-K"
        if unit in _UNITS:
            unit = _UNITS[unit]
        elif "/" in unit:
            pass  # a rate of its own ("20 req/s", "5 MB/s")
        elif unit in WORD_STOP or not (match.group(4) or unit.endswith("s")):
            continue  # "3 of", "8 was": a number before a word that is no unit
        else:
            unit = unit.removesuffix("s")  # rows, workers, retries: counted things
        add(match.start(), match.end(), Slot(match.group(0), "qty:" + unit))
    for match in _NUMBER.finditer(text):
        window = max(0, match.start() - 24)
        named = _NAME_BEFORE.search(text[window : match.start()])
        name = named.group(1) if named else ""
        # "Node 20", "API level 26": a proper name before it ("Pool size 50": a capital only
        # because the sentence starts there); "module number 3" names a thing
        words = name.casefold().split()
        if len(words) == 2 and words[1] in ("to", "at"):  # "set MTU to 1500": MTU's value
            words, name = words[:1], name.split()[0]
        opening = named is not None and not text[: window + named.start(1)].strip(" \"'(")
        capital = name[1:] if opening else name
        proper = bool(words) and words[-1] not in WORD_STOP and capital != capital.casefold()
        key = "version:" + words[-1] if proper else ""
        add(match.start(), match.end(), Slot(match.group(0), "num", key))
    found.sort(key=lambda item: item[0])
    return tuple(slot for _, _, slot in found)


def counted_noun(shape: str) -> bool:
    """A quantity of counted things named by a noun (``qty:shard``, ``qty:replica``), not of
    a unit of measure (``qty:px``, ``qty:hz``, ``qty:%``)."""
    return shape.startswith("qty:") and shape[4:].isalpha() and len(shape) > len("qty:rpm")


__all__ = ["WORD_STOP", "Slot", "counted_noun", "slots"]
