"""Retiring what a key given another value of its shape changes (:mod:`.keyshape`), and
the other ways one value takes another's place whatever the words: a bare rename ("can we
call it `b.c_d` instead?") changed again by its key or its namespace, taken back ("let's not
rename it after all") or reverted to the first value; a swap in so many words ("from A to
B", "A → B", "别用 A 了，用 B"); a replacement said after its reason ("v2.3.4 has the bug, go
v2.4.0", :func:`reasoned`). The goal stays verbatim; :func:`goal_changes` names its values
changed since (a value changed twice: only the last; a file it names moved elsewhere:
:func:`moved`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.keeps import kept_as_is
from tether.builtin_plugins.memory.fact_ledger.keyshape import (
    _GENERIC,
    _NAMES,
    DISTINCT,
    Keyed,
    _comparable,
    _form,
    _said,
    _template,
    keyed_values,
    reshaped,
)
from tether.builtin_plugins.memory.fact_ledger.nowvalue import now_pairs
from tether.builtin_plugins.memory.fact_ledger.partial import other_topic, qualified_elsewhere
from tether.builtin_plugins.memory.fact_ledger.reasoned import reasoned
from tether.builtin_plugins.memory.fact_ledger.refile import as_rule
from tether.builtin_plugins.memory.fact_ledger.words import WIDE, negated


class Ledger(Protocol):
    """What this module needs of :class:`~.ledger.Ledger`."""

    facts: list[Fact]

    def replaced(self, fact: Fact) -> list[Fact]: ...

    def goal(self) -> Fact | None: ...


#: A cue that a value is given anew, though no key is said ("call it X", "叫 X").
_RENAMING = re.compile(
    r"\b(?:call(?:ed)? it|name it|rename(?:d)?(?:\s+\w+){0,3}\s+to|instead"
    r"|register(?:ed)?(?: it)? as|(?:id|idname|name) to)\b"
    r"|叫它?|改名|命名为|重命名|改叫|名字用|注册为",
    re.IGNORECASE,
)
MAX_EARLIER = 250


def _bare(k: Keyed) -> bool:
    return not (k.key - _GENERIC or k.tail)


def _space(k: Keyed) -> str:
    """A dotted id's namespace (``export_scene`` of ``export_scene.batch``)."""
    return k.value.split(".", 1)[0].casefold()


def renamed(new: str, old: str, cues: Cues | None = None) -> list[tuple[str, str]]:
    """A value of a distinctive shape given in place of one ``old`` states: with a renaming
    or change cue and no key of its own, in the exact form ("can we call it `b.c_d`
    instead?"); a route template across scripts or with a cue; a dotted id in the namespace
    of a bare one ``old`` named ("… `export_x.batch` instead?" → "`export_x.batch_all`")."""
    cued = bool(_RENAMING.search(new) or (cues is not None and cues.has("change", new)))
    across = bool(WIDE.search(new)) != bool(WIDE.search(old))
    out = []
    for n in keyed_values(new, cues):
        if n.shape not in DISTINCT or _said(n.value, old):
            continue
        keyed = bool(n.key - _GENERIC or n.tail) and not across and not _template(n)
        for o in keyed_values(old, cues):
            if o.shape != n.shape or _said(o.value, new):
                continue
            spaced = n.shape == "dotted" and _bare(o) and _space(n) == _space(o)
            templates = _template(o) and _template(n)
            if spaced or (
                (cued or (across and templates)) and not keyed and (o.form == n.form or templates)
            ):
                out.append((o.value, n.value))
                break
    return out


_NAMING = re.compile(
    r"\b(?:renam\w*|the (?:new )?name|call(?:ing)? it|naming)\b|改名|重命名|名字|命名|叫",
    re.IGNORECASE,
)
_UNDO = re.compile(
    r"\b(?:no|not|don'?t|never ?mind|forget|scratch|drop|skip|undo|revert|keep)\b"
    r"|[不别]|算了|取消|还是",
    re.IGNORECASE,
)


