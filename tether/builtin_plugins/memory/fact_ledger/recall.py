"""What a summary keeps word for word beyond the rules: one selection for every summarizer.

The offline summarizer renders these and the summary gate requires exactly these, so an LLM
summary that lost them gets back what the offline summary shows:

- :func:`kept_identifiers`: live identifiers no kept rule quotes, ranked — the most specific
  (a value, a location, an error line) and the most recently said first — within a budget;
- :func:`kept_requests`: every live request that states something — not a bare
  acknowledgement, not a question that asks, not code; a negation, a modal, a pasted line, an
  identifier shape or a quantity in it (a request for work only with a rule or a value) —
  ranked: what :func:`.noted.noted` reads as a fact (a value, a reason, how a kind of thing
  is done), then a negation or a modal, then the rest, the newest first, within a budget.

Nothing is filtered out by shape: what does not fit is dropped from the ledger with a record
(:meth:`.ledger.Ledger.drop`), never silently, and the rest keep the order they were said in.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.goal import cut_from_goal, goal_shown, in_goal
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.negation import rule_cue
from tether.builtin_plugins.memory.fact_ledger.noted import CODE, LABEL, noted
from tether.builtin_plugins.memory.fact_ledger.terse import bare_ack
from tether.builtin_plugins.memory.fact_ledger.words import negated, normal, word_count

#: Kinds a summary keeps whole: an identifier quoted in one of them needs no line of its own
#: (an open error is not one: only the newest are shown).
QUOTING = frozenset({"goal", "constraint", "decision", "next_step"})
MAX_IDENTIFIERS = 80
MAX_IDENTIFIER_CHARS = 4000
MAX_REQUESTS = 24
MAX_REQUEST_CHARS = 3000
#: What makes an identifier specific: a separator of a path, a key or a location, a flag, an
#: upper-case name with an underscore, words, a name with a number ("v2", "py311"); a bare
#: number ("1.5") is not.
_SPECIFIC = re.compile(r"[/=:@\\]|--|[A-Z0-9]_[A-Z0-9]|\s|[A-Za-z]\S*\d|\d\S*[A-Za-z]")
#: A shape worth keeping in any language: a digit, a path or key separator, a flag, a name
#: in capitals with an underscore, a dotted or camel-case name, quoted words.
_SHAPED = re.compile(r"\d|[/=@$]|(?<!\w)-{1,2}\w|[^\W_]_[^\W_]|\w\.\w|[a-z][A-Z]|[`\"“「]")
#: Signs in a request's words, each a regular expression (case aside):
#: ``asks`` a question that asks (not "…, right?"): it states nothing the summary must keep;
#: ``modal`` a negation, a modal, an absolute or a verb of keeping in any language (ranking
#: only, so loose): "we are not moving", "…, ever.", "at all", "only X", "for anything you
#: touch", "must", "and keep
#: -O2", "不/别/没/只/必须/一律";
#: ``tag`` a statement closed by a tag that asks to confirm it ("…, right?", "…对吧？");
#: ``reason`` a clause that gives the reason ("…, that's the hot path"): meant to last.
_SIGNS = {
    "asks": r"^\W*(?:what|why|how|which|who|where|when|any|(?:is|are|was|were|do|does|did|can"
    r"|could|should|would|will|has|have)(?:n't)?)\b|[吗呢]\s*[?？]?$|什么|怎么|为什么|哪|是否"
    r"|能不能|要不要|是不是|会不会|有没有",
    "modal": r"\b(?:not|no|never|ever|only|at all|must|should|shall|always|have to|has to"
    r"|needs? to|cannot|can't|won't|isn't|aren't|don't|doesn't|keep|leave|stick (?:to|with)"
    r"|stay (?:on|with)|anything|everything|whenever|each time)\b|[^\W\d_]n't\b"
    r"|[不别没勿禁只必须律]",
    "tag": r"[\s,，]\s*(?:right|correct|yes|yeah|ok|okay|no)\s*[?？]$"
    r"|(?:对吧|是吧|对不对)\s*[?？]$",
    "reason": r"[,;:—–]\s*(?:that's|that is|it's|it is|this is|which is)\b",
}
_ASKS, _MODAL, _TAG, _REASON = (re.compile(_SIGNS[k], re.I) for k in _SIGNS)
_OPENING = 3  # words: a task verb this early asks for work
#: A name a request for work says how to do it with: a key with an underscore
#: ("session_id"), a path ("/healthz"), a flag, a dotted name ("orders.created_at").
_NAMED_VALUE = re.compile(r"(?<![\w/])(?:[a-z]+_[a-z_]+|/[\w.-]+|--?[a-z][\w-]+|[a-z]+\.[a-z_]+)\b")
MIN_STATED = 2  # words (a CJK character counts as half a word): fewer states nothing


def _recency(ledger: Ledger) -> dict[str, int]:
    """Each fact's place in the order facts were filed (later = said more recently)."""
    return {fact.id: at for at, fact in enumerate(ledger.facts)}


