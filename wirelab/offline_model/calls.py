"""Stage 5b, several calls from one intent: frames, and lists where the tool takes one value.

    >>> weather = Tool("get_weather", "Current weather in a city.", {"type": "object", "properties": {
    ...     "city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}})
    >>> bind_all(weather, "weather in Paris and Rome")
    [{'city': 'Paris'}, {'city': 'Rome'}]

- **frames**: the text gives a whole set of values again ("the first leg, 40 km in 2 hours; the
  second, 65 km in 3 hours"); `frames.cuts` finds where each begins, and each is bound on its own
  text after the few words that lead into the first ("Check prices for"). A later frame keeps
  what the one before said and it does not ("…, then the same for pine"), once per call of a list
  before it ("for Oslo and Rome today, and for tomorrow": four calls); its unmarked words replace
  only unmarked words, or words after the same word (在A订…，在B订…). A value said after the last
  frame's first sentence, or after a comma that says so ("…, both insured"), for a parameter no
  earlier frame filled, holds for every frame, as does a required one only the last frame says
  ("5 GBP and 8 USD to CNY").
- **lists**: a frame lists values for a parameter that takes one ("Paris and Rome"). A list first
  fills parameters that each take one of its values ("a 6 by 8 grid" is one call), else makes a
  call per value; two lists go in step after "respectively", else make every combination ("tea
  and coffee in cups and mugs" is four). A listed name goes to the list's parameter when that
  fits it clearly better ("museums near Lyon and Turin"); options of an enum count too. Two names
  or dates parted by a comma alone are one thing; a list parameter's list ("[4, 8, 15]") is not
  spread. A single value the call did not need is context, never a call.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass
from typing import Any
from unicodedata import category

from wirelab.offline_model.binding import TIMES, bind, bind_evidence, fill_object
from wirelab.offline_model.evidence import IN_STEP, Binding, Evidence, Words
from wirelab.offline_model.fit import PREPOSITIONS, SPECIFIC, counted_each, score, takes_counts, typed_value
from wirelab.offline_model.frames import CLEARLY, cuts, written_lists
from wirelab.offline_model.intents import AND, STRONG, THEN
from wirelab.offline_model.lexicon import ARTICLES, count_of, lexicon_list
from wirelab.offline_model.normalize import Token, clean, segment
from wirelab.offline_model.request import Tool
from wirelab.offline_model.slots import Slot, slots_of
from wirelab.offline_model.values import Value

MAX_CALLS = 8  # calls one intent may become
LOOSE = ("text", "array", "object", "boolean")  # kinds that hold a list as one value
BETTER = 0.5  # how much better a list's parameter must fit a listed value to take it
JOINTS = ("and ", "then ", "also ", "while ", "plus ")
LEAD_WORDS = 12  # the most words that lead into every frame
FOR_EACH = lexicon_list("for_each")  # read in the six words after a comma


@dataclass(frozen=True)
class Bound:
    """The arguments of one call, and the parameters only unmarked words filled (a phrase
    such as "same period", a number word), which context says better when it can."""

    arguments: dict[str, Any]
    unmarked: frozenset[str] = frozenset()
    frame: int = 0  # which frame of its intent the call comes from
    before: frozenset[tuple[str, str]] = frozenset()  # each parameter, and the word before its value


def bind_all(tool: Tool, text: str, *, guess: bool = True) -> list[dict[str, Any]]:
    """One set of arguments per call the text asks for (see the module docstring); required
    parameters no call fills are guessed from the whole text when `guess`."""
    calls = [bound.arguments for bound in bind_calls(tool, text)]
    return [guessed(tool, text, arguments) for arguments in calls] if guess else calls


def guessed(tool: Tool, text: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments, with the required ones they lack guessed from `text`, in schema order."""
    missing = set(tool.parameters.get("required", []) or []) - set(arguments)
    extra = {k: v for k, v in bind(tool, text).items() if k in missing} if missing else {}
    return in_order(tool, {**extra, **arguments})