def unrenamed(new: str, old: str, cues: Cues | None = None) -> list[tuple[str, str]]:
    """``new`` takes back a rename and names no value ("let's not rename it after all",
    "名字还是不改了"): the bare value ``old`` named instead (:func:`renamed`) is retired."""
    if not (_NAMING.search(new) and _UNDO.search(new)) or not _RENAMING.search(old):
        return []
    if any(k.shape in DISTINCT for k in keyed_values(new, cues)):
        return []
    for k in keyed_values(old, cues):
        if k.shape in DISTINCT and not (k.key - _GENERIC or k.tail):
            return [(k.value, "")]
    return []


_KINDS = ("constraint", "decision", "request")
_RULES = ("constraint", "decision")


def _may_change(text: str, cues: Cues) -> bool:
    return bool(keyed_values(text, cues) or _SWAP.search(text) or _NAMING.search(text))


def retire_reshaped(
    ledger: Ledger, source: str, cues: Cues, retire: Callable[[Fact, Fact, str], None]
) -> None:
    """Retire the earlier rules whose key a fact of message ``source`` gives another value
    (``retire(old, new, old value)``; "" keeps none of its clauses); a request doing so
    states the value in force: it becomes a constraint."""
    if not source:
        return
    news = []
    for fact in reversed(ledger.facts):
        if fact.source != source:
            break
        if fact.live and fact.kind in _KINDS and _may_change(fact.text, cues):
            news.append(fact)
    if not news:
        return
    earlier: list[Fact] = []
    for fact in reversed(ledger.facts):
        if fact.source != source and fact.live and fact.kind in _RULES and fact.source:
            earlier.append(fact)
            if len(earlier) == MAX_EARLIER:
                break
    for new in reversed(news):
        hits = [
            (old, p) for old in earlier if old.live for p in reshaped(new.text, old.text, cues)[:1]
        ]
        if not hits:
            hits = [(old, p) for old in earlier for p in _inherited(ledger, new.text, old, cues)]
        if not hits:
            hits = [(old, p) for old in earlier for p in _reverted(ledger, new.text, old, cues)]
        if not hits:
            hits = [(old, p) for old in earlier if old.live for p in unrenamed(new.text, old.text)]
            hits = hits[:1]  # the newest rename
        if not hits:  # a swap said in so many words: the old rule goes whole (its remarks too)
            hits = [
                (old, ("", b))
                for old in earlier
                if old.live and not new.replaces  # "parser 库换成 megaparsec" ended attoparsec
                for _a, b in swapped(new.text, old.text, cues)
                if not _banned(b, new.text)  # "不要用 Template Haskell" picks no Template
            ]
        if not hits:
            hits = [
                (old, p)
                for old in earlier
                if old.live
                for p in renamed(new.text, old.text, cues)[:1]
            ]
            hits = hits[:1]  # the newest one of that exact shape
        reasons = False
        if not hits:
            hits = [
                (old, p) for old in earlier if old.live for p in reasoned(new.text, old.text, cues)
            ]
            hits, reasons = hits[:1], bool(hits)
        if hits:
            as_rule(ledger, new)
        for old, (value, _new_value) in hits:
            if old.live:
                before = {f.id for f in ledger.facts}
                retire(old, new, value)
                if reasons:
                    _retire_reasons(ledger, old, value, before, new, cues, retire)


def _retire_reasons(
    ledger: Ledger,
    old: Fact,
    value: str,
    before: set[str],
    new: Fact,
    cues: Cues,
    retire: Callable[[Fact, Fact, str], None],
) -> None:
    """The clauses kept of ``old`` that state another value of ``value``'s shape were its
    reasons ("t3.large is burstable" beside "go m6i.large"): they retire with it."""
    shapes = {k.shape for k in keyed_values(old.text, cues) if k.value == value}
    for fact in ledger.facts:
        if fact.id in before or not fact.live or fact.source != old.source:
            continue
        if any(k.shape in shapes for k in keyed_values(fact.text, cues)):
            retire(fact, new, "")


