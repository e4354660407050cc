"""Building a compaction's ledger: the previous one (from the previous compaction's
``details``) plus the facts of the messages summarized now.

A previous compaction without a ledger in its details (written by pi, or before the ledger
existed) is read once from its summary text: its goal, constraints, decisions, next steps and
requests become facts. From then on the ledger travels in ``details`` and no summary is parsed
for facts again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tether.builtin_plugins.memory.fact_ledger.answers import (
    answer_statements,
    choice_key,
    is_answer,
    offers_choice,
    retire_answered,
    settled_names,
)
from tether.builtin_plugins.memory.fact_ledger.calls import call_target, error_key
from tether.builtin_plugins.memory.fact_ledger.comments import (
    comment_rules,
    pasted_notes,
    setting_rule,
)
from tether.builtin_plugins.memory.fact_ledger.cues import Cues, cues_for
from tether.builtin_plugins.memory.fact_ledger.delegated import delegating, file_delegated
from tether.builtin_plugins.memory.fact_ledger.errorline import failure_lines
from tether.builtin_plugins.memory.fact_ledger.extract import (
    Statement,
    classify,
    flat,
    sentences,
    text_of,
    user_statements,
)
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.faultswap import retire_faults
from tether.builtin_plugins.memory.fact_ledger.goal import (
    asks,
    goal_parts,
    goal_sentences,
    verbatim,
)
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifiers
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.namedpick import retire_for_named_pick
from tether.builtin_plugins.memory.fact_ledger.oldnamed import retire_named_old
from tether.builtin_plugins.memory.fact_ledger.picked import (
    ACCEPTED,
    file_pick,
    retire_bare_picks,
)
from tether.builtin_plugins.memory.fact_ledger.proposals import offered, proposed
from tether.builtin_plugins.memory.fact_ledger.revert import restore_reverted
from tether.builtin_plugins.memory.fact_ledger.revoke import revoke_named
from tether.builtin_plugins.memory.fact_ledger.samekey import promote, retire_same_key
from tether.builtin_plugins.memory.fact_ledger.seen import file_seen
from tether.builtin_plugins.memory.fact_ledger.terse import bare_ack, thanks
from tether.builtin_plugins.memory.fact_ledger.whole import keep_whole, retire_broken_wholes
from tether.builtin_plugins.memory.fact_ledger.wondered import change_questions, settle_questions
from tether.builtin_plugins.memory.fact_ledger.words import STOP, WIDE, words_of

MAX_GOAL = 2000
_ACCEPTED = re.compile(r'^"(.*)"(?: \((proposed by the assistant, accepted)\))?$', re.DOTALL)
_CHANGED_NOTE = re.compile(r" \(changed [^()]*(?:\([^()]*\)[^()]*)*\)$")
_REQUEST = re.compile(r'^Request: "(.*)"$', re.DOTALL)


def stored_ledger(details: Mapping[str, Any] | None) -> Ledger | None:
    """The ledger a compaction entry's ``details`` carry (``details.gate.ledger``), if any."""
    if not isinstance(details, Mapping):
        return None
    gate = details.get("gate")
    data = gate.get("ledger") if isinstance(gate, Mapping) else None
    return Ledger.from_json(data if data is not None else details.get("ledger"))


def _unquote(item: str) -> tuple[str, str]:
    """An item's words (verbatim, quotes kept) and its note ("proposed …, accepted")."""
    item = _CHANGED_NOTE.sub("", item.strip())
    match = _ACCEPTED.match(item)
    if match and match.group(2):
        return match.group(1), match.group(2)
    return item, ""


def from_summary(text: str, cues: Cues) -> Ledger:
    """A ledger read once from a summary that has none (pi's or an older tether's): its goal,
    constraints, decisions, next steps and requests (its progress is not facts)."""
    from tether.builtin_plugins.memory.offline_summarizer.sections import parse_summary

    checkpoint = parse_summary(text)
    ledger = Ledger()
    if checkpoint.goal:
        goal = "\n".join(_unquote(g)[0] for g in checkpoint.goal)
        ledger.new_fact("goal", goal, "previous summary")
    for kind, items in (("constraint", checkpoint.constraints), ("decision", checkpoint.decisions)):
        for item in items:
            words, note = _unquote(item)
            fact = ledger.add(Statement(kind, words, "previous summary"), cues)
            fact.note = note
    for item in checkpoint.next_steps:
        words, _ = _unquote(item)
        if not words.startswith("Continue the unanswered request"):
            ledger.add(Statement("next_step", words, "previous summary"), cues)
    for item in checkpoint.done:
        match = _REQUEST.match(item.strip())
        if match:
            ledger.add(Statement("request", flat(match.group(1)), "previous summary"), cues)
    return ledger


