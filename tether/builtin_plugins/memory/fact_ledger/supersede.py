"""Which live facts a new constraint or decision replaces (see :mod:`.ledger`).

With a change or revoke cue a loose likeness of the words is enough (word forms aside), or one
earlier fact naming the same thing, or the one earlier value of the same shape; without one the
same subject must get another value (:func:`~.subject.relation`), or one word be swapped after
a ``select`` cue. "Use X instead of Y" and "Y is gone" also retire the facts naming Y."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

from tether.builtin_plugins.memory.fact_ledger.bare import (
    bare_change,
    bare_head,
    bare_part,
    faulted_instead,
    inherited,
    note_step,
    same_shape,
)
from tether.builtin_plugins.memory.fact_ledger.bounds import measures_bound
from tether.builtin_plugins.memory.fact_ledger.clauses import names_new, retire_echoes, retire_rule
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import Statement
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.faulted import remarks_only
from tether.builtin_plugins.memory.fact_ledger.formats import reformatted
from tether.builtin_plugins.memory.fact_ledger.gone import ditches, retire_named_gone
from tether.builtin_plugins.memory.fact_ledger.guards import (
    NUMBER_BONUS,
    SWITCHED,
    adds,
    cue_words_of,
    keyed_elsewhere,
    renumbers,
    said_now_of,
)
from tether.builtin_plugins.memory.fact_ledger.hosts import moved
from tether.builtin_plugins.memory.fact_ledger.implicit import distinct, shape_change, values
from tether.builtin_plugins.memory.fact_ledger.keeps import pin_kept, restates
from tether.builtin_plugins.memory.fact_ledger.keyshape import unlike_values
from tether.builtin_plugins.memory.fact_ledger.keyvalue import same_key
from tether.builtin_plugins.memory.fact_ledger.measured import measures_apart
from tether.builtin_plugins.memory.fact_ledger.named import (
    FLAG_OR_VAR,
    dropped_names,
    named_alike,
    names_any,
    quantity_named,
    renamed,
    revoked_object,
    switched_away,
    unversioned,
)
from tether.builtin_plugins.memory.fact_ledger.negation import agrees_with_pick, denied
from tether.builtin_plugins.memory.fact_ledger.nowvalue import now_values
from tether.builtin_plugins.memory.fact_ledger.oldremark import in_force_instead
from tether.builtin_plugins.memory.fact_ledger.partial import agrees_with_ban, partial_take_back
from tether.builtin_plugins.memory.fact_ledger.provisional import BONUS as PROVISIONAL_BONUS
from tether.builtin_plugins.memory.fact_ledger.provisional import held_for_now
from tether.builtin_plugins.memory.fact_ledger.renumbered import (
    names_its_rule,
    numbered,
    renumbered,
    said_now,
)
from tether.builtin_plugins.memory.fact_ledger.revert import deictic
from tether.builtin_plugins.memory.fact_ledger.siblings import sibling_value
from tether.builtin_plugins.memory.fact_ledger.subject import (
    nearest_parts,
    relation,
    same_subjects,
)
from tether.builtin_plugins.memory.fact_ledger.topic import revoked_topic
from tether.builtin_plugins.memory.fact_ledger.words import (
    FUNCTION_WORDS,
    likeness,
    negated,
    shared_count,
    stemmed,
    words_of,
)


class Ledger(Protocol):
    """What superseding needs of :class:`~.ledger.Ledger`."""

    def live(self, *kinds: str) -> list[Fact]: ...

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None: ...

    def new_fact(self, kind: str, text: str, source: str, **extra: Any) -> Fact: ...

    def replaced(self, fact: Fact) -> list[Fact]: ...

    @property
    def facts(self) -> list[Fact]: ...


MAX_SWAP = 3  # words swapped in one place of an otherwise equal sentence
CUED_LIKENESS = 0.2  # with a change/revoke cue
PLAIN_MAX_WORDS = 20  # without one both must be short: long look-alikes are separate items
_ENDS = frozenset(".!?。！？")
_CLAUSE = re.compile(r"[,;，；]|\s[-—–]+\s")
_TOKEN = re.compile(
    r"[A-Za-z0-9_.:/@=+-]*[A-Za-z0-9_]|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|[^\w\s]"
)


def one_word_swap(new: str, old: str) -> str | None:
    """The words before the few words (at most :data:`MAX_SWAP`) ``new`` has in ``old``'s
    place, when the two sentences are otherwise the same and name the same subjects ("Use
    requests for the HTTP client" / "Use httpx for the HTTP client" gives "use"; "Use tabs
    for indentation" / "Use 4 spaces for indentation" too); ``None`` when they are not."""
    a, b = _TOKEN.findall(new.casefold()), _TOKEN.findall(old.casefold())
    while a and a[-1] in _ENDS:  # a clause ends without the sentence's full stop
        a.pop()
    while b and b[-1] in _ENDS:
        b.pop()
    if min(len(a), len(b)) < 3 or not same_subjects(new, old):
        return None
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    mine, theirs = len(a) - head - tail, len(b) - head - tail
    kept = [t for t in a[:head] + a[len(a) - tail :] if t[0].isalnum()]
    if not (1 <= mine <= MAX_SWAP and 1 <= theirs <= MAX_SWAP) or len(kept) < 2:
        return None  # "Use black for formatting" / "Use ruff for linting": two things
    if set(a[head : len(a) - tail]) & set(b[head : len(b) - tail]):
        return None  # "Use pytest for unit tests" / "Use hypothesis for property tests"
    return " ".join(a[max(0, head - 3) : head])


def chosen(cues: Cues, before: str | None) -> bool:
    """Whether the words ``before`` a swapped word end with a word that takes a chosen value
    ("use", "with", "用") or a label's colon: "use requests" → "use httpx" is a change, "run
    black" → "run ruff" and "keep functions" → "keep files" are two things."""
    if not before:
        return False
    if before.rstrip().endswith((":", "：")):
        return True  # "Log level: debug" / "Log level: info": a label's value
    span = cues.find("select", before)
    return span is not None and span[1] == len(before)


def supersede(ledger: Ledger, fact: Fact, statement: Statement, cues: Cues | None) -> None:
    """Retire the live facts ``fact`` (a constraint or decision) replaces."""
    rules = ledger.live("constraint") + ledger.live("decision")
    if cues is not None and deictic(fact.text, cues, [r for r in rules if r is not fact]):
        return  # "scratch that": the latest message is taken back (:mod:`.revert`)
    cued = statement.change or statement.revoke
    if cues is not None and not cued and not cues.has("revert", fact.text):
        current = in_force_instead(ledger, fact, cues)  # "the old db1.internal was slow": no rule
        if current is not None:
            ledger.retire(fact, current)
            return
    if cues is not None and remarks_only(ledger, fact, cues):
        return  # "02:00 was too early": the old value named, none set (:mod:`.faulted`)
    if cues is not None:  # "the run took 13 min" reports on "under 10 minutes", no change
        rules = [r for r in rules if not measures_bound(fact.text, r.text, cues, cued=cued)]
    text = fact.text
    if cued and cues is not None:
        for kind in ("change", "revoke", "change", "revoke"):
            span = cues.find(kind, text)
            if span:
                text = text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]
    mine, cue_words = words_of(text), cue_words_of(fact.text, cues) if cued else set()
    short = len(fact.text.split()) <= PLAIN_MAX_WORDS
    best: tuple[float, Fact] | None = None
    goal_facts = [f for f in ledger.facts if f.kind == "goal"]
    opening = {f.source for f in goal_facts}  # the goal's message: its requests are context
    if cued:  # "switch to prod instead" also replaces a request ("deploy to staging")
        rules += [r for r in ledger.live("request")[-50:] if r.source not in opening]
    keyed: list[Fact] = []
    now = not cued and fact.kind != "decision" and said_now(fact.text)  # "…/v2 now"
    if (cued or now or fact.kind == "decision") and numbered(fact.text):  # "GRCh37" → "GRCh38"
        paths = cued or now  # a decision renumbers a name ("GRCh38"), not a path or host
        keyed = _earlier_alike(fact, rules, lambda o: renumbered(fact.text, o, cues, now, paths))
        others = [r.text for r in rules if r not in keyed and r is not fact and r.live]
        keyed = [] if keyed and names_its_rule(fact.text, others) else keyed  # "GPIO17 … 27"
    renumbering = bool(keyed)  # its old value, quoted alone, goes too (see the end)
    # the sentence, then each clause of it: "Use TensorRT for inference, X is 2x slower"
    parts = [fact.text, *(c for c in _CLAUSE.split(fact.text) if c.strip() != fact.text)]
    bare_said = cued and cues is not None and bool(bare_part(fact.text, cues))
    goals = {f.id for f in goal_facts}
    gone = stemmed(_replaced_words(fact.text, cues)) if cued else set()
    switched = SWITCHED.search(fact.text)
    scope = stemmed(words_of(switched.group(1))) - FUNCTION_WORDS if switched else set()
    dropped = dropped_names(fact.text, cues) if statement.revoke else set()
    for old in rules[-250:] if not keyed else []:
        if dropped and not names_any(dropped, old.text):
            continue  # "drop the utm_content dimension": only a rule naming utm_content
        if old is fact or bare_said:
            continue  # "make that 02:30": no subject words to liken (:mod:`.bare`)
        if old.source == fact.source and old.parent in goals:
            continue  # the goal message's own parts: "… after the bump to X … The CI job is Y"
        theirs = words_of(old.text)
        score = likeness(mine, theirs)
        if gone and not gone & stemmed(theirs):
            continue  # "… rather than hard-coding LOG_LEVEL_DBG": a rule naming none of it
        if cued:  # "image loading" is about "images load": word forms aside
            stems, their_stems = stemmed(mine), stemmed(theirs)
            score = max(score, likeness(stems, their_stems))
            shared = shared_count(stems & their_stems)
            if shared < 2 and text != fact.text:  # "switch the state backend to X": the
                full = stemmed(words_of(fact.text) - cue_words)  # words in a gapped cue
                if shared_count(full & their_stems) >= 2:
                    score, shared = max(score, likeness(full, their_stems)), 2
            close = score >= CUED_LIKENESS or (score >= 0.08 and shared >= 2)
            if not close and old.source != fact.source:  # "the switch …, so set MTU to 1500"
                close = relation(fact.text, old.text, cues) == "key"
            if cues is not None and held_for_now(text, old.text, cues, fact.text):
                close, score = True, score + PROVISIONAL_BONUS  # "先用 CRC32" → "校验改为 X"
            if close and unlike_values(fact.text, old.text, cues):
                continue  # "call it `a.b_c` instead" is about no rule without such a value
            if close and scope and keyed_elsewhere(old.text, scope, cues):
                continue  # "switch precision to fp16": not "the partition is X now"
            if renumbers(fact.text, old.text):  # "the API chokes at 100, drop batches to 25"
                close, score = True, score + NUMBER_BONUS
            if close and (best is None or score > best[0]):
                best = (score, old)
            continue
        if old.source and old.source == fact.source:
            continue  # two values said in one message are two facts
        reason = relation(fact.text, old.text, cues)
        if reason and negated(fact.text) and negated(old.text):
            continue  # two prohibitions add up ("never touch X", "never touch Y")
        if (
            reason == "frame"
            and cues is not None
            and distinct(fact.text, old.text, cues, strict=False)
        ):
            continue  # "Retry limit 3 for pushes" / "Retry limit 6 for e-mails"
        if reason == "key":
            keyed.append(old)
        elif reason:
            if best is None or score > best[0]:
                best = (score, old)
        elif (
            short
            and cues is not None
            and any(chosen(cues, one_word_swap(part, old.text)) for part in parts)
            and not (negated(fact.text) and negated(old.text))
        ):
            if best is None or score > best[0]:
                best = (score, old)
    earlier = [  # not a rule said beside it; one naming what the take-back names, if it does
        r
        for r in rules
        if not (fact.source and r.source == fact.source)
        and not (dropped and not names_any(dropped, r.text))
        and not (statement.revoke and cues is not None and switched_away(r.text, cues))
    ]
    if statement.revoke and cues is not None:  # "forget pglogical, …": the rule naming it
        best = revoked_object(fact, earlier, cues) or best
    if cued:  # "scratch that name, call it pub_billing": the rule naming another of its stem
        best = renamed(fact, fact.text, earlier) or best
    if best is None and cued:  # a name where the cue speaks ("… MB file, and no longer …")
        start, end = cues.cue_span(fact.text, ("change", "revoke")) if cues else (0, len(text))
        best = named_alike(fact, text[start:end], earlier, any_word=statement.revoke)
        if best is not None and not statement.revoke and unversioned(fact.text, best[1].text):
            best = None  # "Bump Room" after "…in our Room database": no version of it said
        if best is None and statement.revoke:  # "scratch the 45 min": the rule of 45 minutes
            best = quantity_named(fact, text[start:end], earlier, cues)
    if best is None and not keyed and statement.revoke and cues is not None:
        for old in revoked_topic(fact, earlier, cues):  # "邮件那个不要了，不再发": all of it
            ledger.retire(old, fact)
    if best is None and not cued and _short_prohibition(fact.text, cues):
        said = rules + ledger.live("request")[-50:]
        found = named_alike(fact, fact.text, [r for r in said if not negated(r.text)])
        best = found if found is not None and FLAG_OR_VAR.search(fact.text) else None
    if best is None and not keyed:
        best = same_shape(fact, rules, cues, cued=cued)
    said_with = [f for f in ledger.facts[-40:] if f.source == fact.source]  # its message's
    if best is None and not keyed and cues is not None:
        soft = cued or cues.has("soft_change", fact.text) or cues.has("current", fact.text)
        requests = [] if cued else ledger.live("request")[-50:]  # "use npm" / "go with yarn"
        requests = [r for r in requests if r.source not in opening]
        keyed = _shape_changed(fact, rules + requests, cues, cued=soft)
        if bare_head(fact.text, cues):  # "01:30 clashes with X. 02:45 then": 01:30's rule
            instead = faulted_instead(fact, rules, cues, said_with)
            keyed = keyed if instead is None else instead
            keyed = keyed if len(keyed) == 1 else []  # of many rules, no subject says which
    if best is None and not keyed and cues is not None:
        keyed = _keyed_alike(fact, rules, cues) or reformatted(fact, rules)
    if best is None and not keyed and cues is not None:
        keyed = _moved(fact, rules, cues, cued=cued or cues.has("current", fact.text))
        siblings = rules + requests  # "Output reconciled.csv." is a request
        keyed = keyed or _earlier_alike(fact, siblings, lambda o: sibling_value(fact.text, o))
    if best is None and not keyed and cues is not None:  # "make it 2 hours", and after it
        keyed = bare_change(fact, rules, cues, said_with) if cued else []
        if cued and note_step(ledger, fact, keyed, cues):
            keyed = []  # "make that 02:30" after "next: …, cron at 03:00": noted on the step
        else:
            keyed = keyed or inherited(fact, rules, cues, ledger.replaced)
    if len(keyed) > 1:  # one key said of several parts: the one(s) this names
        keyed = [keyed[i] for i in nearest_parts(fact.text, [k.text for k in keyed], cues)]
    if not cued and adds(fact.text):
        keyed, best = [], None  # "we're adding a second target: Y": Y beside X, not for it
    if not cued and cues is not None and now_values(fact.text, cues):  # "the X is Y now":
        keyed = [o for o in keyed if said_now_of(fact.text, o.text, cues)]  # X's rule only
        best = best if best is not None and said_now_of(fact.text, best[1].text, cues) else None
    retired = [old for old in keyed if old.live]
    if best is not None and best[1].live and best[1] not in retired:
        retired.append(best[1])
    retired = [
        old
        for old in retired
        if not restates(fact.text, old.text)
        and not (statement.change and not statement.revoke and pin_kept(fact.text, old.text))
        and not (statement.revoke and partial_take_back(fact.text, old.text))
        and not (statement.revoke and agrees_with_ban(fact.text, old.text))
        and not (cued and cues is not None and agrees_with_pick(fact.text, old.text, cues))
        and not (cues and measures_apart(fact.text, old.text, lambda t: values(t, cues)))
    ]
    for old in retired:
        retire_rule(ledger, old, fact, cues, revoke=statement.revoke)
    if cues is not None:
        retired += retire_named_gone(ledger, fact, cues)
    named_new = names_new(fact.text, retired, cues, cued=cued)  # "drop X, use Y" names Y
    retire_echoes(
        ledger, fact, retired, new=named_new or (cues is not None and ditches(fact.text, cues))
    )
    for old in ledger.live("identifier") if renumbering else []:  # "/data/bars/v1", alone
        alone = old.source != fact.source and " " not in old.text  # not an error line quoting it
        if alone and renumbered(fact.text, old.text, cues, now, paths):
            ledger.retire(old, fact)


