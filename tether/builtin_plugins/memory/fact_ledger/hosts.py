"""Where a service lives, moved: a host, an IP address or a bucket given anew, whatever
words name the service ("The DB host is db-main.internal" → "point postgres at 10.0.9.20",
"数据库地址是 pg-master.local" → "postgres 搬到 10.2.3.4 了").

A location is a hostname (dotted, not a file name), an IPv4 address (a port allowed), or a
URL's scheme and host (``s3://bucket``, ``redis://cache-01``); a hostname and an IP address
are one kind. A sentence giving a location of a kind an earlier rule gives another one of
moves it when both name one subject (:mod:`.concepts`: "DB" and "postgres" name the
database) and no part or qualifier tells them apart (staging / prod, "for sessions" / "for
rate limits"); with a change cue or "now" (``cued``), when the earlier rule is the only one
of that kind (:mod:`.supersede` checks). A file moves too: the same file name in another
directory, or (with a cue) a file of its extension named like the old one's directory.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.concepts import (
    parts_differ,
    per_parts,
    subjects_differ,
)
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.implicit import distinct
from tether.builtin_plugins.memory.fact_ledger.words import FILE_END, latin_view, vocabulary

#: Last labels that make a dotted name a host ("db-main.internal", "api.example.com").
_DOMAINS = vocabulary("host_domains")
_IP = r"(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}"
_LOCATION = re.compile(
    r"(?P<url>\b(?P<scheme>[a-z][a-z0-9+]{1,10})://(?P<where>[\w.-]+))"
    rf"|(?<![\w./:@-])(?P<ip>{_IP})(?::\d{{2,5}})?(?![\w.]|\.\w)"
    r"|(?<![\w./:@-])(?P<host>[a-z][\w-]*(?:\.[a-z0-9][\w-]*)+)(?::\d{2,5})?(?![\w/-]|\.\w)",
    re.IGNORECASE,
)


def locations(text: str) -> list[tuple[str, str]]:
    """``(kind, location)`` of each location ``text`` names (kind ``host`` or ``url:s3``…)."""
    out = []
    for match in _LOCATION.finditer(latin_view(text)):
        if match.group("url"):
            out.append((f"url:{match.group('scheme').casefold()}", match.group("where")))
        elif match.group("ip"):
            out.append(("host", match.group("ip")))
        else:
            host = match.group("host")
            if FILE_END.search(host) or host.rsplit(".", 1)[-1].isdigit():
                continue  # "vault.yml", "v1.2": a file, a version
            domain = host.rsplit(".", 1)[-1].casefold()
            named = any(ch.isdigit() or ch == "-" for ch in host.split(".", 1)[0])
            if domain in _DOMAINS or named or ":" in match.group(0):
                out.append(("host", host))  # not "os.path", "node.js": a module, a name
    return out


_PATH = re.compile(
    r"(?<![\w@:/.-])(?:~/|/)?(?:[\w.@+-]+/)+([\w@+-]+)(\.[A-Za-z0-9]{1,8})(?![\w/-])"
)


def _file_moved(new: str, old: str, *, cued: bool) -> bool:
    """A file of ``old`` said at another place: the same file name in another directory
    ("group_vars/prod/vault.yml" → "inventories/prod/vault.yml"), or — with a cue — a file
    of its extension named like the old one's directory ("vault/secrets.yml" → "…/vault.yml")."""
    theirs = [m for m in _PATH.finditer(old) if FILE_END.search(m.group(0))]
    for n in (m for m in _PATH.finditer(new) if FILE_END.search(m.group(0))):
        for o in theirs:
            if n.group(0) == o.group(0) or n.group(0) in old or o.group(0) in new:
                return False  # the old path said again: a remark on it
            if n.group(1, 2) == o.group(1, 2):
                return True
            if cued and n.group(2) == o.group(2):
                dirs_new, dirs_old = n.group(0).split("/")[:-1], o.group(0).split("/")[:-1]
                if n.group(1) in dirs_old or o.group(1) in dirs_new:
                    return True
    return False


def moved(new: str, old: str, cues: Cues, *, cued: bool = False) -> bool:
    """Whether ``new`` gives a location of a kind ``old`` gives another one of, for one
    subject (or, ``cued``, any subject: the caller wants the only such rule)."""
    if _file_moved(new, old, cued=cued) and not parts_differ(new, old, cues.concepts):
        return True
    mine, theirs = locations(new), locations(old)
    if not mine or not theirs:
        return False
    said = {where.casefold() for _kind, where in theirs}
    if any(where.casefold() in said for _kind, where in mine):
        return False  # the old location said again: a remark on it, not a move
    kinds = {kind for kind, _where in mine} & {kind for kind, _where in theirs}
    concepts = cues.concepts
    if not kinds or parts_differ(new, old, concepts) or per_parts(new, old, concepts):
        return False  # staging / prod; "Staging API is X and prod API is Y"
    if subjects_differ(new, old, concepts) or distinct(new, old, cues, strict=False):
        return False  # the cache, not the API; "for sessions" / "for rate limits"
    return cued or bool(concepts.subjects(new) & concepts.subjects(old))


__all__ = ["locations", "moved"]