MAX_GREETING = 2  # words of a greeting ("Hi there!"); CJK characters: twice as many


def greeting(text: str, statements: Sequence[Statement], cues: Cues) -> bool:
    """A first message that only greets ("Hi there!", "您好"): a word or two, no digit, no
    full stop, no task, no goal, no fact."""
    short = flat(text)
    wide = len(WIDE.findall(short))
    size = wide if wide else len(short.split())
    return (
        size <= (2 * MAX_GREETING if wide else MAX_GREETING)
        and not short.endswith(".")
        and not any(ch.isdigit() for ch in short)
        and all(asks(s, cues) for s in statements)
        and not any(cues.has(kind, short) for kind in ("task", "goal", "accept", "proposal"))
    )


MAX_BARE = 24  # characters: a sentence this short next to a filler word says nothing more


MAX_FILLER_CONTENT = 3  # content words beside the filler of a sentence that only keeps going


def _bare(sentence: str, cues: Cues) -> bool:
    """A filler sentence ("Thanks!", "继续吧", "ok go on"), or one too short to state a fact
    (a wide character counts twice); not one stating something beside its filler word
    ("👍 tag it v0.9.1 …", "嗯，精确解没必要，启发式够了") or a change ("行，改成每月调仓")."""
    if any(cues.has(kind, sentence) for kind in ("change", "revoke")):
        return False  # "行，改成每月调仓": short, and a change
    if len(flat(sentence)) + len(WIDE.findall(sentence)) <= MAX_BARE or thanks(sentence, cues):
        return True
    if not cues.has("filler", sentence) or any(identifiers(sentence)):
        return False
    if not WIDE.search(sentence):
        return True  # "Continue (progress check 1): keep going with the task and report."
    rest = words_of(cues.blank(sentence, ("filler", "accept"))) - STOP  # 嗯 opens a thought
    return len(rest) <= MAX_FILLER_CONTENT


def _describe(name: str, target: str) -> str:
    first = target.splitlines()[0] if target else ""
    shown = flat(first, 160) + (" …" if "\n" in target else "")
    return f"`{name}` on `{shown}`" if shown else f"`{name}`"