def _replaced_words(text: str, cues: Cues | None) -> set[str]:
    """The content words of the clause after a ``replaces`` cue ("use X rather than Y": Y's),
    the thing a rule must name to be the one replaced; none without such a cue."""
    span = cues.find("replaces", text) if cues is not None else None
    if span is None:
        return set()
    after = _CLAUSE.split(text[span[1] :])[0]
    return words_of(after) - FUNCTION_WORDS


def _moved(fact: Fact, rules: list[Fact], cues: Cues, *, cued: bool) -> list[Fact]:
    """The earlier rules whose location (host, IP, bucket) of one subject ``fact`` moves
    (:func:`~.hosts.moved`); with a cue or "now", the only rule giving one of that kind."""
    found = _earlier_alike(fact, rules, lambda old: moved(fact.text, old, cues))
    if found or not cued:
        return found
    found = _earlier_alike(fact, rules, lambda old: moved(fact.text, old, cues, cued=True))
    return found if len(found) == 1 else []


def _shape_changed(fact: Fact, rules: list[Fact], cues: Cues, *, cued: bool) -> list[Fact]:
    """The earlier rules whose subject ``fact`` gives another value of the same shape
    (:func:`~.implicit.shape_change`: "消息队列用 RabbitMQ" / "use Kafka for the queue
    instead"); none from the same message (two values said together are two facts)."""
    if not values(fact.text, cues):
        return []
    return _earlier_alike(fact, rules, lambda old: shape_change(fact.text, old, cues, cued=cued))


