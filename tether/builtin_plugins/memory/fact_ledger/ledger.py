"""The fact ledger: typed facts with their source entry, live or retired, as JSON.

:meth:`Ledger.add` files one :class:`~.extract.Statement`: a restatement only moves
``last_seen``; a statement on the same subject as a live fact retires it — with an explicit
cue (switch to, instead of, 改为, 不再…) a loose likeness of the words is enough, without one
the same subject must get another value (:mod:`.subject`: the same key, a library of the
same kind, the same frame around another value; in another language, the one earlier value
of that shape). Two facts naming different subjects (two paths, two environment variables)
both stay live. A retired fact names what replaced it and is never live again; a value
changed twice keeps only the last. Identifiers found in a retired sentence retire with it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import tether.builtin_plugins.memory.fact_ledger.recalled as recalling
from tether.builtin_plugins.memory.fact_ledger.concepts import parts_differ
from tether.builtin_plugins.memory.fact_ledger.cues import Cues, default_cues
from tether.builtin_plugins.memory.fact_ledger.extract import Statement
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.faulted import wanting
from tether.builtin_plugins.memory.fact_ledger.keychange import goal_changes
from tether.builtin_plugins.memory.fact_ledger.keypair import terse_changes
from tether.builtin_plugins.memory.fact_ledger.nextsteps import file_next_step
from tether.builtin_plugins.memory.fact_ledger.notes import change_notes, retold_pairs, revisions
from tether.builtin_plugins.memory.fact_ledger.restated import restates_rule
from tether.builtin_plugins.memory.fact_ledger.schedules import whole_pairs
from tether.builtin_plugins.memory.fact_ledger.settinglike import setting_like, soft_value
from tether.builtin_plugins.memory.fact_ledger.slots import slots
from tether.builtin_plugins.memory.fact_ledger.subject import (
    PER_PART_KEYS,
    keyed_pairs,
    nearest_parts,
    per_part,
    qualified,
)
from tether.builtin_plugins.memory.fact_ledger.supersede import supersede
from tether.builtin_plugins.memory.fact_ledger.words import CLAUSES, normal

VERSION = 1
#: Kinds whose facts can replace one another (a decision may replace a constraint).
RULE_KINDS = frozenset({"constraint", "decision"})
MAX_LIVE = 400  # beyond this the oldest requests are dropped, with a record
MAX_DROPPED_RECORDS = 50  # the newest drops keep their words; all are counted


@dataclass
class Ledger:
    """Every fact seen so far, oldest first; ``dropped`` records facts dropped for size."""

    facts: list[Fact] = field(default_factory=list)
    dropped: list[dict[str, str]] = field(default_factory=list)
    counter: int = 0
    dropped_count: int = 0
    _index: dict[str, dict[str, Fact]] | None = field(default=None, repr=False, compare=False)
    _said: dict[tuple[str, str], Fact] = field(default_factory=dict, repr=False, compare=False)
    _clause_of: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _goal_changes: tuple[tuple[Any, ...], dict[str, str]] | None = field(
        default=None, repr=False, compare=False
    )

    # -- reading -----------------------------------------------------------------------------

    def _live_index(self) -> dict[str, dict[str, Fact]]:
        """Live facts by kind, then id (built once, kept up to date by the writers)."""
        if self._index is None:
            self._index = {}
            for fact in self.facts:
                if fact.live:
                    self._index.setdefault(fact.kind, {})[fact.id] = fact
                    self._said[(fact.kind, normal(fact.text))] = fact
        return self._index

    def _unlist(self, fact: Fact) -> None:
        self._live_index().get(fact.kind, {}).pop(fact.id, None)
        key = (fact.kind, normal(fact.text))
        if self._said.get(key) is fact:
            del self._said[key]

    def live(self, *kinds: str) -> list[Fact]:
        index = self._live_index()
        if len(kinds) == 1:
            return list(index.get(kinds[0], {}).values())
        return [f for f in self.facts if f.live and (not kinds or f.kind in kinds)]

    def _live_rules(self) -> Iterator[Fact]:
        """The live rules, read lazily off the index (no pass over every fact)."""
        return (fact for kind in RULE_KINDS for fact in self.live(kind))

    def get(self, fact_id: str) -> Fact | None:
        return next((f for f in self.facts if f.id == fact_id), None)

    def goal(self) -> Fact | None:
        return next((f for f in self.facts if f.kind == "goal" and f.live), None)

    def goal_note(self) -> str:
        """`` (changed later: "4.2" changed to "5.0")`` when later facts gave a value the
        goal states another one ("" when none did): the goal stays verbatim, never current
        with an old value."""
        goal = self.goal()
        if goal is None:
            return ""
        changes = self.goal_changes()
        shown = change_notes(changes, goal.text)
        revised = [note for old, note in revisions(self, goal.text).items() if old not in changes]
        shown = "; ".join(part for part in (shown, *revised) if part)
        return f" (changed later: {shown})" if shown else ""

    def goal_changes(self) -> dict[str, str]:
        """``{old value: newest value}`` for the goal's values later facts changed (read
        once per state of the ledger: every shown fact quoting one is told too)."""
        goal = self.goal()
        if goal is None:
            return {}
        state = (goal.id, *((f.id, f.kind, f.status) for f in self.facts))
        if self._goal_changes is not None and self._goal_changes[0] == state:
            return dict(self._goal_changes[1])
        changes = goal_changes(self, default_cues())  # by key and shape, chains followed
        rules = self.live("constraint") + self.live("decision")
        wholes = {
            o: n
            for f in rules
            if f.source != goal.source
            for o, n in whole_pairs(f.text, goal.text, default_cues())
        }
        if wholes:  # "0 2 * * *" → "30 3 * * *", not "0" → "30"
            changes = {o: n for o, n in changes.items() if not any(o in w for w in wholes)}
            changes.update(wholes)
        for fact in rules:
            for old, new in keyed_pairs(fact.text, goal.text, default_cues()):
                if not any(old in said or said in old for said in changes):
                    changes[old] = new
            if fact.source != goal.source:
                for old, new in terse_changes(fact.text, goal.text) + retold_pairs(
                    fact.text, goal.text
                ):
                    if not any(old in said or said in old for said in changes):
                        changes[old] = new
        self._goal_changes = (state, dict(changes))
        return changes

    def replaced(self, fact: Fact) -> list[Fact]:
        """The retired facts ``fact`` replaced, directly or through a chain."""
        out: dict[str, Fact] = {}  # by id: no field-by-field compare of facts
        todo = [*fact.replaces]
        while todo:
            old = self.get(todo.pop())
            if old is not None and old.id not in out:
                out[old.id] = old
                todo.extend(old.replaces)
        return list(out.values())

    # -- writing -----------------------------------------------------------------------------

    def new_fact(self, kind: str, text: str, source: str, **extra: Any) -> Fact:
        self.counter += 1
        fact = Fact(f"f{self.counter}", kind, text, source, source, source, **extra)
        self.facts.append(fact)
        self._live_index().setdefault(kind, {})[fact.id] = fact
        self._said[(kind, normal(text))] = fact
        return fact

    def new_clause(self, parent: Fact, text: str, **extra: Any) -> Fact:
        """A clause of ``parent`` that stays live on its own: its kind and source, seen when it
        was, and listed right after it and its earlier clauses, so that the facts stay in the
        order they were said (what came later still reads as later)."""
        fact = self.new_fact(parent.kind, text, parent.source, **extra)
        fact.first_seen, fact.last_seen = parent.first_seen, parent.last_seen
        self.facts.pop()
        at = self.facts.index(parent) + 1
        while at < len(self.facts) and self._clause_of.get(self.facts[at].id) == parent.id:
            at += 1
        self._clause_of[fact.id] = parent.id
        self.facts.insert(at, fact)
        return fact

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None:
        self._unlist(old)
        old.status = status
        if new is not None:
            old.replaced_by = new.id
            new.replaces.append(old.id)
        if old.kind != "identifier":  # its identifiers, and those only it still said
            for child in self.live("identifier"):
                orphan = child.text in old.text and not self._live_parent(child)
                if (child.parent == old.id or orphan) and not self._said_elsewhere(child):
                    self._unlist(child)
                    child.status, child.replaced_by = status, new.id if new else ""

    def _live_parent(self, identifier: Fact) -> bool:
        parent = self.get(identifier.parent) if identifier.parent else None
        return parent is None or parent.live

    def _said_elsewhere(self, identifier: Fact) -> bool:
        """Whether a live fact names ``identifier`` in force (not "dt=1e-4 is too high")."""
        said, kinds = identifier.text, ("identifier", "said")
        return any(
            f.live and f.kind not in kinds and said in f.text and not wanting(said, f.text)
            for f in self.facts
        )

    def add(self, statement: Statement, cues: Cues | None = None) -> Fact:
        """File ``statement``: a restatement, a new fact, or one replacing live facts."""
        kind, text = statement.kind, statement.text
        if (
            kind == "request"
            and cues is not None
            and (
                self._soft_or_setting(text, cues)
                or restates_rule(text, statement.source, self._live_rules(), cues)
            )
        ):  # "let's do Postgres for the database", "the sim goes to a 60 Hz tick"
            kind = "constraint"  # a value in force
            statement = replace(statement, kind=kind)
        self._live_index()
        same = self._said.get((kind, normal(text)))
        if same is not None and same.live:
            same.last_seen = statement.source or same.last_seen
            return same
        fact = self.new_fact(kind, text, statement.source, key=statement.key)
        if kind == "identifier":
            parent = next(
                (
                    self._said[(k, normal(statement.parent))]
                    for k in ("constraint", "decision", "next_step", "request")
                    if (k, normal(statement.parent)) in self._said
                ),
                None,
            )
            fact.parent = parent.id if parent else ""
            if parent is None and statement.parent and self._retired_here(statement):
                self.retire(fact, None)  # its sentence only ended a value ("X can go.")
                return fact
            if statement.key and recalling.recalled(statement):  # "之前那个 retries=3 太少"
                by = recalling.recalled_by(self, statement)
                return recalling.file_recalled(self, fact, parent, by)
            if statement.key:
                olds = [
                    old
                    for old in self.live("identifier")
                    if old is not fact
                    and old.key == statement.key
                    and not self._other_thing(old, statement, cues)
                ]
                # said of several parts (counting those its sentence replaced): this one's
                done = [
                    f
                    for f in self.facts
                    if parent is not None and f.kind == "identifier" and f.key == statement.key
                    and f.replaced_by == parent.id
                ]  # fmt: skip
                if olds and len(done + olds) > 1 and statement.parent:
                    texts = [self._parent_text(old) for old in done + olds]
                    near = [(done + olds)[i] for i in nearest_parts(statement.parent, texts, cues)]
                    olds = [old for old in olds if old in near]
                for old in olds:
                    self.retire(old, fact)
                    self._retire_parent(old, parent)
            return fact
        if kind == "error" and statement.key:
            for old in self.live("error"):
                if old is not fact and old.key == statement.key:
                    self.retire(old, fact)
            return fact
        if kind == "next_step":  # the latest stated next step is the one in force
            if file_next_step(self, fact, statement, cues):
                self._index = None  # a kind changed: filed again under it, in order
        elif kind in RULE_KINDS:
            supersede(self, fact, statement, cues)
        return fact

    def _retired_here(self, statement: Statement) -> bool:
        """Whether the sentence ``statement`` (an identifier) was found in was filed from
        the same entry and retired at once."""
        said = normal(statement.parent)
        return any(
            f.source == statement.source and not f.live and normal(f.text) == said
            for f in self.facts[-8:]
        )

    @staticmethod
    def _soft_or_setting(text: str, cues: Cues) -> bool:
        return soft_value(text, cues) or setting_like(text, cues)

    def _other_thing(self, old: Fact, statement: Statement, cues: Cues | None) -> bool:
        """Two values of one key said in one sentence ("2 locally, 8 in prod") or of two
        things (:func:`~.subject.qualified`, :func:`~.subject.per_part`): both stay live."""
        parent = self.get(old.parent) if old.parent else None
        if parent is None or not statement.parent:
            return False
        if parent.text == statement.parent:
            return True
        if cues is not None and parts_differ(statement.parent, parent.text, cues.concepts):
            return True  # "Spark 3.3 on the old cluster" / "3.4 on the new cluster"
        new_slot = next((s for s in slots(statement.parent) if s.text == statement.text), None)
        old_slot = next((s for s in slots(parent.text) if s.text == old.text), None)
        if new_slot is None or old_slot is None:
            return False
        if old_slot.key.startswith(PER_PART_KEYS) and old_slot.key == new_slot.key:
            return per_part(statement.parent, parent.text, new_slot, old_slot, cues)
        if old_slot.shape not in ("set", "flag"):
            return False
        return qualified(statement.parent, parent.text, new_slot, old_slot, cues)

    def _parent_text(self, identifier: Fact) -> str:
        parent = self.get(identifier.parent) if identifier.parent else None
        return parent.text if parent is not None else identifier.text

    def _retire_parent(self, old: Fact, new_parent: Fact | None) -> None:
        """The sentence that held a replaced identifier is no longer current; its other
        clauses (verbatim parts without the old value) stay live as facts of their own."""
        parent = self.get(old.parent) if old.parent else None
        if parent is None or not parent.live or parent is new_parent:
            return
        self.retire(parent, new_parent)
        for clause in CLAUSES.split(parent.text):
            clause = clause.strip(" .")
            if len(clause) >= 4 and old.text not in clause and len(clause.split()) >= 2:
                self.new_clause(parent, clause, note="")

    def resolve(self, key: str) -> None:
        """A later success of a failing call: its error fact is resolved."""
        for old in self.live("error"):
            if old.key == key:
                self._unlist(old)
                old.status = "resolved"

    def bound(self, max_live: int = MAX_LIVE) -> None:
        """Keep at most ``max_live`` live facts: the oldest requests go first, recorded."""
        live = self.live()
        excess = len(live) - max_live
        for fact in (f for f in live if f.kind in ("request", "identifier")):
            if excess <= 0:
                break
            self._unlist(fact)
            fact.status = "dropped"
            self.dropped.append({"id": fact.id, "kind": fact.kind, "text": fact.text[:200]})
            self.dropped_count += 1
            excess -= 1
        del self.dropped[:-MAX_DROPPED_RECORDS]

    def drop(self, fact: Fact) -> None:
        """``fact`` is dropped for size: no longer live, its words kept in a record."""
        self._unlist(fact)
        fact.status = "dropped"
        self.dropped.append({"id": fact.id, "kind": fact.kind, "text": fact.text[:200]})
        self.dropped_count += 1
        del self.dropped[:-MAX_DROPPED_RECORDS]

    def drop_missing(self, present: Any) -> bool:
        """Mark live requests that ``present(text)`` says a summary lacks as dropped (with a
        record); True when any was."""
        dropped = False
        for fact in self.live("request"):
            if not present(fact.text):
                self._unlist(fact)
                fact.status = "dropped"
                self.dropped.append({"id": fact.id, "kind": fact.kind, "text": fact.text[:200]})
                self.dropped_count += 1
                dropped = True
        del self.dropped[:-MAX_DROPPED_RECORDS]
        return dropped

    # -- JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "counter": self.counter,
            "droppedCount": self.dropped_count,
            "facts": [
                {k: v for k, v in asdict(f).items() if v not in ("", [])} for f in self.facts
            ],
            "dropped": list(self.dropped),
        }

    @classmethod
    def from_json(cls, data: Any) -> Ledger | None:
        """The ledger stored in ``data`` (``None`` if it is not one this version reads)."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            return None
        facts = []
        names = set(Fact.__dataclass_fields__)
        for item in data.get("facts") or []:
            if isinstance(item, dict) and {"id", "kind", "text"} <= set(item):
                facts.append(Fact(**{k: v for k, v in item.items() if k in names}))
        dropped = [d for d in data.get("dropped") or [] if isinstance(d, dict)]
        counter = data.get("counter")
        count = data.get("droppedCount")
        return cls(
            facts,
            dropped,
            counter if isinstance(counter, int) else len(facts),
            count if isinstance(count, int) else len(dropped),
        )


__all__ = ["Fact", "Ledger"]
