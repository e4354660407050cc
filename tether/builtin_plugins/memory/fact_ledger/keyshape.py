"""A key given another value of the same shape, whatever the wording: a change.

A sentence's *keyed values* (:func:`keyed_values`) are the values it states by shape — a
version tuple ``(3, 6, 0)``, a file extension ``.csv``, a dotted id ``mesh.tidy_edges``, a
path or path template, a URL, a host, a command-line flag ``-O2``, a quantity with its
unit, an all-capitals code (``UTC``, ``GBK``, ``UTF-8``), a time zone ``Asia/Tokyo``, inline
code; in a CJK sentence any ASCII word — each with its *key*: the content words said before
it in the sentence (ASCII words without endings, CJK character pairs), filler and cue words
aside ("保持 X 不变", "还是用").

A later message that gives a key another value of the same shape changes it
(:func:`reshaped`): the two keys share a word, and neither has a word of its own that names a
part (source / target, min / max, staging / prod: :data:`CONTRAST`, the part tables of
:mod:`.concepts`); a quantity or a plain name needs one key inside the other. A change cue
with a value of a distinctive shape and no key of its own ("can we call it `b.c_d`
instead?") changes the newest earlier rule with a value of that exact shape. What a change retires,
and the goal's change notes: :mod:`.keychange`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tether.builtin_plugins.memory.fact_ledger.concepts import parts_differ
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.words import (
    ADDED,
    STOP,
    WIDE,
    WIDE_RUN,
    alternation,
    cjk_pairs,
    negated,
    vocabulary,
)

_TLD = r"(?:com|net|org|dev|io|ai|app|cloud|internal|local|lan|corp|cn|de|eu|uk|co|svc)"
#: Value shapes, most specific first (a span taken by one is not read again).
_SHAPES: tuple[tuple[str, str], ...] = (
    ("tuple", r"\(\s*\d+(?:\s*,\s*\d+){1,4}\s*\)"),
    ("url", r"(?<![\w/])[a-z][a-z0-9+.-]*://[^\s,;'\"<>()`，；。、]+"),
    ("tz", r"(?<![\w/])[A-Z][a-z]+/[A-Z][A-Za-z_]+(?![\w/])"),
    ("route", r"(?<![\w@:/])/[\w.{}<>%$:/-]*(?:/:|[{<%$])[\w.{}<>%$:/-]*[\w}>/]"),
    ("path", r"(?<![\w@:])(?:~|\.{1,2})?/?(?:[\w.@+{}<>%$:-]+/)+[\w.@+{}<>%$:-]*[\w}>/]"),
    ("host", rf"(?<![\w.@/-])[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.{_TLD}(?![\w-]|\.\w)"),
    ("file", rf"(?<![\w./-])[\w-]+\.(?:{alternation('file_extensions')})\b"),
    ("dotted", r"(?<![\w./@-])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![\w-]|\.\w)"),
    ("ext", r"(?<![\w/.-])\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w-]|\.\w)"),
    ("ip", r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?:/\d{1,2})?(?![\w]|\.\d)"),  # no version
    ("flag", r"(?<![\w./-])--?[A-Za-z][\w-]*(?:=[^\s,;'\"`]+)?(?![\w-])"),  # -O2, --jobs=4
    ("version", r"(?<![\w.])v?\d+\.\d+(?:\.\d+)*(?:[a-z]{1,5}\d{0,3})?(?![\w]|\.\d)"),  # 3.12.0rc1
    (
        "qty",
        r"(?<![\w.])\d+(?:\.\d+)?\s?(?:%|[A-Za-z]{1,8}\b|分钟|小时|毫秒|[秒天条行次个页兆])",
    ),
    ("caps", r"(?<![\w.-])[A-Z][A-Z0-9]{1,9}(?:-\d{1,2})?(?![\w-]|\.\w)"),
)
_PATTERN = re.compile("|".join(f"(?P<{name}>{regex})" for name, regex in _SHAPES))
_CODE = re.compile(r"`([^`\s]{2,80})`")
_ACKS = vocabulary("acknowledgements")  # "OK、-Fc でいきましょう": an answer, no value
_ASCII_WORD = re.compile(r"(?<![\w.-])[A-Za-z][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*")
_ASCII = re.compile(r"[a-z][a-z0-9_]*")
#: Shapes that say what they are: a shared word of the keys is enough.
DISTINCT = frozenset({"tuple", "url", "tz", "path", "host", "ip", "dotted", "ext", "code"})
#: Shapes named by an id of their own: keys that share a word are one key when the values
#: have one form ("the command is registered as `a.b_c`" / "the command id: `d.e_f`"); other
#: shapes need one key's words inside the other's ("API … api.example.com" / "docs …
#: docs.example.com": two keys).
LOOSE = frozenset({"tuple", "dotted", "code", "ext"})
#: Words that only restate a value's shape ("the upload host", "dump file naming").
_GENERIC = vocabulary("shape_words")
#: Verbs that make a file: an extension's key beside "format" ("exports the scene to .glb").
_MADE = frozenset("output export exported save saved write written render rendered".split())
#: Shapes of a plain name: any of them may replace another ("UTC" → "Asia/Tokyo").
_NAMES = frozenset({"caps", "tz", "word"})
#: Words that say how a value is set or said, not what it is of.
FILLER = vocabulary("key_filler")
#: Words that name one part of several, by group: two keys each naming another part of one
#: group (source / target, min / max, staging / prod) are two keys.
CONTRAST: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "source target src dst input output from to 源 目标 输入 输出",
        "min max minimum maximum lower upper low high floor ceiling 最小 最大 最低 最高 上限 下限",
        "read reads write writes written reader writer 读 写",
        "upload download 上传 下载",
        "inbound outbound request response ingress egress",
        "old new legacy current previous next 旧 新",
        "primary secondary replica master main backup standby 主 备",
        "dev test staging stage prod production local remote qa 开发 测试 生产 预发 本地 线上",
        "client server frontend backend 客户端 服务端 前端 后端",
        "public private internal external 内网 外网",
        "left right top bottom",
        "start end first last begin 开始 结束",
        "default fallback",
        "debug release",
        "web mobile ios android desktop",
        "linux windows mac macos",
        "unit integration e2e",
        "import export 导入 导出",
    )
)
_PART_WORDS = frozenset().union(*CONTRAST)
#: CJK words that link a key to its value, or say the value is kept or changed; and the
#: connectives that open a sentence ("另外 CI 的 image…") and demonstratives ("那个
#: upload()"), which name no key.
_CJK_LINKS = re.compile(
    r"另外|此外|还有|然后|而且|但是|不过|所以|其实|同时|那个|这个|那些|这些|一个|一下|"
    r"保持|不变|不要动|别动|还是|就用|改成|改为|换成|调到|调成|设为|设成|改到|改用|定为|统一|一律|"
    r"要求|必须|应该|需要|我们|咱们|现在|以后|的话|吧|了|的|是|为|用|到|成|给|就|也|都|先|要|请|把"
)
#: Words after which an all-capitals word is a value ("keep it in UTC", "encoding: GBK").
_LINKED = re.compile(r"(?:\b(?:is|are|be|use|using|to|as|in|with|keep|stays?)|[:=])\s*$", re.I)
#: What follows the name of a key set in place (not a port: ``db.internal:5432``).
_SETS = re.compile(r"`?\s*(?:=|[:：](?!//|\d))")
MAX_KEY_WORDS = 5
MAX_TAIL_WORDS = 3
#: Where a clause ends: punctuation, a dash, or a joining word ("and", "but", "so").
CLAUSE_END = re.compile(
    r"[,;:!?，；：。！？()（）]|\.(?:\s|$)|\s[-—–]+\s|\b(?:and|but|so|because)\b"
)
#: A path is a value set, not a file named, when it is a template or said to be a location.
_TEMPLATE = re.compile(r"[{}<>%$]|/:\w")  # {date}, <id>, %Y, $HOME, /:year/
_LOCATION = re.compile(
    r"\b(?:path|paths|dir|dirs|directory|folder|location|prefix|route|endpoint|template|naming"
    r"|name[ds]?|output|goes?|go to|written|write|save[ds]?|store[ds]?|upload(?:ed|s)?)\b"
    r"|路径|目录|文件夹|位置|地址|接口|前缀|存到|放到|写到|输出到",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Keyed:
    """One value a sentence states: its text, shape, fine shape and key words."""

    value: str
    shape: str
    form: str
    key: frozenset[str]
    start: int
    tail: frozenset[str] = frozenset()  # words after it in its clause ("on the T4 nodes")


def stem(word: str) -> str:
    """``word`` without a plural or ``-ing``/``-ed`` ending ("timeouts" → "timeout")."""
    for end in ("ing", "ed", "es", "s"):
        if len(word) > len(end) + 3 and word.endswith(end) and not word.endswith("ss"):
            return word[: -len(end)]
    return word


def _form(value: str) -> str:
    """The fine shape: each run of letters and digits as ``a`` (``mesh.tidy_edges`` →
    ``a.a_a``)."""
    return re.sub(r"[A-Za-z0-9]+", "a", value)


def key_words(said: str, cues: Cues | None, *, last: bool = True) -> frozenset[str]:
    """The content words of ``said`` (the last :data:`MAX_KEY_WORDS` of the words before a
    value, or the first few after it with ``last`` false)."""
    if WIDE.search(said):
        runs = WIDE_RUN.findall(_CJK_LINKS.sub(" ", said))
        run = "".join(runs) if last else (runs[0] if runs else "")
        cjk = frozenset(cjk_pairs(run))
        if cjk:
            return cjk
    ignored = FILLER | STOP
    if cues is not None:
        ignored = ignored | cues.words("change") | cues.words("soft_change")
    words = [w for w in _ASCII.findall(said.casefold()) if w not in ignored and len(w) > 1]
    words = words[-MAX_KEY_WORDS:] if last else words[:MAX_TAIL_WORDS]
    return frozenset(w if w in _PART_WORDS else stem(w) for w in words)


_CACHE: dict[tuple[int, str], tuple[Keyed, ...]] = {}


def keyed_values(text: str, cues: Cues | None = None) -> tuple[Keyed, ...]:
    """The values ``text`` states by shape, each with its key (memoized per text)."""
    cache_key = (id(cues), text)
    found = _CACHE.get(cache_key)
    if found is None:
        if len(_CACHE) > 8192:
            _CACHE.clear()
        found = _CACHE[cache_key] = tuple(_read(text, cues))
    return found


def _spans(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for match in _PATTERN.finditer(text):
        value = match.group(0)
        shape = match.lastgroup or ""
        if shape == "route":
            shape = "path"  # "/:slug/", "/posts/{id}": a path template of one segment
        if _SETS.match(text, match.end()):
            continue  # "batch.size=500", "draft: true": the name of a key, not a value
        if shape == "qty" and re.search(r"[A-Za-z]$", value):
            unit = re.sub(r"^[\d.\s]+", "", value).casefold()
            if unit in STOP or unit in FILLER or len(unit) > 3 and not unit.endswith("s"):
                continue  # "3 of", "8 workers" stays a count only with a plural
        if shape == "caps" and (
            len(value) < 3 or not (WIDE.search(text) or _LINKED.search(text[: match.start()]))
        ):
            continue  # "The API times out": a name of the key, not its value
        out.append((match.start(), match.end(), shape))
    for match in _CODE.finditer(text):
        a, b = match.span(1)
        if not any(s < b and a < e for s, e, _ in out) and not _SETS.match(text, b + 1):
            out.append((a, b, "code"))
    if WIDE.search(text):  # an ASCII word in a CJK sentence is a value ("时区用 UTC")
        for match in _ASCII_WORD.finditer(text):
            a, b = match.span()
            taken = any(s < b and a < e for s, e, _ in out) or _SETS.match(text, b)
            if not taken and len(match.group(0)) > 1 and match.group(0).casefold() not in _ACKS:
                out.append((a, b, "word"))
    return sorted(out)


def _read(text: str, cues: Cues | None) -> list[Keyed]:
    out: list[Keyed] = []
    at = 0
    spans = _spans(text)
    for index, (start, end, shape) in enumerate(spans):
        value = text[start:end]
        before = text[at:start]
        cut = max(before.rfind(ch) for ch in ".;!?。；！？")
        if cut >= 0 and not (
            before[cut] == "." and cut + 1 < len(before) and before[cut + 1] != " "
        ):
            before = before[cut + 1 :]
        before = _own_clause(before)
        stop = spans[index + 1][0] if index + 1 < len(spans) else len(text)
        after = CLAUSE_END.split(text[end:stop], maxsplit=1)[0]
        key, tail = key_words(before, cues), key_words(after, cues, last=False)
        named = _beside(text, spans, index, index - 1, MAX_GAP_WORDS)
        if named and out and out[-1].start == spans[index - 1][0]:
            key |= named | out[-1].key  # "服务端用 Python 3.11": the name's own key too
        tail |= _beside(text, spans, index, index + 1, MAX_GAP_WORDS - 1)
        at = end
        if shape == "path" and not (_TEMPLATE.search(value) or _LOCATION.search(before + after)):
            continue  # "Never edit migrations/0001_init.py": a file named, not a value set
        if shape == "ext":
            key = key | {"format"}  # a file extension is always a format ("exports to .glb")
        out.append(Keyed(value, shape, _form(value), key, start, tail))
    return out


MAX_GAP_WORDS = 3
MIN_OWN_KEY = 4  # "保持 UTC" names no key of its own: "日志时区不要动，" before it does
_CJK_COMMA = re.compile(r"[，、：]")
_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")


def _own_clause(before: str) -> str:
    """In a script without spaces, the clause a value ends when it names its key in
    :data:`MIN_OWN_KEY` characters or more ("…，模糊匹配用 rapidfuzz"); earlier ones are rules."""
    cuts = list(_CJK_COMMA.finditer(before))
    if not cuts:
        return before
    own = before[cuts[-1].end() :]
    return own if len(_CJK_CHAR.findall(own)) >= MIN_OWN_KEY else before


def _beside(
    text: str, spans: list[tuple[int, int, str]], at: int, other: int, gap: int
) -> frozenset[str]:
    """The value next to value ``at`` that names what it is of ("bump .nvmrc to 20.11.1",
    "put 22.3.0 in .nvmrc"): another shape, a few words away in the same clause."""
    if not 0 <= other < len(spans) or spans[other][2] == spans[at][2]:
        return frozenset()
    a, b = sorted((spans[at], spans[other]))[0][1], sorted((spans[at], spans[other]))[1][0]
    between = text[a:b]
    if CLAUSE_END.search(between) or len(between.split()) > gap:
        return frozenset()
    start, end, _shape = spans[other]
    return frozenset({text[start:end].casefold()})


def _parts(words: Iterable[str]) -> list[frozenset[str]]:
    """The :data:`CONTRAST` words ``words`` name, per group (CJK words: inside a pair)."""
    said = list(words)
    return [
        frozenset(w for w in group if any(w == x or (not w.isascii() and w in x) for x in said))
        for group in CONTRAST
    ]


def _contrasting(mine: Iterable[str], theirs: Iterable[str]) -> bool:
    """Whether the two name different parts of one group (each a part of its own)."""
    return any(a and b and a != b for a, b in zip(_parts(mine), _parts(theirs), strict=True))


def _same_head(n: Keyed, o: Keyed) -> bool:
    """Two dotted ids that differ only in their last part ("chrome.storage.sync" /
    "chrome.storage.local", read as a host for its last part), one said with no key of its
    own ("存 chrome.storage.local"): the head names the key."""
    if not {n.shape, o.shape} <= {"dotted", "host"} or (n.key and o.key):
        return False
    a, b = n.value.casefold().split("."), o.value.casefold().split(".")
    return len(a) == len(b) and a[:-1] == b[:-1]


def _same_key(n: Keyed, o: Keyed) -> bool:
    mine, theirs = n.key | n.tail, o.key | o.tail
    shared = mine & theirs
    if not shared or not (n.key & o.key or not n.key or not o.key):
        return False
    if _contrasting(mine - theirs, theirs - mine):
        return False  # "source format" / "target format": two keys
    if n.tail - theirs and o.tail - mine:
        return False  # "CUDA 12.1 on the A100 nodes" / "CUDA 11.8 on the T4 nodes"
    if _template(n) and _template(o):
        return True  # a route or name template is one key's value ("文章链接" / "永久链接")
    if not all(w.isascii() for w in shared) and 2 * len(shared) < min(len(mine), len(theirs)):
        return False  # CJK pairs: one in common is a word of two subjects (对账文件 / 对账报告)
    generic = _GENERIC | (_MADE if n.shape == "ext" else frozenset())
    mine, theirs = mine - generic, theirs - generic
    loose = n.shape in LOOSE and o.shape in LOOSE and n.form == o.form
    if loose and (mine & theirs or not mine or not theirs):
        return True
    return mine <= theirs or theirs <= mine  # "the upload host" / "dumps are uploaded to"


def _template(k: Keyed) -> bool:
    return k.shape == "path" and _TEMPLATE.search(k.value) is not None


def _comparable(n: Keyed, o: Keyed) -> bool:
    if n.shape == o.shape:
        if n.shape == "qty":
            return _unit(n.value) == _unit(o.value)
        return True
    return n.shape in _NAMES and o.shape in _NAMES


def _unit(value: str) -> str:
    return stem(re.sub(r"^[\d.\s]+", "", value).casefold())


def _said(value: str, text: str) -> bool:
    head = r"(?<![\w.-])" if value[:1].isalnum() else ""
    tail = r"(?![\w-])" if value[-1:].isalnum() else ""
    return re.search(head + re.escape(value) + tail, text, re.IGNORECASE) is not None


def reshaped(new: str, old: str, cues: Cues | None = None) -> list[tuple[str, str]]:
    """``(old value, new value)`` for each key of ``old`` that ``new`` gives another value
    of the same shape (see the module); none when the two name different parts."""
    if cues is not None and parts_differ(new, old, cues.concepts):
        return []
    out = []
    olds = keyed_values(old, cues)
    for n in keyed_values(new, cues):
        if _said(n.value, old) or (n.shape == "flag" and not _flag_set(n, new, cues)):
            continue
        if n.shape == "file" and (ADDED.search(new) or negated(new) != negated(old)):
            continue  # "另外导出 users.xlsx", "don't export users.xlsx": beside users.csv
        for o in olds:
            if _said(o.value, new):
                continue
            if not _same_head(n, o) and not (_comparable(n, o) and _same_key(n, o)):
                continue
            out.append((o.value, n.value))
            break
    return out


def _flag_set(n: Keyed, new: str, cues: Cues | None) -> bool:
    """Flags add up: one replaces another only when said as the default ("make the default
    -Os") or with a change cue ("switch to -O3"), and not as an addition ("also -g",
    "-n auto as well", 也带上: :data:`~.words.ADDED`)."""
    if ADDED.search(new):
        return False
    return "default" in n.key or (cues is not None and cues.has("change", new))


def unlike_values(new: str, old: str, cues: Cues | None = None) -> bool:
    """Whether ``new`` states a value of a distinctive shape and ``old`` none of that shape:
    words the two share inside such a value ("call it `archive.push_sheets`" / "the archive
    wants .jp2 sheets") make them no look-alikes."""
    mine = {k.shape for k in keyed_values(new, cues) if k.shape in DISTINCT}
    return bool(mine) and not mine & {k.shape for k in keyed_values(old, cues)}


__all__ = [
    "CLAUSE_END",
    "CONTRAST",
    "DISTINCT",
    "FILLER",
    "LOOSE",
    "Keyed",
    "key_words",
    "keyed_values",
    "reshaped",
    "stem",
    "unlike_values",
]