MAX_PROHIBITION_WORDS = 4  # "no --legacy-fonts", "不要 --legacy-fonts 了"


def _short_prohibition(text: str, cues: Cues | None = None) -> bool:
    """A negation and little else: with a flag or variable an earlier rule set, it ends it
    ("no more --x"); a negated take-back keeps it ("don't drop --strict", "别删 --strict")."""
    first = _CLAUSE.split(text)[0]  # "no more --x, bun doesn't need it"
    rest = FLAG_OR_VAR.sub(" ", first)
    for kind in ("revoke", "discard"):
        span = cues.find(kind, first) if cues is not None else None
        if span is not None and denied(first, span[0]):
            return False
    return negated(first) and len(rest.split()) <= MAX_PROHIBITION_WORDS


def _keyed_alike(fact: Fact, rules: list[Fact], cues: Cues) -> list[Fact]:
    """The earlier rules whose subject, named by its own words (:func:`~.keyvalue.same_key`:
    "水位线 80%" / "水位线调到 70%"), ``fact`` gives another value; none from its message."""
    return _earlier_alike(fact, rules, lambda old: same_key(fact.text, old, cues))


def _earlier_alike(fact: Fact, rules: list[Fact], alike: Callable[[str], bool]) -> list[Fact]:
    """The live rules of earlier messages (the newest 250) whose text is ``alike``; two
    prohibitions never replace each other ("never touch X", "never touch Y")."""
    prohibition = negated(fact.text)
    return [
        old
        for old in rules[-250:]
        if old is not fact
        and old.live
        and old.source != fact.source
        and not (prohibition and negated(old.text))
        and alike(old.text)
    ]


__all__ = ["supersede"]