def _fit(
    ledger: Ledger, ranked: list[Fact], max_items: int, max_chars: int
) -> tuple[list[Fact], list[Fact]]:
    """``ranked`` split into what fits the budgets (in ledger order) and what does not."""
    kept: list[Fact] = []
    left: list[Fact] = []
    size = 0
    for fact in ranked:
        if len(kept) < max_items and size + len(fact.text) <= max_chars:
            kept.append(fact)
            size += len(fact.text) + 4
        else:
            left.append(fact)
    order = _recency(ledger)
    return sorted(kept, key=lambda f: order.get(f.id, 0)), left


def kept_identifiers(
    ledger: Ledger,
    max_items: int = MAX_IDENTIFIERS,
    max_chars: int = MAX_IDENTIFIER_CHARS,
    *,
    record: bool = True,
) -> list[Fact]:
    """Live identifiers a kept rule does not quote and no later fact changed in the goal
    (:meth:`~.ledger.Ledger.goal_changes`), within the budgets (see the module); with
    ``record`` the rest are dropped from ``ledger`` with a record."""
    shown = goal_shown(ledger)
    said = " ".join(
        shown if f.kind == "goal" else f.text
        for f in ledger.live()
        if f.kind in QUOTING and not in_goal(ledger, f)
    )
    changed = ledger.goal_changes()
    own = [
        f
        for f in ledger.live("identifier")
        if f.text not in said and f.text not in changed and not cut_from_goal(ledger, f.text, shown)
    ]
    order = _recency(ledger)
    ranked = sorted(own, key=lambda f: (_SPECIFIC.search(f.text) is None, -order.get(f.id, 0)))
    kept, left = _fit(ledger, ranked, max_items, max_chars)
    if record:
        for fact in left:
            ledger.drop(fact)
    return kept


def _body(fact: Fact) -> str:
    """A request's words after a label ("Turn 8: " says nothing itself); a pasted line whole
    (``workers: 6`` is a key and its value, not a label)."""
    text = fact.text.strip()
    return text if fact.kind == "said" else LABEL.sub("", text)


def _stated(fact: Fact, cues: Cues) -> int:
    """How surely a request states something the summary should keep (:func:`_weight`), 0
    when it states nothing: code or a directive (a pasted line is kept as pasted), a bare
    acknowledgement, a question that asks, a word or two, or a request for work (a task verb
    opening it) without a rule or a value in it."""
    if fact.kind == "said" and fact.note:
        return 3  # a short message kept whole (:mod:`.whole`), as before
    body = _body(fact)
    pasted = fact.kind == "said" and _SHAPED.search(body) is not None  # "FLAGS=a_v2,b"
    if (word_count(body) < MIN_STATED and not pasted) or bare_ack(body, cues):
        return 0
    if fact.kind != "said" and CODE.search(body):
        return 0
    if body.endswith(("?", "？")) and _ASKS.search(body):
        return 0
    opening = " ".join(body.split()[:_OPENING]) if body.isascii() else body[:4]
    weight = _weight(fact, cues, body)
    asks_work = cues.has("task", opening) and not _NAMED_VALUE.search(body)  # not "merge on
    return weight if weight >= (2 if asks_work else 1) else 0  # session_id", "add a /healthz"


def _weight(fact: Fact, cues: Cues, body: str) -> int:
    """How surely a request (``body``: its words after a label) states a standing fact: a
    short message kept whole or what :func:`.noted.noted` reads as one (3), a negation, a
    modal or an absolute in any language (2), a line of a pasted file
    (:func:`.comments.pasted_notes`), an identifier shape, a quantity, a confirming tag
    ("…, right?") or a reason ("…, that's the hot path") (1), else 0."""
    if (fact.kind == "said" and fact.note) or noted(fact.text, cues):
        return 3
    if negated(body) or rule_cue(body, cues) or _MODAL.search(body):
        return 2
    signs = (_SHAPED, _TAG, _REASON)
    if fact.kind == "said" or any(sign.search(body) for sign in signs):
        return 1
    return 1 if not body.isascii() and cues.has("select", body) else 0  # "语言用 Go": a choice


def requests_done(ledger: Ledger) -> list[Fact]:
    """The live requests and whole messages, history shown under ``Done``: not a message
    that holds the next step still to take ("下一步写 hspec 测试。写完我 review。")."""
    steps = [normal(step.text) for step in ledger.live("next_step")]
    out = []
    for fact in ledger.live("request", "said"):
        said = normal(fact.text)
        if not any(step and step in said for step in steps):
            out.append(fact)
    return out


def kept_requests(
    ledger: Ledger,
    cues: Cues,
    max_items: int = MAX_REQUESTS,
    max_chars: int = MAX_REQUEST_CHARS,
) -> list[Fact]:
    """Live requests that state something, ranked (see the module) within the budgets, in
    the order they were said (history: shown under ``Done``)."""
    done = requests_done(ledger)
    weight = {f.id: w for f in done if (w := _stated(f, cues))}
    said = [f for f in done if f.id in weight]
    order = _recency(ledger)
    ranked = sorted(said, key=lambda f: (-weight[f.id], -order.get(f.id, 0)))
    kept, _ = _fit(ledger, ranked, max_items, max_chars)
    return kept


__all__ = ["QUOTING", "kept_identifiers", "kept_requests", "requests_done"]