_NAME = r"([A-Za-z][\w.+#/:-]*[\w+#/])"
#: One value swapped for another in so many words: "from A to B", "replace A with B", "swap A
#: for B", "A → B", "A 换成 B".
_SWAP = re.compile(
    rf"\b(?:switch|switched|move|moved|migrate|migrated|change|changed|go|going|port)\b"
    rf"[^.;]{{0,40}}?\bfrom\s+{_NAME}\s+(?:to|over to)\s+{_NAME}"
    rf"|\b(?:replace|swap|trade)\s+{_NAME}\s+(?:with|for|by)\s+{_NAME}"
    rf"|(?<![\w.-]){_NAME}\s*(?:→|->|=>|换成|改成|改为|替换为|替换成|换为|换)\s*{_NAME}",
    re.IGNORECASE,
)
#: Kinds of cue with which a sentence naming an old value and stating a new one changes it.
_CHANGING = ("change", "soft_change", "revoke", "discard", "replaces", "gone")
_DROPPED = re.compile(r"[别不]要?再?用|停用|弃用|太慢|不行|有问题")


_USED = r"(?:\b(?:use|using|uses|with|via|is|are|be)\s+(?:the\s+)?|[:=]\s*)"


def _stated(value: str, text: str, cues: Cues | None) -> bool:
    """Whether ``text`` states ``value`` as a value (one of its keyed values, or after "use",
    "with", "is"…), not only a word of it ("upload → resize" retires no rule on uploads)."""
    if any(k.value.casefold() == value.casefold() for k in keyed_values(text, cues)):
        return True
    return re.search(_USED + re.escape(value) + r"(?![\w-])", text, re.IGNORECASE) is not None


def swapped(new: str, old: str, cues: Cues | None = None) -> list[tuple[str, str]]:
    """``(old value, new value)``: ``new`` swaps a value ``old`` states for another, in so
    many words (:data:`_SWAP`), or — in a CJK sentence with a change cue — names it beside
    a new value of its kind ("别用 openpyxl 了，用 calamine")."""
    out = []
    for match in _SWAP.finditer(new):
        a, b = [g for g in match.groups() if g][:2]
        if _form(a) == _form(b) and _stated(a, old, cues) and not _said(b, old):
            out.append((a, b))  # one kind of name: "oncall-pager" → "SRE" is no swap
    if out or cues is None or not WIDE.search(new):
        return out
    if not (_DROPPED.search(new) or any(cues.has(kind, new) for kind in _CHANGING)):
        return []
    if other_topic(new, old):
        return []  # "窗帘电机那个…不走 MQTT 了": the curtain motor's way, not the broker
    mine = keyed_values(new, cues)
    replaced = cues.find("replaces", new)  # "用 picamera2 而不是 OpenCV": OpenCV goes, not
    gone = _CLAUSES.split(new[replaced[1] :])[0] if replaced else new  # a name of the reason
    for o in keyed_values(old, cues):  # not "未压缩的 vcf" of "raw VCF": another thing
        if kept_as_is(new, o.value) or o.value not in gone:  # "打点的 topic 保持不变" stays
            continue
        if o.shape in _NAMES and _said(o.value, new) and not qualified_elsewhere(new, o.value, old):
            for n in mine:
                if n.shape in _NAMES and n.form == o.form and not _said(n.value, old):
                    return [(o.value, n.value)]
    return []


_CLAUSES = re.compile(r"[,;，；。！？!?]")


def _banned(value: str, text: str) -> bool:
    """Whether ``value`` stands in a prohibiting clause of ``text`` ("不要用 Template
    Haskell"; not calamine in "别用 openpyxl 了，用 calamine")."""
    return any(value in clause and negated(clause) for clause in _CLAUSES.split(text))


def _inherited(ledger: Ledger, new: str, old: Fact, cues: Cues | None) -> list[tuple[str, str]]:
    """``old`` states a value with no key of its own that took the place of one of an earlier
    fact or the goal ("can we call it `b.c_d` instead?" after `a.c_d`): ``new``, giving
    that key another value, changes ``old``'s value too (a value changed twice)."""
    if not old.live:
        return []
    bare = [k for k in keyed_values(old.text, cues) if not k.key and not k.tail]
    if not bare:
        return []
    priors = ledger.replaced(old)
    goal = ledger.goal()
    if goal is not None and goal.source != old.source:
        priors.append(goal)
    for prior in priors:
        said = {k.value: k for k in keyed_values(prior.text, cues)}
        for was, now in reshaped(new, prior.text, cues):
            for k in bare:
                if (
                    k.value not in (was, now)
                    and k.form == said[was].form
                    and not _said(now, old.text)
                ):
                    return [(k.value, now)]
    return []


