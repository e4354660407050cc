"""The one extractor: user statements, accepted proposals, pasted errors and failing tool output
read into typed statements, sentence by sentence, words kept verbatim.

Every sentence of a user message (:mod:`.split`) is classified on its own (a cue in one
sentence never drops the others): ``next_step`` (a next-step cue opens it), ``decision`` (a
decision cue, or a terse choice: a named value closed by a ``choice`` cue), ``constraint`` (cue
words of any registered language, or a language-independent signal: a negated imperative, a
quoted rule), else ``request``; a question that asks (an ``ask`` cue opens it: what, should
we, 怎么…) is a ``request``: a modal verb in it sets no rule — unless a ``complaint`` cue
makes it a preference ("why is this camelCase again??", "can we not touch vendor/?").
Identifier shapes (:mod:`.identifiers`: ticket ids, version pins, paths, environment
variables, flags) and exact strings (:mod:`.exact`: inline code, error lines, command lines) are
found in every user sentence; error lines in pasted text and in failing tool output. Nothing
here decides what replaces what: :mod:`.ledger` does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from tether.builtin_plugins.memory.fact_ledger.asides import aside
from tether.builtin_plugins.memory.fact_ledger.asks import (
    DECLARATIVE,
    asks_for_work,
    option_taken,
    wished,
)
from tether.builtin_plugins.memory.fact_ledger.comments import FENCED_BODY
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.errorline import (
    ERROR_SHAPE,
    error_line,
    failure_lines,
    joined,
    opens_with_error,
    reports_error,
    symptom_gone,
)
from tether.builtin_plugins.memory.fact_ledger.exact import observed
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifiers
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.labels import label_list, opens_rules
from tether.builtin_plugins.memory.fact_ledger.logline import (
    LOG_LINE,
    first_logged_error,
    logged_messages,
    stamped_error,
)
from tether.builtin_plugins.memory.fact_ledger.negation import (
    denied,
    otherwise,
    rule_cue,
    set_aside,
)
from tether.builtin_plugins.memory.fact_ledger.nowvalue import now_values
from tether.builtin_plugins.memory.fact_ledger.split import split_sentences
from tether.builtin_plugins.memory.fact_ledger.steps import (
    announces_more,
    follow_steps,
    names_next_step,
    narrated,
)
from tether.builtin_plugins.memory.fact_ledger.terse import MAX_TERSE, bare_ack, terse_setting
from tether.builtin_plugins.memory.fact_ledger.words import word_search
from tether.memory import content_text

MAX_FACT = 1000  # a sentence longer than this is cut (an identifier fact keeps its tail)
MAX_SENTENCES = 40  # per message; a pasted log is not a list of facts
MAX_REMARK = 240  # a message this short stating no task is a remark (a preference in passing)
MAX_REMARK_WORDS = 25  # ...and a remark is one short sentence
MAX_TERSE_LINES = 800  # a message of short lines this long may be settings, one a line
_FENCE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_NEGATED = re.compile(
    r"^\W*(?:no|never|don'?t|do not|stop|avoid|不要|别|禁止|勿|不准|不得)\b", re.I
)
#: "Retries: 3.", "Region: eu-west-1": a label and a short value with a digit (a setting).
_SETTING = re.compile(
    r"^[A-Za-z][\w .-]{0,30}:\s*(?:[A-Za-z]+\s+)?[^\s:]*\d[^\s]*(?:\s+[^\s:]+){0,2}$"
)  # "build cache: keep 7 days" too (one word before the value)
_NOT_SETTING = re.compile(r"error|exception|fail|warn|traceback|fatal", re.IGNORECASE)
#: ``Always say: "see the docs"`` — not a JSON member (``"command": "cat x.log"``).
_QUOTED_RULE = re.compile(
    r"(?<![\"'])[:：]\s*[\"“「『']([^\"”」』'\n]*(?:\s|[\u3400-\u9fff])[^\"”」』'\n]*)[\"”」』']"
)


@dataclass(frozen=True)
class Statement:
    """One fact as read: ``kind``, verbatim ``text``, the entry it came from, and the cue
    flags the ledger needs (``change``: replaces an earlier value; ``revoke``: ends one)."""

    kind: str
    text: str
    source: str
    change: bool = False
    revoke: bool = False
    key: str = ""  # errors: the failing call; identifiers: the subject (``pin:numpy``)
    parent: str = ""  # identifiers: the sentence they were found in


def flat(text: str, limit: int = MAX_FACT) -> str:
    """Whitespace collapsed, cut at ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def text_of(content: Any) -> str:
    """The text blocks of a message's content, joined by newlines."""
    return content_text(content, "\n", lambda text: str(text or ""))


