"""A yes to the assistant's change question replaces the rule the question weighs.

"sure, Parquet it is" after "CSV loses the types … Parquet would keep them. Switch the output
format?"; "go with pandas 2.2" after "polars is fine, but … should we switch to pandas 2.2?";
"yes, let's do that" after "Detox is flaky … Would you be open to switching e2e to Maestro?".
The assistant's message ends by asking about a change (a question with a change cue, a
proposal cue or a verb of change: switch, move, 换…). The user's short reply either accepts
that proposal (filed as an accepted decision, :mod:`.build`) or accepts or decides and names
what it picks of the words the message says. That decision replaces the one earlier rule the
question weighs: a rule naming a thing the message names and the decision does not, to which
the decision adds something new — the one sharing most words with the message (at least
two, each weighed name counting twice). Only the rule's clauses naming the weighed thing
change; a prohibition is never replaced. When the reply names a pick by a part of its
full name ("go with the r6g"), the message's sentence naming it in full is filed too, as an
accepted decision. A pick by place ("the second one") is
:mod:`.picked`'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tether.builtin_plugins.memory.fact_ledger.clauses import Ledger, retire_rule
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import Statement, sentences
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.keyshape import FILLER
from tether.builtin_plugins.memory.fact_ledger.picked import (
    ACCEPTED,
    MAX_ASKED,
    MAX_REPLY,
    MIN_SHARED,
)
from tether.builtin_plugins.memory.fact_ledger.words import (
    STOP,
    negated,
    stemmed,
    vocabulary,
    word_search,
    words_of,
)

_CHANGE_VERB = word_search("change_verbs")
_DRAWBACK = word_search("drawback_words")
_FAULT = word_search("fault_words")
_REPLIES = ("accept", "decision", "soft_change")  # "sure, X it is", "go with X", "就用 X"
MAX_RECENT = 20  # facts back where a reply's accepted proposal is
MAX_TERSE_QUESTION = 4  # words: a question this short names nothing of what it weighs


def _asks_change(offer: str, cues: Cues) -> bool:
    """Whether the end of the assistant's ``offer`` asks about a change."""
    asked = _asked(offer)
    kinds = ("change", "proposal", "soft_change", "decision")  # "Go with r6g?"
    return any(any(cues.has(k, s) for k in kinds) or _CHANGE_VERB.search(s) for s in asked)


def _names(text: str, cues: Cues) -> set[str]:
    """The names ``text`` says (products, values of a name's shape), case aside."""
    return {v.text.casefold() for v in values(text, cues) if v.cls == "name"}


def _content(text: str) -> set[str]:
    return {w for w in words_of(text) if w not in STOP and w not in FILLER and len(w) > 1}


def _decision(
    ledger: Ledger, reply: str, source: str, filed: Sequence[Fact], offered: set[str], cues: Cues
) -> Fact | None:
    """The reply's decision: the proposal it accepted, else its own first rule when it
    accepts or decides and names something the message says ("sure, Parquet it is")."""
    recent = ledger.facts[-MAX_RECENT:]
    accepted = next((f for f in recent if f.note == ACCEPTED and f.source == source), None)
    if accepted is not None:
        return accepted
    if not any(cues.has(kind, reply) for kind in _REPLIES) or not _content(reply) & offered:
        return None
    return next((f for f in filed if f.live and f.kind in ("decision", "constraint")), None)


def retire_for_named_pick(
    ledger: Ledger, reply: str, offer: str, source: str, filed: Sequence[Fact], cues: Cues
) -> None:
    """Retire the rule the ``offer``'s change question weighs when ``reply`` (entry
    ``source``, whose facts are ``filed``) takes the change (see the module)."""
    if len(reply) > MAX_REPLY or negated(reply) or _FAULT.search(reply):
        return
    if not _asks_change(offer, cues):
        return
    offered = words_of(offer)
    chosen = _decision(ledger, reply, source, filed, offered, cues)
    if chosen is None or chosen.replaces:
        return  # the change already replaced its rule: one rule per pick
    picks = _picks(chosen, reply, offered)
    rules = [
        old
        for old in ledger.live("constraint") + ledger.live("decision")
        if old is not chosen and old.source != chosen.source and not negated(old.text)
    ]
    if not picks or any(picks & words_of(old.text) for old in rules):
        return  # nothing picked by name, or a rule of the picked thing: no switch away
    asked = _asked(offer)
    asked_stems = _stems(" ".join(asked))
    # "Go with r6g?": so short a question names nothing; the drawbacks say what it weighs
    terse = sum(len(q.split()) for q in asked) <= MAX_TERSE_QUESTION
    left = _found_wanting(offer)
    verb = _CHANGE_VERB.search(chosen.text)  # "move the CLI helpers into …": the CLI stays
    moved = words_of(chosen.text[verb.start() :]) if verb else set()
    mentioned = _content(reply) | moved  # what the reply names, or the change carries, stays
    scope = _scope(chosen.text if chosen.note == ACCEPTED else " ".join(asked))
    best: tuple[int, Fact, set[str]] | None = None
    for old in rules:
        said, stems = words_of(old.text), _stems(old.text)
        weighed = (_names(old.text, cues) & offered & left) - mentioned
        if not weighed or not (terse or _related(asked_stems, stems)):
            continue  # nothing of the rule is found wanting, or the question is not on it
        if any(not (_related({w}, stems) or w in old.text) for w in scope):
            continue  # "move product search to X": narrower than "all product data in Y"
        shared = len(offered & said) + len(weighed)
        if shared >= MIN_SHARED and (best is None or shared > best[0]):
            best = (shared, old, weighed)
    if best is not None:
        _, old, weighed = best
        retire_rule(ledger, old, chosen, cues, changes=lambda c: bool(weighed & words_of(c)))
    spelled = _spelled_out(offer, picks)
    if spelled and spelled not in chosen.text:  # "go with the r6g": "db.r6g.large gives …"
        fact = ledger.add(Statement("decision", spelled, source), cues)
        fact.note = ACCEPTED