class _Reader:
    """One pass over the messages, filing what they state into ``ledger``."""

    def __init__(self, ledger: Ledger, cues: Cues) -> None:
        self.ledger, self.cues = ledger, cues
        self.calls: dict[str, tuple[str, Any]] = {}
        self.proposals: list[str] = []
        self.asked = False  # the last assistant message offered a choice (:mod:`.answers`)
        self.choice = ""  # the options it named (``choice:a|b``)
        self.offer = ""  # its last text, where it may list options to pick (:mod:`.picked`)
        self.answered = any(f.key.startswith("choice:") for f in ledger.facts)
        self.had_goal = any(f.kind == "goal" for f in ledger.facts)
        self.wondered: list[Fact] = []  # the last user message's change questions
        self.delegated: list[Fact] = []  # its changes that leave the value to the assistant

    def user(self, text: str, source: str) -> None:
        if not text.strip():
            return
        short, offer, wondered, self.wondered = flat(text, 400), self.offer, self.wondered, []
        chosen, self.offer = file_pick(self.ledger, short, source, offer, self.cues), ""
        if chosen is not None:
            self.proposals = []  # the option picked, not the whole offer
        if self.proposals and len(short) <= 200 and self.cues.has("accept", short):
            for proposal in self.proposals:  # "bump it to 22?": a change once accepted
                proposal = offered(proposal, self.cues)
                change = self.cues.has("change", proposal)
                said = Statement("decision", proposal, source, change)
                fact = self.ledger.add(said, self.cues)
                fact.note = ACCEPTED
                for token, key in identifiers(proposal):  # "grafana/grafana:11.0.0 …": its tag
                    named = Statement("identifier", token, source, key=key, parent=proposal)
                    self.ledger.add(named, self.cues)  # replaces the image's earlier one
            retire_for_named_pick(self.ledger, short, offer, source, [], self.cues)
            offer = ""  # its question is answered
        self.proposals = []
        prompted, self.asked = self.asked, False
        if bare_ack(text, self.cues):
            return  # "k", "ok", "go on", "继续": no fact
        answer = prompted and is_answer(text, self.cues)
        if not answer and len(short) <= 120 and self.cues.has("filler", short):
            said = sentences(text)
            if not any(classify(s, self.cues) != "request" for s in said) and all(
                _bare(s, self.cues) for s in said
            ):
                return  # "continue", "谢谢，继续": not "谢谢分析。自建 X 表吧，少一个依赖。"
        statements = settled_names(user_statements(text, source, self.cues), offer)
        if len(short) <= 120 and self.cues.has("filler", short):
            statements = [  # "谢谢分析。" before what the message states: no fact
                s
                for s in statements
                if not (len(s.text) <= MAX_BARE and thanks(s.text, self.cues))
                or s.kind not in ("constraint", "request")
            ] or statements
        goal_message = False
        if not self.ledger.live("goal") and not self.had_goal:
            if greeting(text, statements, self.cues):
                return  # "Hi!", "你好": the goal comes with the next message
            self.had_goal, goal_message = True, True
            asked, kept = goal_sentences(statements, self.cues)
            goal = flat(verbatim(text, asked) if asked else text, MAX_GOAL)
            goal_fact = self.ledger.new_fact("goal", goal, source)
            statements = [s for s in statements if s not in asked or s in kept]
            for part in goal_parts(asked, kept, goal):
                fact = self.ledger.add(Statement("constraint", part.text, source), self.cues)
                fact.parent = goal_fact.id
        elif answer:  # "y. x is overkill, no thanks" after "x or y?": one decision, verbatim
            statements = answer_statements(text, statements, source, self.cues, self.choice)
            self.answered = self.answered or bool(self.choice)
        rules = comment_rules(text)  # "# no public IPs on workers, ever." in a pasted config
        if rules:
            said = " ".join(s.text for s in statements)
            for line in (line for line in rules if flat(line) not in said):
                prose = setting_rule(line)  # "catchup: false  # never backfill": the comment
                statements.append(Statement("constraint", prose or line, source))
                if prose:
                    statements.append(Statement("said", line, source))
        noted = pasted_notes(text)  # "// the toplevel one has alt contigs", "replicaCount: 3"
        if noted:
            said = " ".join(s.text for s in statements)
            statements += [Statement("said", line, source) for line in noted if line not in said]
        filed = [self.ledger.add(statement, self.cues) for statement in promote(statements)]
        settle_questions(self.ledger, wondered, filed)  # "… instead?", then "go with X"
        self.wondered = change_questions(filed, self.cues)
        self.delegated = delegating(filed, self.cues)
        if self.answered:
            retire_answered(self.ledger, filed, self.cues)
        revoke_named(self.ledger, statements, source, self.cues)
        retire_same_key(self.ledger, source, self.cues)
        retire_named_old(self.ledger, source, short, self.cues)
        retire_faults(self.ledger, source, flat(text, 2000), self.cues)
        restore_reverted(self.ledger, source, self.cues)
        if chosen is not None:
            retire_bare_picks(self.ledger, chosen, self.cues)
        elif offer:  # "sure, Parquet it is" after "… Switch the output format?"
            retire_for_named_pick(self.ledger, short, offer, source, filed, self.cues)
        if not goal_message:
            keep_whole(self.ledger, short, [f for f in filed if f.kind != "identifier"])

    def assistant(self, message: Mapping[str, Any]) -> None:
        self.proposals = []
        texts = [b for b in message.get("content") or [] if isinstance(b, dict)]
        said = next(
            (str(b.get("text") or "") for b in reversed(texts) if b.get("type") == "text"), ""
        )
        file_delegated(self.ledger, self.delegated, said, self.cues)
        self.delegated = []
        self.asked = offers_choice(said)  # the last text: where a question closes the message
        self.offer = said
        self.choice = choice_key(said) if self.asked else ""
        for block in texts:
            if block.get("type") == "text":
                self.proposals += proposed(str(block.get("text") or ""), self.cues)
            elif block.get("type") == "toolCall":
                name = str(block.get("name", ""))
                self.calls[str(block.get("id", ""))] = (name, block.get("arguments"))
        if message.get("stopReason") == "error":
            line = flat(str(message.get("errorMessage") or "Unknown error"))
            self._fail("model", "", [line], "")

    def _fail(self, name: str, target: str, lines: Sequence[str], source: str) -> None:
        """The error lines of one failure (:func:`.errorline.failure_lines`) as open errors
        of its call: they replace the call's earlier ones; its next success resolves them."""
        key = error_key(name, target)
        first = self.ledger.add(Statement("error", lines[0], source, key=key), self.cues)
        first.note = _describe(name, target)
        filed = [first]
        for line in lines[1:]:  # keyed once filed: siblings do not replace each other
            fact = self.ledger.add(Statement("error", line, source), self.cues)
            if not fact.key and fact.source == source:
                fact.key, fact.note = key, first.note
            filed.append(fact)
        for old in self.ledger.live("error"):  # an earlier failure's lines this one lacks
            if old.key == key and old not in filed:
                self.ledger.retire(old, first)

    def tool_result(self, message: Mapping[str, Any], source: str) -> None:
        call_id = str(message.get("toolCallId", ""))
        name, args = self.calls.get(call_id, (str(message.get("toolName") or "tool"), None))
        target = call_target(name, args)
        if message.get("isError"):
            self._fail(name, target, failure_lines(text_of(message.get("content"))), source)
            return
        self.ledger.resolve(error_key(name, target))
        file_seen(self.ledger, text_of(message.get("content")), f"seen:{name}:{target}", source)
        if name in ("edit", "write") and target:  # an edit also clears a failed write
            self.ledger.resolve(error_key("write" if name == "edit" else "edit", target))

    def bash(self, message: Mapping[str, Any], source: str) -> None:
        if message.get("excludeFromContext"):
            return
        command = str(message.get("command", "")).strip()
        code = message.get("exitCode")
        if message.get("cancelled"):
            self._fail("bash", command, ["cancelled by the user"], source)
        elif code not in (0, None):
            first, *more = failure_lines(str(message.get("output", "")))
            self._fail("bash", command, [f"exit code {code}: {first}", *more], source)
        else:
            self.ledger.resolve(error_key("bash", command))
            file_seen(self.ledger, str(message.get("output", "")), f"seen:bash:{command}", source)