def sentences(text: str) -> list[str]:
    """``text`` split into sentences and lines; fenced code and log lines left out."""
    prose = _FENCE.sub("\n", text) if "```" in text else text
    out = []
    for part in split_sentences(prose):
        quoted = _QUOTED_PROSE.match(part)  # "> please set X-Vendor-Key on every call": words
        if quoted and not _CODE_SIGN.search(part):
            part = quoted.group(1)
        if not LOG_LINE.match(part) and any(ch.isalnum() for ch in part):
            out.append(part)
    return out[:MAX_SENTENCES]


#: A quoted line of prose in a message ("> please set … on every call", "> HKLM\…\Svc so
#: the HSM"), not a test's "> assert".
_QUOTED_PROSE = re.compile(r"^>\s+([A-Za-z][\w'\\]*(?:\s+\S+){3,})$")
_CODE_SIGN = re.compile(r"==|!=|[(){};]|^>\s+(?:assert|raise|return|def|import|self)\b")


#: A list item: a bullet or a number opens the line ("- ", "* ", "• ", "1. ", "2) ").
_LIST_ITEM = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)、])\s+")
_LABEL = re.compile(r"^[^:：\s]{1,12}(?:\s+\w{1,6})?[:：]\s*")  # "Turn 8: ", "Q: ", "问题："


def _opening(sentence: str, words: int = 4) -> str:
    """The first ``words`` words of ``sentence`` after a short label: where a question says it
    asks ("what…", "should we…", "怎么…"); a question that asks for something ("Can we keep
    it under 2 MB?", "No new dependencies, ok?") is read as what it asks for."""
    return " ".join(_LABEL.sub("", sentence.strip()).split()[:words])


#: A Chinese question written without "？": "是不是太低了", "会不会好一点", "要不要加".
_CJK_ASKS = re.compile(r"是不是|会不会|要不要|能不能|有没有|[吗呢]\s*$")
#: "不管是不是节假日，备份都要跑": whether or not, a rule for both.
_WHETHER = re.compile(r"无论|不管|不论|(?:是不是|有没有|会不会).{0,12}都")
MAX_LINK_GAP = 6  # characters between an opening "then" and the decision cue after it
_SEQUENCE = frozenset({"then", "after that", "afterwards", "然后", "接着", "之后", "后来"})


def _decided_then(sentence: str, cues: Cues) -> bool:
    """Whether ``sentence`` opens with a word of sequence and then a decision cue ("然后我们
    决定 …", "then we decided …"): the order it was told in, not a step still to do."""
    step = cues.find("next_step", sentence)
    if step is None or step[0] > 2 or sentence[step[0] : step[1]].casefold() not in _SEQUENCE:
        return False
    decided = cues.find("decision", sentence[step[1] : step[1] + MAX_LINK_GAP + 10])
    return decided is not None and decided[0] <= MAX_LINK_GAP


def classify(sentence: str, cues: Cues, *, remark: bool = False) -> str:
    """The kind of one user sentence (see the module's docstring). ``remark``: the sentence
    is part of a short message; a statement there (no task verb, not a question) is a
    preference said in passing ("two spaces of indentation in the JSX")."""
    if _decided_then(sentence, cues):  # "然后我们决定 extent 用 4096": a decision, told in order
        return "decision"
    if announces_more(sentence):  # "next bit is annoying, sorry this is long"
        return "request"
    if names_next_step(sentence) or (
        cues.has("next_step", sentence) and not narrated(sentence, cues)
    ):  # "然后我…，不要用 ROS", "then I moved the PIR to GPIO27": what holds, no step
        return "next_step"
    if cues.has("decision", sentence):
        return "decision"
    question = "?" in sentence or "？" in sentence
    if question and cues.has("complaint", sentence):
        return "constraint"  # "why is this camelCase again??", "can we not touch vendor/?"
    if sentence.rstrip().endswith(("?", "？")) and cues.has("ask", _opening(sentence)):
        return "request"  # "what should we look at next?" asks; it states no rule
    if _CJK_ASKS.search(sentence) and not _WHETHER.search(sentence):
        return "request"  # "分数上限50万是不是太低了": a question without its mark
    cue = rule_cue(sentence, cues)
    if (
        cue == "rule"
        or _NEGATED.match(sentence)
        or _QUOTED_RULE.search(sentence)
        or label_list(sentence)
    ):
        return "constraint"
    if terse_choice(sentence, cues):
        return "decision"
    if option_taken(sentence):  # "yes do that, the backfill runs online during the week"
        return "decision"
    if wished(sentence, cues):  # "plain POSIX awk please, mawk is what's on the servers"
        return "constraint"
    if (
        remark
        and (not cue or ";" in sentence)  # "…a tenant we don't have; ask me first"
        and not sentence.rstrip().endswith(("?", "？"))
        and not (cues.has("task", sentence) and not DECLARATIVE.match(sentence))
        and (3 if sentence.isascii() else 1) <= len(sentence.split()) <= MAX_REMARK_WORDS
    ):
        return "constraint"
    if (remark or _LIST_ITEM.match(sentence)) and terse_setting(sentence, cues):
        return "constraint"  # "lr 0.015", "- timeout 10m", "keep -race" (:mod:`.terse`)
    setting = _SETTING.match(sentence.rstrip(" .;。"))
    if setting and not _NOT_SETTING.search(sentence):  # in a long message too
        return "constraint"
    if now_values(sentence, cues):  # "the partition is gpu-h100-batch now", "new bucket is
        return "constraint"  # s3://…", "that flag, rename it to X": what holds now
    settled = _VALUE_THEN.match(sentence)  # "04:15 then, last change": the value alone
    if settled and any(v.text == settled.group(1) for v in values(settled.group(1), cues)):
        return "constraint"
    return "request"