#: What a change goes to: the word after "to"/"into" (换成/改成/改用…) in the proposal.
_TO = re.compile(
    r"(?:\b(?:to|into)\s+(?:the\s+|a\s+|an\s+)?|换成|改成|改用|迁到|切到)\s*([\w.+#-]+)", re.I
)


def _picks(chosen: Fact, reply: str, offered: set[str]) -> set[str]:
    """What the reply picks by name: its own words the offer says ("sure, Parquet it is"),
    or — for an accepted proposal — what the proposal switches to ("… to Maestro?")."""
    if chosen.note == ACCEPTED:
        return {m.group(1).casefold() for m in _TO.finditer(chosen.text)} - STOP
    return _content(reply) & offered


def _found_wanting(offer: str) -> set[str]:
    """The words the offer weighs as things to leave: those of its questions ("polars is
    fine, but … switch to pandas?") and of its sentences finding a drawback ("CSV loses the
    types", "Detox is flaky", 不支持)."""
    out: set[str] = set()
    for sentence in sentences(offer):
        if _CLEARED.search(sentence):
            continue  # "S3 Standard isn't the problem": said to be fine
        if sentence.rstrip().endswith(("?", "？")) or _DRAWBACK.search(sentence):
            out |= words_of(sentence)
    return out


#: A sentence clearing a thing of the fault: "isn't the problem", "is fine", 没问题.
_CLEARED = re.compile(
    r"\b(?:isn't|is not|wasn't|not) (?:the |a )?(?:problem|issue|bottleneck)\b|\bis fine\b"
    r"|\bno problem\b|没问题|不是问题|不是瓶颈",
    re.IGNORECASE,
)


_SHAPE_WORDS = vocabulary("shape_words")  # "the output format": "output" says what
#: The words a change is said of: after its verb, up to where it goes ("switching e2e to").
_SCOPE = re.compile(r"(.*?)(?:\b(?:to|into|with|for)\b|成|为|到|[?？]|$)", re.IGNORECASE)


def _scope(text: str) -> set[str]:
    """What a change is said of ("switching e2e to Maestro": e2e; "moving product search to
    Elasticsearch": product, search; "把商品搜索换成 X": 商品搜索), shape words aside."""
    verb = _CHANGE_VERB.search(text)
    if verb is None:
        return set()
    ba = text.rfind("把", 0, verb.start())
    if ba >= 0:  # 把 X 换成 Y: X, whole (CJK words are not split)
        said = text[ba + 1 : verb.start()]
        for word in (w for w in _SHAPE_WORDS if not w.isascii()):
            said = said.replace(word, " ")
        return set(said.split())
    match = _SCOPE.match(text[verb.end() :])
    return _stems(match.group(1) if match else "") - _SHAPE_WORDS


def _asked(offer: str) -> list[str]:
    return [s for s in sentences(offer[-MAX_ASKED:]) if s.rstrip().endswith(("?", "？"))]


def _stems(text: str) -> set[str]:
    return stemmed(_content(text))


MIN_ROOT = 5  # letters two words share at their start to be one word ("encod", "encode")


def _related(mine: set[str], theirs: set[str]) -> bool:
    """Whether two sets of stems share a word, or a root of :data:`MIN_ROOT` letters."""
    return bool(mine & theirs) or any(
        len(a) >= MIN_ROOT and len(b) >= MIN_ROOT and (a.startswith(b) or b.startswith(a))
        for a in mine
        for b in theirs
    )


_TOKEN = re.compile(r"[\w.:/@+-]*\w")


def _spelled_out(offer: str, picks: set[str]) -> str:
    """The sentence of ``offer`` that names a pick in full, a longer token holding it
    ("db.r6g.large gives 16 GiB" for "r6g"), verbatim ("" if none)."""
    for sentence in sentences(offer):
        for token in _TOKEN.findall(sentence.casefold()):
            if any(pick in token and pick != token for pick in picks if len(pick) > 2):
                return sentence
    return ""


__all__ = ["retire_for_named_pick"]