def build_ledger(
    messages: Sequence[Mapping[str, Any]],
    entry_ids: Sequence[str] = (),
    *,
    previous_details: Mapping[str, Any] | None = None,
    previous_summary: str | None = None,
    cue_tables: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
) -> Ledger:
    """The ledger after ``messages`` (``entry_ids``: their entry ids, same order)."""
    cues = cues_for(cue_tables)
    ledger = stored_ledger(previous_details)
    if ledger is None:
        ledger = from_summary(previous_summary, cues) if previous_summary else Ledger()
    reader = _Reader(ledger, cues)
    for index, message in enumerate(messages):
        source = entry_ids[index] if index < len(entry_ids) else ""
        role = message.get("role")
        if role == "user":
            reader.user(text_of(message.get("content")), str(source))
        elif role == "assistant":
            reader.assistant(message)
        elif role == "toolResult":
            reader.tool_result(message, str(source))
        elif role == "bashExecution":
            reader.bash(message, str(source))
    retire_broken_wholes(ledger)
    ledger.bound()
    return ledger


def branch_ledger(
    path: Sequence[Mapping[str, Any]],
    cue_tables: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
) -> Ledger:
    """The ledger in force at the end of ``path`` (a branch, root first): the newest
    compaction's, continued with the messages it kept and those after it."""
    last = max((i for i, e in enumerate(path) if e.get("type") == "compaction"), default=-1)
    entries: list[Mapping[str, Any]] = list(path)
    details, summary = None, None
    if last >= 0:
        compaction = path[last]
        details, summary = compaction.get("details"), compaction.get("summary")
        kept = compaction.get("firstKeptEntryId")
        start = next((i for i, e in enumerate(path) if e.get("id") == kept), last)
        entries = [*path[start:last], *path[last + 1 :]]
    messages = [
        e for e in entries if e.get("type") == "message" and isinstance(e.get("message"), dict)
    ]
    return build_ledger(
        [e["message"] for e in messages],
        [str(e.get("id", "")) for e in messages],
        previous_details=details if isinstance(details, Mapping) else None,
        previous_summary=summary if isinstance(summary, str) else None,
        cue_tables=cue_tables,
    )


__all__ = [
    "ACCEPTED",
    "MAX_GOAL",
    "branch_ledger",
    "build_ledger",
    "from_summary",
    "stored_ledger",
]