#: Take-back verbs a negation before them denies ("don't forget", "never drop").
_DENIABLE = frozenset("forget drop scrap scratch ignore remove stop lift get never".split())


_SUGGESTED = re.compile(
    r"\b(?:why (?:don'?t|not|wouldn'?t)|(?:can'?t|couldn'?t|shouldn'?t|won'?t) we"
    r"|can we not|any reason not to|(?:can'?t|won'?t|wouldn'?t) hurt to)\b",
    re.IGNORECASE,
)


def _takes_back(cues: Cues, text: str) -> bool:
    """Whether ``text`` has a revoke cue not denied ("Don't forget the CHANGELOG" has none)."""
    at = 0
    while (span := cues.find("revoke", text[at:])) is not None:
        verb = text[at + span[0] : at + span[1]].split()[0].casefold()
        if verb not in _DENIABLE or not denied(text, at + span[0]):
            return True  # "not … anymore" is the cue itself
        if _SUGGESTED.search(text[max(0, at + span[0] - 30) : at + span[0]]):
            return True  # "why don't we just drop the flag": a suggestion, not a denial
        at += max(span[1], 1)
    return False


#: A value settled on, opening its sentence: "04:15 then", "ok, 8 workers then".
_VALUE_THEN = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|fine|alright|right|so|hmm+|ugh|ah+)[,\s]+)*"
    r"(\S+(?:\s\S+){0,2}?)[,\s]+then\b(?!\s+(?:we|i|you|it|the|run|do)\b)",
    re.IGNORECASE,
)


MAX_CHOICE = 60
MAX_CHOICE_WORDS = 5  # "Valkey it is.", "Postgres 16, then."
_NAME_LAST = re.compile(r"([A-Za-z][\w.+#-]*(?:\s+v?\d[\w.]*)?)[\s,，]*([^A-Za-z0-9]*|[a-z' ]*)$")


def terse_choice(sentence: str, cues: Cues) -> bool:
    """A short sentence closing on a named value and a ``choice`` cue ("缓存就 Redis 吧",
    "Valkey it is"): a choice made, though no decision word says so."""
    body = sentence.rstrip(" .。!！")
    if len(body) > MAX_CHOICE or body.endswith(("?", "？")):
        return False
    found = _NAME_LAST.search(body)
    if found is None or not found.group(2).strip():
        return False
    name, tail = found.group(1), found.group(2).strip()
    if body.isascii() and (len(body.split()) > MAX_CHOICE_WORDS or cues.has("task", body)):
        return False  # "Skip the flaky test in CI for now." is a request
    if not body.isascii() or re.search(r"[A-Z0-9.+#-]", name):
        span = cues.find("choice", tail)
        return span is not None and span[0] == 0 and span[1] == len(tail)
    return False


def pasted_error(text: str) -> str:
    """The error line of a user message that pastes an error or a failing log ("" if none)."""
    rows = [row.strip() for row in text.splitlines() if row.strip()]
    lines = [joined(rows, at) for at in range(len(rows))]  # a header and its message line
    lines = [
        line
        for line in lines  # "<time> ERROR handler:88 KeyError: 'id'": a logged error too
        if ERROR_SHAPE.match(line) or any(map(opens_with_error, [line, *logged_messages(line)]))
    ]
    if lines:
        return flat(lines[-1])
    return flat(first_logged_error(rows) or stamped_error(rows))


#: A heading that presents its list for the reader ("如下", "as follows"), not a log of work.
_PRESENTING = re.compile(
    r"如下|以下|下面|\b(?:as follows|below|the following|here(?:'s| is| are) what)\b", re.I
)
#: A condition word: a change asked for only if something holds is a trial, not yet a rule.
_CONDITION = word_search("conditions")
MAX_LABEL = 24  # characters: a heading this short only names its list ("Ground rules:")