def _reverted(ledger: Ledger, new: str, old: Fact, cues: Cues | None) -> list[tuple[str, str]]:
    """``new`` goes back to a value that ``old`` took the place of ("keep `a.b_c` after all"
    after "can we call it `d.e_f` instead?" renamed the goal's `a.b_c`): ``old``'s value is
    retired."""
    if not old.live:
        return []
    priors = ledger.replaced(old)
    goal = ledger.goal()
    if goal is not None and goal.source != old.source and renamed(old.text, goal.text, cues):
        priors.append(goal)
    mine = [k for k in keyed_values(old.text, cues) if k.shape in DISTINCT]
    for k in keyed_values(new, cues):
        if k.shape not in DISTINCT or _said(k.value, old.text):
            continue
        if any(_said(k.value, prior.text) for prior in priors):
            for o in mine:
                if o.shape == k.shape and not _said(o.value, new):
                    return [(o.value, k.value)]
    return []


def goal_changes(ledger: Ledger, cues: Cues | None = None) -> dict[str, str]:
    """``{old value: newest value}`` for the goal's values later rules gave another one
    (through a chain of changes: A → B → C gives A → C)."""
    goal = ledger.goal()
    if goal is None:
        return {}
    out: dict[str, str] = {}
    for fact in ledger.facts:
        if not fact.live or fact.kind not in _RULES or fact.source == goal.source:
            continue
        changed = reshaped(fact.text, goal.text, cues) + moved(fact.text, goal.text, cues)
        for old, new in changed + now_pairs(fact.text, goal.text, cues):  # "X is Y now"
            out[old] = new
        for earlier in ledger.replaced(fact):
            for old, between in reshaped(earlier.text, goal.text, cues):
                latest = _latest(fact.text, earlier.text, between, cues)
                if latest:
                    out[old] = latest
    return out


_FILE_PATH = re.compile(r"(?<![\w@:/.-])(?:~|\.{1,2})?(?:/[\w.@+-]+)+")


def _path_kind(path: str) -> str:
    """A path's kind of thing: its file extension, else its last segment (a directory)."""
    last = path.rstrip("/").rsplit("/", 1)[-1]
    ext = last.rsplit(".", 1)[-1] if "." in last.strip(".") else ""
    return f".{ext}".casefold() if ext else last.casefold()


def moved(new: str, old: str, cues: Cues | None) -> list[tuple[str, str]]:
    """``(old path, new path)``: ``new``, with a change cue, names a path of the kind of the
    one path of that kind ``old`` names (a file of its extension, a directory of its name)
    — "数据库换成 /mnt/nas/dw/orders_v2.duckdb" after "库文件是 /data/dw/orders.duckdb"."""
    if cues is None or not any(cues.has(kind, new) for kind in ("change", "soft_change")):
        return []
    out = []
    theirs = [m.group(0) for m in _FILE_PATH.finditer(old)]
    for path in (m.group(0) for m in _FILE_PATH.finditer(new)):
        kind = _path_kind(path)
        same = [p for p in theirs if _path_kind(p) == kind and p != path]
        if len(same) == 1 and path not in old and not _said(same[0], new):
            out.append((same[0], path))
    return out


def _latest(text: str, earlier: str, between: str, cues: Cues | None) -> str:
    """The value of ``text`` that took the place of ``between`` (said by ``earlier``)."""
    shape = next((k for k in keyed_values(earlier, cues) if k.value == between), None)
    if shape is None:
        return ""
    for k in keyed_values(text, cues):
        if k.value != between and (k.form == shape.form or _comparable(k, shape)):
            if k.shape == shape.shape or _comparable(k, shape):
                return k.value
    return ""


__all__ = ["goal_changes", "renamed", "retire_reshaped", "swapped", "unrenamed"]