def in_order(tool: Tool, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments in the order the schema lists its properties."""
    order = [k for k in tool.parameters.get("properties", {}) if k in arguments]
    return {k: arguments[k] for k in order} | {k: v for k, v in arguments.items() if k not in order}


def bind_calls(tool: Tool, text: str, whole: Binding | None = None) -> list[Bound]:
    """The calls of one intent, nothing guessed: frames bound one by one, lists spread. `whole`
    is binding's reading of all of `text`, when the caller has it: the frames and a frame
    that is all of the text read it instead of binding again."""
    text = clean(text)
    whole = whole or bind_evidence(tool, text)
    starts, first = cuts(tool, text, whole)
    bounds = [0, *starts, len(text)]
    lead = _lead(tool, text[:first]) if starts else ""
    frames: list[list[Bound]] = []
    shared: dict[str, Any] = {}
    for number, (start, end) in enumerate(itertools.pairwise(bounds)):
        last = number > 0 and number == len(bounds) - 2
        part = text[_past_joint(text, start, end) : end]
        part = _led(lead, part) if number else part
        found, later = _spread(tool, whole if part == text else bind_evidence(tool, part), tail=last)
        if frames:
            found = repeat(frames[-1], found)
            shared = {k: v for k, v in later.items() if all(k not in f[0].arguments for f in frames)}
        frames.append(found)
    required = set(tool.parameters.get("required", []) or []) - set(frames[0][0].arguments)
    shared |= {k: v for k, v in frames[-1][0].arguments.items() if k in required}  # "5 GBP and 8 USD to CNY"
    calls = [(number, bound) for number, found in enumerate(frames) for bound in found]
    # a count a parameter took is no repeat: "flip a coin 5 times" gives `flips` 5, not five calls
    if len(calls) == 1 and (times := asked(tool, text, whole[0])) not in calls[0][1].arguments.values():
        calls *= times  # one call asked for again; of several, "three times" counts them
    calls = calls[:MAX_CALLS]
    return [Bound(in_order(tool, {**shared, **b.arguments}), b.unmarked, n, b.before) for n, b in calls]


def asked(tool: Tool, text: str, evidence: Evidence) -> int:
    """How many calls the text asks for: its count of times, else its count of what the tool does one of
    ("draw two cards" for "Draw one card": 2), unless a parameter takes counts ("find 5 recipes", `limit`)
    or it is more than calls one intent may become."""
    if (times := repeats(text)) > 1 or not evidence.each:
        return times
    counts = [v.value for v in evidence.values if isinstance(v.value, int) and counted_each(evidence, v)]
    if not counts or max(counts) > MAX_CALLS or any(map(takes_counts, _slots(tool).values())):
        return times
    return max(counts)


def repeats(text: str) -> int:
    """How many times the text asks for its calls: "roll two dice three times" 3, "ping it twice, then
    …" 2, 掷三次骰子 3; 1 when it says no count of times, or one that more words make a factor or a
    rate ("three times as long", "twice a day", "3 times 4", 每天三次, 2的3次方): in English the
    count ends its clause.

    >>> repeats("Roll two dice three times"), repeats("twice a day"), repeats("查两遍"), repeats("3 times 4")
    (3, 1, 2, 1)
    """
    tokens = [*segment(text), Token("", "", "punct", len(text), len(text))]
    for k in range(len(tokens) - 1):
        count, after = _times_said(tokens, k), tokens[k + 1]
        if tokens[k].kind == "han":
            rate = any(t.text.startswith("每") or t.text[-1] in "天周月年" for t in tokens[max(k - 2, 0) : k])
            ends = not rate and not after.text.startswith(("方", "数"))  # 每天三次, 2的3次方
        else:
            ends = after.kind == "punct" or after.norm in AND | THEN
        if count and count > 1 and ends:
            return min(count, MAX_CALLS)
    return 1


def _times_said(tokens: list[Token], k: int) -> int | None:
    """The count of times token k says: "twice", "three times", "3 times", 三次, 两遍; else None."""
    token, before = tokens[k], tokens[k - 1].text if k else ""
    if token.norm in TIMES:
        return TIMES[token.norm]
    if token.norm == "times":
        return count_of(before)
    return count_of(token.text[:-1] or before) if token.kind == "han" and token.text[-1] in "次遍" else None


def _lead(tool: Tool, words: str) -> str:
    """The words before the first value, which lead into every frame, when they are few and
    give no value themselves ("dim the" in "dim the 'hall' lamp to 30 and the 'porch' …")."""
    return words if len(words.split()) <= LEAD_WORDS and not bind_evidence(tool, words)[0].chosen else ""


def _led(lead: str, part: str) -> str:
    """A later frame after the lead, less the lead's last preposition when the frame opens with its own."""
    *rest, last = lead.split() or [""]
    own = {last.lower(), part.split(" ", 1)[0].lower()} <= PREPOSITIONS  # "from Oslo to Rome and to Bonn"
    return " ".join(rest) + " " + part if own else lead + part


def repeat(bases: list[Bound], found: list[Bound]) -> list[Bound]:
    """Each call of a later frame once for every call of the frame before that differs in what
    it does not say ("for Oslo and Rome today, and for tomorrow": both cities again)."""
    calls = [inherit(base, bound) for bound in found for base in bases]
    return [c for k, c in enumerate(calls) if all(c.arguments != o.arguments for o in calls[:k])][:MAX_CALLS]


def inherit(base: Bound, bound: Bound) -> Bound:
    """A later frame: the frame before's arguments, with what this one says instead; its
    unmarked words replace only what the frame before did not say, or said in unmarked words
    too ("oak tables …, then the same for pine tables"), or after the same word (在鼎泰丰…，在外婆家…)."""
    alike = {name for name, _ in bound.before & base.before}  # said after the same word in both
    weak = set(bound.arguments) - set(base.arguments) | base.unmarked | alike
    said = {k: v for k, v in bound.arguments.items() if k not in bound.unmarked or k in weak}
    unmarked = (bound.unmarked & set(said)) | (base.unmarked - set(said))
    return Bound({**base.arguments, **said}, frozenset(unmarked), before=base.before)


def _past_joint(text: str, start: int, end: int) -> int:
    """Past the mark or word the frame was cut at (". ", ", and ", " then "), not a currency sign ("£40")."""
    while (
        start < end
        and not text[start].isalnum()
        and text[start] not in "\"'-+(["
        and category(text[start]) != "Sc"
    ):
        start += 1
    for word in JOINTS:
        if text[start:end].lower().startswith(word):
            start += len(word)
    return start


def _spread(tool: Tool, frame: Binding, *, tail: bool) -> tuple[list[Bound], dict[str, Any]]:
    """The calls of one frame, one per value of a listed parameter; and, when `tail`, the
    arguments given after the frame's first sentence."""
    evidence, first = frame
    slots = _slots(tool)
    written = written_lists(evidence)  # once: each reads the tokens between the values
    if moved := _misplaced(evidence, slots, written):  # bind again with the listed names kept for their list
        evidence = Evidence.of(tool, evidence.text)
        evidence.used |= moved
        first = fill_object(tool.parameters, evidence, tool.parameters, False, 0)
        evidence.used -= moved
        written = written_lists(evidence)
    later = {}
    tokens = evidence.tokens  # where the first sentence ends, or a clause for every call begins
    marks = [t.start for k, t in enumerate(tokens) if t.text in STRONG | {"."} or _for_each(tokens, k)]
    head = marks[0] if tail and marks else len(evidence.text)
    if head < len(evidence.text):  # said after the frame's first sentence: scalars where they are,
        later = {k: first[k] for k, i in evidence.chosen.items() if evidence.values[i].start > head}
        _, after = bind_evidence(tool, evidence.text[head:])
        later |= {k: v for k, v in after.items() if k in first and k not in evidence.chosen}  # lists, flags
    unmarked = frozenset(k for k, i in evidence.chosen.items() if _unmarked(evidence.values[i]))
    before = _said_after(evidence)
    lists = _lists(evidence, slots, first, written)
    for name, values in list(lists):
        peers = _peers(slots, slots[name], first, unmarked)
        peers = [p for p in peers if _fits_each(slots, p, name, values, evidence)]
        if len(peers) == len(values) > 1:  # "two numbers: 36 and 48" fill a and b, not two calls
            first = {**first, **dict(zip(peers, values, strict=True))}
            unmarked = unmarked - set(peers)
            lists.remove((name, values))
    respectively = any(t.norm in IN_STEP for t in evidence.tokens)
    spread = _in_step(first, lists) if lists and (respectively or len(lists) == 1) else _every(first, lists)
    return [Bound(arguments, unmarked, before=before) for arguments in spread], later


def _said_after(evidence: Evidence, kind: str = "") -> frozenset[tuple[str, str]]:
    """Each parameter binding gave a value, with the word right before it ("" after a mark); for
    a value of `kind` alone, the word before it past articles ("in" of "in a bagel")."""
    pairs = set()
    for name, i in evidence.chosen.items():
        k = bisect.bisect_left(evidence.starts, evidence.values[i].start) - 1
        while kind and k > 0 and evidence.tokens[k].norm in ARTICLES:
            k -= 1
        word = evidence.tokens[k].norm if k >= 0 and evidence.tokens[k].kind in ("word", "han") else ""
        if kind in ("", evidence.values[i].kind):
            pairs.add((name, word))
    return frozenset(pairs)


def _for_each(tokens: list[Token], k: int) -> bool:
    """Whether token k is a comma before a clause that holds for every call ("…, both express")."""
    clause = itertools.takewhile(lambda token: token.kind != "punct", tokens[k + 1 : k + 7])
    return tokens[k].text == "," and any(token.norm in FOR_EACH for token in clause)


def flips(tool: Tool, before: str, after: str) -> bool:
    """Whether `after` sets a flag of the tool the other way round from `before` ("… with
    ice. What if it is without ice?"), or gives other loose words after the same word as `before`
    did ("Density of iron. Density of lead."; names and numbers start frames): a second call."""
    if not before:
        return False
    (one, a), (two, b) = bind_evidence(tool, before), bind_evidence(tool, after)
    flags = {name for name, slot in _slots(tool).items() if slot.kind == "boolean"}
    flags |= {name for name, _ in _said_after(one, "phrase") & _said_after(two, "phrase")}
    return any(name in a and name in b and a[name] != b[name] for name in flags)


def takes(tool: Tool, text: str | Words) -> float:
    """How well the tool's parameters take the values written in `text` (numbers, quotes,
    dates, codes; not names or unmarked words, which many a parameter takes): the sum of
    their binding scores, so "rounded to 3 places" goes with a `round_to`, not an `area`."""
    seen, _ = bind_evidence(tool, text)
    slots = _slots(tool)
    found = [(slots[n], seen.values[k]) for n, k in seen.chosen.items() if n in slots]
    return sum(max(score(s, v, seen) or 0.0, 0.0) for s, v in found if v.kind != "name" and not _unmarked(v))


def _slots(tool: Tool) -> dict[str, Slot]:
    return {slot.name: slot for slot in slots_of(tool.parameters, tool.parameters)}


def _unmarked(value: Value) -> bool:
    """Words no mark sets apart: a phrase, or a number written as a word ("two shapes")."""
    return value.kind == "phrase" or value.kind == "number" and value.text[:1].isalpha()


def _peers(slots: dict[str, Slot], slot: Slot, first: dict[str, Any], unmarked: frozenset[str]) -> list[str]:
    """The parameters of the slot's kind and type that a list could fill in turn: the slot's own,
    and those no value or only unmarked words filled."""
    kind = (slot.kind, slot.schema.get("type"))
    same = [name for name, other in slots.items() if (other.kind, other.schema.get("type")) == kind]
    return [name for name in same if name == slot.name or name not in first or name in unmarked]


def _fits_each(slots: dict[str, Slot], peer: str, name: str, values: list[Any], evidence: Evidence) -> bool:
    """Whether parameter `peer` takes the words of each value `name` read a list as: not so for
    a `season` beside a `league` ("the Premier League and La Liga" is two calls)."""
    found = [v for v in evidence.values if typed_value(slots[name], v) in values]
    return peer == name or all(score(slots[peer], v, evidence) is not None for v in found)


def _lists(
    evidence: Evidence, slots: dict[str, Slot], first: dict[str, Any], written: list[list[int]]
) -> list[tuple[str, list[Any]]]:
    """Each parameter that took one value of a written list (or another reading of the same words), with the
    whole list's values; not a list a parameter that takes a list holds some of ("[4, 8, 15]"). A parameter
    whose value binding took from outside a list it fits (`_stray`) claims that list, and no other."""
    held = {repr(item) for value in first.values() if isinstance(value, list) for item in value}
    readings: dict[int, list[Value]] = {}  # where a value starts -> the values read there
    for value in evidence.values:
        readings.setdefault(value.start, []).append(value)
    texts = {value.text: k for k, value in enumerate(evidence.values)}  # free text that is a listed value
    took = {n: texts[v] for n, v in first.items() if isinstance(v, str) and v in texts} | evidence.chosen
    claims = [{n: k for n, i in took.items() if (k := _member(evidence, g, i)) is not None} for g in written]
    strays = [{} if claim else _stray(evidence, slots, g) for claim, g in zip(claims, written, strict=True)]
    elsewhere = {name for stray in strays for name in stray}
    lists = []
    for group, claim, stray in zip(written, claims, strays, strict=True):
        taken = stray or {name: k for name, k in claim.items() if name not in elsewhere}
        free = [k for k in group if k not in evidence.used and k not in taken.values()]
        if any(repr(evidence.values[k].value) in held for k in group):
            continue
        if len(taken) == 1 and free:
            [(name, chosen)] = taken.items()
            members = [k for k in group if k == chosen or k in free]
            typed = [
                first.get(name) if k == chosen else _typed_at(slots[name], readings[evidence.values[k].start])
                for k in members
            ]
            if None not in typed:
                lists.append((name, typed))
    return lists


def _stray(evidence: Evidence, slots: dict[str, Slot], group: list[int]) -> dict[str, int]:
    """The one parameter binding gave a value outside the written list that each listed value
    fits as well ("How deep should I plant tulips, daffodils and irises?" read `bulb` as
    "deep"): the list is what it asks for, each value read anew (-1: none is binding's)."""
    stray = {}
    listed = [evidence.values[k] for k in group]
    for name, index in evidence.chosen.items():
        slot = slots.get(name)
        if slot is None or slot.kind in LOOSE or index in group:
            continue
        low = score(slot, evidence.values[index], evidence) or 0.0
        if all(typed_value(slot, v) is not None and (score(slot, v, evidence) or 0.0) >= low for v in listed):
            stray[name] = -1
    return stray if len(stray) == 1 else {}


def _typed_at(slot: Slot, readings: list[Value]) -> Any:
    """The value written at one place, in the first of its readings the slot takes: the
    option "porcelain" where the phrase "porcelain piece" is listed."""
    return next((typed for typed in (typed_value(slot, v) for v in readings) if typed is not None), None)


def _member(evidence: Evidence, group: list[int], index: int) -> int | None:
    """The value of the list that binding's chosen value is, or is read over (the same words)."""
    if index in group:
        return index
    chosen = evidence.values[index]
    return next((k for k in group if evidence.values[k].start == chosen.start), None)


def _misplaced(evidence: Evidence, slots: dict[str, Slot], written: list[list[int]]) -> set[int]:
    """Listed values binding gave to another kind of parameter than the list's first value,
    where the first value's parameter fits them clearly better: "museums near Lyon and Turin"."""
    owner = {index: name for name, index in evidence.chosen.items()}
    moved: set[int] = set()
    for group in written:
        if (head := next((owner[k] for k in group if k in owner), None)) is None:
            continue
        for k in group:
            if k in owner and owner[k] != head:
                value = evidence.values[k]
                typed = typed_value(slots[head], value) is not None
                mine = score(slots[head], value, evidence) if typed else None
                theirs = score(slots[owner[k]], value, evidence)
                kinds = slots[head].kind != slots[owner[k]].kind
                if kinds and mine is not None and theirs is not None and mine >= theirs + BETTER:
                    moved.add(k)
    return moved


def _in_step(first: dict[str, Any], lists: list[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    """A call per position of the lists; lists of other lengths than the longest keep the first value."""
    size = max(len(values) for _, values in lists)
    steps = range(min(size, MAX_CALLS))
    return [first | {name: values[n] for name, values in lists if len(values) == size} for n in steps]


def _every(first: dict[str, Any], lists: list[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    """A call for every combination: "tea and coffee in cups and mugs" is four calls."""
    calls = [dict(first)]
    for name, values in lists:
        calls = [{**call, name: value} for call in calls for value in values][:MAX_CALLS]
    return calls


def fills_required(tool: Tool, arguments: dict[str, Any]) -> bool:
    """Whether `arguments` hold a value, not an empty one, for every parameter `tool` requires."""
    return all(arguments.get(n) not in (None, "", [], {}) for n in tool.parameters.get("required") or [])


def gives_what_it_needs(text: str, tool: Tool) -> bool:
    """Whether `text` clearly gives every value `tool` requires: each required parameter takes
    a value of its own kind with a label, a unit or a specific type, not loose words; a flag, a
    list, an object or free text counts when the text fills it."""
    required = tool.parameters.get("required")
    if not isinstance(required, list) or not required:
        return False
    evidence, filled = bind_evidence(tool, text)
    slots = _slots(tool)
    if not all(name in filled and name in slots for name in required):
        return False
    chosen = [(slots[n], evidence.values[evidence.chosen[n]]) for n in required if n in evidence.chosen]
    return all(v.kind != "phrase" and (score(s, v, evidence) or 0) >= CLEARLY for s, v in chosen)


def typed_values(tool: Tool, whole: Binding) -> int:
    """How many parameters binding filled with a value of their own kind: a date, a time, a
    currency, an option, a quantity of the parameter's dimension ("25 minutes" for a duration),
    a name for a place or a person; not loose words nor free text, which any message gives."""
    evidence, filled = whole
    slots = _slots(tool)
    found = [(n, evidence.values[k]) for n, k in evidence.chosen.items() if n in filled and n in slots]
    return sum(_typed(slots[n], value) for n, value in found)


def _typed(slot: Slot, value: Value) -> bool:
    named = value.kind == "name" and slot.kind in ("code", "person", "place")
    return value.kind in SPECIFIC or named or bool(value.dimension) and value.dimension == slot.dimension