def _asked(cues: Cues, kind: str, sentence: str) -> bool:
    """Whether ``sentence`` has a cue of ``kind`` that no negation right before denies and
    nothing after sets aside ("… instead, but that doesn't work on CI"), unless another pick
    follows ("…, so yarn it is")."""
    span = cues.find(kind, sentence)
    if span is None or denied(sentence, span[0]) or otherwise(sentence, span[0]):
        return False
    return set_aside(sentence, *span) != ""  # "…, so yarn it is" changes, to yarn


def user_statements(text: str, source: str, cues: Cues) -> list[Statement]:
    """Every fact of one user message, in order."""
    out: list[Statement] = []
    said = sentences(text)
    if 1 < len(said) and len(text) <= MAX_REMARK:  # "looks right. <the fact>. carry on"
        said = [s for s in said if not bare_ack(s, cues)] or said
    remark = len(text) <= MAX_REMARK and len(said) <= 2
    lines = [line for line in text.strip().splitlines() if line.strip()]
    terse = (
        1 < len(lines) and len(text) <= MAX_TERSE_LINES and all(len(x) <= MAX_TERSE for x in lines)
    )
    heading = ""  # the kind a list's heading gives its items ("Requirements:", "要求如下：")
    heading_at = -1  # where that heading's own statement is in ``out``
    heading_sentence = 0
    labels: set[int] = set()  # headings that only name their list: not facts of their own
    ruled = False  # "几点要求：不要用 X。错误信息要带行号。": the sentences after it are rules
    for index, sentence in enumerate(said):
        words = flat(sentence)
        kind = classify(words, cues, remark=remark)
        if ruled and kind == "request" and not asks_for_work(words, cues):
            kind = "constraint"  # not "Can you start with the lexer", "先帮我写…"
        ruled = ruled or opens_rules(words)
        if terse and kind == "request" and terse_setting(words, cues):
            kind = "constraint"  # "lr 0.015\nbatch 240\nwarmup 500": one setting a line
        if _LIST_ITEM.match(words):
            if heading in ("constraint", "decision", "presented"):
                if kind == "request" and not words.rstrip().endswith(("?", "？")):
                    kind = heading if heading != "presented" else "constraint"
                    # "- 繁体 zh-TW 也要支持" under "要求如下：" or "需求我整理如下，麻烦看一下："
                if len(said[heading_sentence]) <= MAX_LABEL:
                    labels.add(heading_at)
        else:
            heading = kind if words.rstrip().endswith((":", "：")) else ""
            if heading == "request" and _PRESENTING.search(words):
                heading = "presented"  # "需求我整理如下，麻烦看一下：", "Here is what I need:"
            heading_at, heading_sentence = len(out), index
        change = _asked(cues, "change", words)
        revoke = _takes_back(cues, words) and not symptom_gone(words, cues)
        if aside(words):  # "I'll switch the dashboards to dark mode later, unrelated, ignore"
            kind, change, revoke = "request", False, False  # the user says it is no rule here
        if kind == "next_step" and revoke and not _LABEL.match(words):
            kind = "constraint"  # "然后LCD1602屏幕不再用了" takes back a rule; "下一步：…" a step
        if kind == "request" and (change or revoke or cues.has("gone", words)):
            if revoke or not _CONDITION.search(words):  # "try X and make that the default
                kind = "constraint"  # if it's faster" stays a trial: "Scratch that: port 9000."
        if ERROR_SHAPE.match(words) or opens_with_error(words):
            kind, change, revoke = "said", False, False  # a pasted error line: no rule, no change
        out.append(Statement(kind, words, source, change, revoke))
        replaced = cues.find("replaces", sentence)
        for token, subject in identifiers(sentence):
            if replaced is not None and 0 <= sentence.find(token, replaced[1]) - replaced[1] <= 5:
                continue  # "… instead of 1.0.197": the value it replaces is no fact of its own
            if observed(token):  # an error line stays: no sentence or value replaces it
                out.append(Statement("identifier", token, source))
            else:
                out.append(Statement("identifier", token, source, key=subject, parent=words))
    error = pasted_error(text)
    blocks = FENCED_BODY.findall(text)
    if error:
        out.append(Statement("error", error, source, key="pasted"))
    for block in blocks:  # a pasted log: its (other) error lines, kept verbatim
        if error or reports_error(block):  # "clang: error: …" inside it, not opening it
            out += [
                Statement("identifier", line, source)
                for line in failure_lines(block)
                if not error or (flat(line) not in error and error not in flat(line))
            ]
    kinds = follow_steps([s.kind for s in out], [s.text for s in out])
    out = [replace(s, kind=k) if k != s.kind else s for s, k in zip(out, kinds, strict=True)]
    return [statement for at, statement in enumerate(out) if at not in labels]


__all__ = [
    "MAX_FACT",
    "Statement",
    "classify",
    "error_line",
    "flat",
    "pasted_error",
    "sentences",
    "terse_choice",
    "text_of",
    "user_statements",
]
