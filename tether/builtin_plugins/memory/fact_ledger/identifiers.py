"""Identifier shapes in a sentence: ticket ids, version pins, paths, environment variables,
flags, URLs, images, hosts and ports, assignments, versions — each with the subject a later
value of it replaces (``pin:numpy``, ``host:db-#.internal:5432``; "" when never replaced), and
exact strings (:mod:`.exact`) kept whole. A clock time is no host and port (:mod:`.clock`), a
rate's unit ("25 km/h") no path."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tether.builtin_plugins.memory.fact_ledger.clock import CLOCK
from tether.builtin_plugins.memory.fact_ledger.exact import exact_spans
from tether.builtin_plugins.memory.fact_ledger.words import alternation, latin_view

_EXTENSIONS = alternation("file_extensions")
_IDENTIFIERS = re.compile(
    r"(?P<url>(?<![\w/])[a-z][a-z0-9+.-]*://[^\s,;'\"<>()，；。、]+)"
    r"|(?P<header>(?<![\w-])(?:X-[A-Za-z][\w-]*[A-Za-z\d]|[A-Z][a-z]+(?:-[A-Z][a-z]+)*-(?:Key|Id|ID"
    r"|Type|Token|Length|Encoding|Control|Agent|Version|Signature|Origin|Auth\w*))(?![\w-])"
    r"|\bSIG[A-Z]{2,}\b)"  # an HTTP header (X-Request-Id, Idempotency-Key), a signal
    r"|(?P<arn>(?<![\w:])arn:[\w-]+:[\w-]*:[\w-]*:\d*:[\w/.:+=@-]*[\w/*])"  # AWS resource
    r"|(?P<winpath>(?<![\w\\%])(?:[A-Za-z]:|%[A-Za-z_]\w*%|HK(?:LM|CU|CR|U|CC)|\\\\[\w.-]+)"
    r"(?:\\[\w.$@{}+~()-]+(?: [\w.$@{}+~()-]+)*(?=\\))*"  # "\Program Files" inside it
    r"\\[\w.$@{}+~-]*[\w$@}]\\?|(?<![\w%])%[A-Za-z_]\w*%)"  # C:\x, %APPDATA%\y, HKLM\z
    r"|(?P<ticket>(?<![\w/])[A-Z][A-Z0-9]{1,9}-\d{1,6}(?![\w-])"
    r"|\b(?:PR|MR|[Pp]ull [Rr]equest|[Ii]ssue|[Tt]icket|[Bb]ug|[Cc]ase)\s?[#!]\d{1,7}\b"  # PR #318
    r"|(?<![\w#&!])#\d{3,7}(?![\w-]))"  # "#4521": a number of a tracker
    r"|(?P<pin>(?<![\w/])[A-Za-z][\w.\-]*(?:==|>=|<=|~=|!=|@\^?|@~)v?\d+(?:\.[\w*]+)*)"
    r"|(?P<define>(?<![\w-])-D[A-Za-z_]\w*(?:=[^\s,;'\"`，；。、]+)?)"  # -DNAME=VALUE
    r"|(?P<scoped>(?<![\w.])[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*\.[A-Z][A-Z0-9]*_[A-Z0-9_]+\b)"
    r"|(?P<env>(?<![\w$])\$?\{?[A-Z][A-Z0-9]*_[A-Za-z0-9_]+\}?(?![\w}/])(?:=[^\s,;'\"`，；。、]+)?)"
    r"|(?P<flag>(?<![\w-])--[a-z][\w-]*(?:\.[\w-]+)+(?:=[^\s,;'\"`，；。、]+)?"  # --a.b.c=x
    r"|(?<![\w-])--[a-z][\w-]+(?:=[^\s,;'\"`，；。、]+| \d[\w.]*)?)"
    r"|(?P<coord>(?<![\w/.:-])[a-z][\w-]*(?:\.[\w-]+)+:[\w.-]+:v?\d[\w.-]*(?![\w.-]))"
    r"|(?P<sha>(?<![\w/.-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-]))"
    r"|(?P<keypattern>(?<![\w/.:-])[a-z][\w-]*(?::[\w{}-]+)+:(?![\w{])"  # lb:v2:{season}:
    r"|(?<![\w/.:-])[a-z][\w-]*:[\w-]*\{[\w-]+\}[\w-]*(?::[\w{}-]+)*(?![\w{]))"  # user:{id}:x
    r"|(?P<image>(?<![\w/.:-])[a-z][\w.-]*(?:/[\w.-]+)*:(?!\d+(?![\w-]|\.\w))(?=[\w.-]*\d)\w[\w.-]*)"
    r"|(?P<hostport>(?<![\w.:-])(?!" + CLOCK + r")[\w][\w.-]*:\d{2,5}(?![\w]))"
    r"|(?P<assign>(?<![\w.-])[A-Za-z_][\w.-]*=[^\s,;'\"`，；。、]+)"
    r"|(?P<ip>(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)"
    r"(?:/\d{1,2})?(?![\w-]|\.\d))"  # 10.20.0.5, a subnet 10.44.0.0/24: no version
    r"|(?P<version>(?<![\w.])v?\d+\.\d+(?:\.\d+)+(?:[-+][\w.]+)?(?![\w])"
    r"|(?<=[A-Za-z] )\d+\.\d+(?![\w]|\.\d|\s?(?:[A-Za-z]{1,3}/[A-Za-z]{1,3}|[kMG]?Hz)\b))"
    r"|(?P<path>(?:(?<![\w@$])\$\{?[A-Za-z_]\w*\}?(?:/[\w.@+-]+)+"  # ${DATA_DIR}/raw
    r"|(?<![\w@$])(?:~|\.{1,2})?/?(?:[\w.@+-]+/)+[\w.@+-]+"
    r"|(?<![\w/])[\w-]+\.(?:" + _EXTENSIONS + r")(?![\w]))"
    r"(?::\d{1,6}(?::\d{1,4})?(?![\w:]|\.\w))?)"
)
_MAYBE_IDENTIFIER = re.compile(
    r"[\d/=@$~\\]|--|[A-Z]_|[a-z]\.[a-z]|-D[A-Z]|%\w+%|[a-z]-[A-Z]|X-|SIG|[a-z]:[a-z{]"
)


_NAMED = re.compile(r"([A-Za-z][\w+.-]*)[^A-Za-z0-9]{0,12}$")
_NAMED_TO = re.compile(r"([A-Za-z][\w+.-]*)\s+(?:to|at|on)\s+v?$")  # "pin Node to 18.19.0"
_NOT_NAMES = frozenset(
    "to at is on from of v version set use pin lock the a and or it "
    "bump upgrade downgrade update move switch go change revert raise lower make".split()
)  # a verb of change before a version is no name: "bump to 7.0.12"


def _subject(kind: str, token: str, before: str = "") -> str:
    if kind == "version":  # "node 版本锁 18.19.0", "Python 3.10": the name before it
        named = _NAMED.search(before[-24:])
        name = named.group(1).lower() if named else ""
        if name in _NOT_NAMES and (named := _NAMED_TO.search(before[-32:])):
            name = named.group(1).lower()
        return f"version:{name}" if name and name not in _NOT_NAMES else ""
    if kind == "pin":
        return "pin:" + re.split(r"==|>=|<=|~=|!=|@", token, maxsplit=1)[0].lower()
    if kind == "coord":  # com.android.tools.build:gradle:8.2.1 → …:gradle:8.3.0
        return "pin:" + token.rsplit(":", 1)[0].lower()
    if kind == "define":  # -DNAME=1 and -DNAME=2 set one thing
        return "set:" + token[2:].split("=", 1)[0].lower()
    if kind in ("env", "assign") and "=" in token:
        return "set:" + token.split("=", 1)[0].strip("${}").lower()
    if kind == "flag" and ("=" in token or " " in token):
        return "flag:" + re.split(r"[= ]", token, maxsplit=1)[0]
    if kind == "url":  # https://sandbox.example.com/v1 → https://api.example.com/v2
        parts = token.split("://", 1)[1].split("/")
        return "url:" + host_role(parts[0]) + "/" + re.sub(r"\d+", "#", "/".join(parts[1:2]))
    if kind == "keypattern":  # lb:season: → lb:v2:{season}: (a store's key prefix)
        return "keys:" + token.split(":", 1)[0]
    if kind == "image":  # postgres:15-alpine → postgres:16-alpine
        return "image:" + token.split(":", 1)[0].lower()
    if kind == "hostport":  # db-stage-1.internal:5432 → db-stage-3.internal:5432
        host, port = token.rsplit(":", 1)
        return f"host:{host_role(host)}:{port}"
    return ""


_IP = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")


def host_role(host: str) -> str:
    """What a host is for, as far as its name tells: digits aside (``db-stage-1.internal``
    and ``db-stage-3.internal`` fill one role, ``db-main`` and ``db-replica`` two); any IP
    address is one role."""
    host = host.casefold()
    return "ip" if _IP.match(host) else re.sub(r"\d+", "#", host)


_RATE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?[A-Za-z]{1,5}/[A-Za-z]{1,3}$")


def identifier_spans(sentence: str) -> list[tuple[int, int, str, str]]:
    """``(start, end, kind, subject)`` of each identifier shape in ``sentence``."""
    if not _MAYBE_IDENTIFIER.search(sentence):
        return []
    out = []
    for match in _IDENTIFIERS.finditer(latin_view(sentence)):
        kind = match.lastgroup or ""
        token = match.group(0).rstrip(".,:;)")
        if kind == "path" and (token.count("/") == 0 and "." not in token or len(token) < 4):
            continue
        if kind == "env" and "_" not in token:
            continue
        if kind == "path" and _RATE.search(sentence, 0, match.start() + len(token)):
            continue  # "25 km/h", "5 MB/s": the unit of a rate, no path
        start, end = match.start(), match.start() + len(token)
        out.append((start, end, kind, _subject(kind, token, sentence[:start])))
    return out


def identifiers(sentence: str) -> Iterator[tuple[str, str]]:
    """``(text, subject)`` of each identifier in ``sentence`` (subject "" = never replaced);
    two written with one space between (``shopspring/decimal v1.3.1``) are one identifier, and
    an exact string (:mod:`.exact`: inline code, an error line, a command line) is one whole,
    with the subject of the first identifier shape inside it."""
    spans = [(a, b, subject) for a, b, _kind, subject in identifier_spans(sentence)]
    spans += [(a, b, "") for a, b in exact_spans(sentence)]
    found: list[tuple[int, int, str]] = []  # start, end, subject
    for start, end, subject in sorted(spans, key=lambda s: (s[0], -s[1])):
        if found and start < found[-1][1]:  # inside (or across) the one before
            first, last, before = found.pop()
            start, end, subject = first, max(end, last), before or subject
        elif found and sentence[found[-1][1] : start] == " ":
            first, _, before = found.pop()
            start, subject = first, subject or before
        found.append((start, end, subject))
    for start, end, subject in found:
        yield sentence[start:end], subject


__all__ = ["host_role", "identifier_spans", "identifiers"]
