"""Stage 5b, the frames of one intent: where a request for one tool asks for its next call.

    >>> number = {"type": "number"}
    >>> area = Tool("room_area", "Area of a room.", {"type": "object", "properties": {
    ...     "width": number, "length": number}})
    >>> cuts(area, "Room A is 4 m by 5 m, room B 3 m by 6 m")   # the second frame: ", room B …"
    ([20], 5)

A careful reader takes the values in the order written and fills the tool's parameters with
them; a value for a parameter already filled, with another value, starts the next call: its
*frame* ("€12 in Lyon, €19 in Turin" is two). Each value goes to the free parameter it fits
best, unless a filled one fits it clearly better (`MARGIN`): "4 and 5" fill `width` and
`height`, and a 3 after them begins the next frame. Binding's own choices (on a window of text
from the frame's start) come first, but replace no value written as they are.

No frame starts at the same value said again ("24 eggs … 24 in all"), or after a comma alone
("next Friday, June 5"); at the next value of a written list, unless the list fills several
parameters of one kind ("2 and 7, 6 and 1"); at a value that fits much worse than the one there
(a stray name; one that fits much better replaces it); nor at number words among digits, unmarked
words, units, a list parameter's items, or words binding read as another value. A list of
numbers in brackets is one value for a parameter that takes a list. The cut goes at the
strongest mark between the two values (a sentence mark, a comma, "and", "then") where the values
after it fit the new frame best (`_best_cut`), never inside a value or a written list.

Linear: one pass over the values, each scored against every slot; each of at most `MAX_FRAMES`
cuts binds a bounded `WINDOW` of text once more.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from typing import Any

from wirelab.offline_model.binding import bind_evidence
from wirelab.offline_model.evidence import LIST_JOINERS, Binding, Evidence, alike, word_lists, words_before
from wirelab.offline_model.fit import score, typed_value
from wirelab.offline_model.intents import AND, STRONG, THEN
from wirelab.offline_model.lexicon import lexicon_list
from wirelab.offline_model.request import Tool
from wirelab.offline_model.slots import Slot, slots_of
from wirelab.offline_model.spans import Spans
from wirelab.offline_model.values import Value

MARGIN = 1.0  # how much better a filled parameter must fit a value for it to start a frame
LISTED_MARGIN = 0.0  # the same, for a value listed after another ("4 and 5" fill width and height)
PEER = 1.0  # a value fitting a filled parameter this much worse is stray, this much better replaces
SKIPPED = {"phrase", "unit"}
LIST_WORDS = LIST_JOINERS - {","}
RANGE_MARKS, IN_STEP = lexicon_list("range_marks"), lexicon_list("respectively")
UNIT_POINTS = 2.0  # how well a list in brackets fits a parameter that takes a list
MIN_START = 2.0  # how well a name must fit to begin a frame ("C" in "C foot" does not)
CLEARLY = 3.0  # a fit only a label, a specific kind or a unit reaches; else binding's choice starts frames
SCALAR = ("array", "object", "boolean")
MAX_FRAMES = 8
WINDOW = 600  # characters after a cut that binding reads again for the next frame (bounded work)
STRENGTH = dict.fromkeys(STRONG | {"."}, 2.0) | {",": 0.5, "、": 0.5}  # how strongly a mark parts two frames
WORD_STRENGTH = 0.3  # "and", "then", … between two frames

Fit = tuple[float, Slot, Any]  # how well, which parameter, the value as it would take it


@dataclass(frozen=True)
class Fill:
    """A parameter filled in the current frame: by which value, how well, and how surely."""

    value: Value
    typed: Any
    points: float
    chosen: bool  # binding chose this value for this parameter
    group: int | None  # the written list the value is part of


@dataclass
class Reading:
    """The frame being read: binding's choices for its text (value index -> slot), the values of
    lists with a chosen one, the values binding put in lists or objects, and what is filled."""

    chosen: dict[int, Slot]
    members: dict[int, Slot]
    structured: set[int]
    filled: dict[str, Fill]
    owners: dict[int, dict[str, str]]  # the parameters (and kinds) each list's values went to
    in_step: bool = False  # "respectively": lists go in step, and none fills several parameters

    @classmethod
    def of(
        cls,
        evidence: Evidence,
        part: Evidence,
        slots: list[Slot],
        lists: list[list[int]],
        bound: Any,
        cut: int,
    ) -> Reading:
        """Binding's reading of `part`, the text of `evidence` from `cut` on, with `bound` the
        arguments binding gave it: `part`'s values are found in `evidence` by where they are."""
        at = {(v.start, v.kind, v.text): k for k, v in enumerate(evidence.values)}
        index = [at.get((v.start + cut, v.kind, v.text)) for v in part.values]
        named = {slot.name: slot for slot in slots}
        chosen = {index[j]: named[n] for n, j in part.chosen.items() if index[j] is not None and n in named}
        # values put in a list or an object, or items of a list binding gave ("avoid 'tolls' and 'ferries'")
        listed = {_key(item) for value in bound.values() if isinstance(value, list) for item in value}
        structured = {index[j] for j in part.used - set(part.chosen.values())}
        structured |= {k for k, v in enumerate(evidence.values) if v.start >= cut and _key(v.value) in listed}
        structured.discard(None)
        in_step = any(t.norm in IN_STEP for t in part.tokens)
        return cls(chosen, _list_members(evidence, chosen, lists), structured, {}, {}, in_step)

    @property
    def taken(self) -> set[int]:
        """The values binding chose or put in a list or an object."""
        return set(self.chosen) | self.structured

    def fill(self, value: Value, fit: Fit, chosen: bool, group: int | None) -> None:
        points, slot, typed = fit
        self.filled[slot.name] = Fill(value, typed, points, chosen, group)
        if group is not None:
            self.owners.setdefault(group, {})[slot.name] = slot.kind

    def sure(self, fill: Fill) -> bool:
        """Whether the value is one of a list that fills several parameters."""
        return fill.group is not None and not self.in_step and _tuple(self.owners.get(fill.group, {}))


def cuts(tool: Tool, text: str, whole: Binding | None = None) -> tuple[list[int], int]:
    """Where each frame after the first begins, as positions in `normalize.clean(text)` (see above); and
    where the first value is, which ends the words that lead into every frame ("Check prices for" in "Check
    prices for A in Oslo, and for B in Bergen"). `whole`: binding's reading of `text`, when the caller has
    it. A list written in brackets ("[3, 4, 5]") is one value for a parameter that takes a list of numbers:
    a second such list, when every such parameter has one, is another frame."""
    evidence, bound = whole or bind_evidence(tool, text)
    every = slots_of(tool.parameters, tool.parameters)
    slots = [s for s in every if s.kind not in SCALAR]
    arrays = [s for s in every if s.kind == "array" and _item_type(s) in ("number", "integer")]
    written = [v.start for v in evidence.values if v.kind not in SKIPPED]
    groups = evidence.groups()  # once: each call reads the tokens between the values
    lists = written_lists(evidence, groups)
    reading = Reading.of(evidence, evidence, slots, lists, bound, 0)
    at = {evidence.values[k].start: number for number, group in enumerate(lists) for k in group}
    in_list = {k: at[v.start] for k, v in enumerate(evidence.values) if v.start in at}  # each reading
    units = _bracketed(evidence, arrays, groups)
    inner = {k for group in groups if group[0] in units for k in group[1:]}  # inside a list in brackets
    found = _candidates(evidence, slots, units, groups)
    starts: list[int] = []
    i = 0
    while i < len(found):
        k, value, fits = found[i]
        i += 1
        if k in units:
            fits = [(UNIT_POINTS, slot, units[k]) for slot in arrays if slot.name not in reading.filled]
            fits = fits or [(UNIT_POINTS, arrays[0], units[k])]
        if k in inner or _passed_over(evidence, reading, k, k in units):
            continue
        group = in_list.get(k)
        if _placed(reading, k, value, fits, group):
            continue
        cut = _new_frame(evidence, reading, k, fits, group, slots, lists)
        if cut is None or len(starts) + 1 >= MAX_FRAMES:
            continue
        starts.append(cut)
        i = next(n for n, (_, v, _) in enumerate(found) if v.start > cut)
        rest, bound = bind_evidence(tool, evidence.text[cut : cut + WINDOW])  # binding's choices from here
        reading = Reading.of(evidence, rest, slots, lists, bound, cut)
    return starts, min(written, default=0)


def _passed_over(evidence: Evidence, reading: Reading, k: int, unit: bool) -> bool:
    """A value binding put in a list or an object, the region written after a name ("Porto,
    Portugal"), or words binding read as another value ("'2024-05-01'" as a date)."""
    value = evidence.values[k]
    if not unit and k in reading.structured:
        return True
    if any(fill.value.start <= value.start < _reach(fill.value) for fill in reading.filled.values()):
        return True
    return k not in reading.chosen and any(
        j != k and evidence.values[j].start < value.end and value.start < evidence.values[j].end
        for j in reading.taken
    )


def _placed(reading: Reading, k: int, value: Value, fits: list[Fit], group: int | None) -> bool:
    """Fill the current frame with the value when it has room for it: binding's choice (or a list
    of it) where nothing binding chose is, or a parameter not filled yet that fits about as well
    as the best. True when the value is placed, or is the next value of a list for one parameter."""
    filled, chosen = reading.filled, reading.chosen
    slot = chosen.get(k) or reading.members.get(k)
    held = filled.get(slot.name) if slot is not None else None
    if slot is not None and (held is None or k in chosen and _replaced(reading, held, value)):
        # binding's choice (or a list of it), where nothing binding chose is
        fit = next((f for f in fits if f[1] is slot), None)
        if fit is not None:
            reading.fill(value, fit, k in chosen, group)
            return True
    if k in reading.members:
        return True
    margin = LISTED_MARGIN if group is not None else MARGIN
    if free := [f for f in fits if f[1].name not in filled and f[0] >= fits[0][0] - margin]:
        reading.fill(value, free[0], False, group)
    return bool(free)


def _replaced(reading: Reading, held: Fill, value: Value) -> bool:
    """Whether binding's choice takes its parameter from the value there: one binding did not
    choose, of no list that fills several parameters, nor written as this one is ("to 1000 and
    to 1060 degrees" are two firings, not a stray 1000)."""
    written = _written(held.value) and _written(value) and held.value.kind == value.kind
    return not held.chosen and not reading.sure(held) and not written


def _new_frame(
    evidence: Evidence,
    reading: Reading,
    k: int,
    fits: list[Fit],
    group: int | None,
    slots: list[Slot],
    lists: list[list[int]],
) -> int | None:
    """Where a new frame begins before a value whose best parameter is filled already, or None:
    a better fit replaces a stray value, and the same value said again, the next value of a list,
    an apposition or a stray value begin nothing."""
    value = evidence.values[k]
    points, slot, typed = fits[0]
    held = reading.filled[slot.name]
    tuples = group is not None and not reading.in_step and _tuple(reading.owners.get(group, {}))
    listed = group is not None and held.group == group and not tuples
    if not reading.sure(held) and points > held.points + PEER and not listed:
        reading.fill(value, fits[0], k in reading.chosen, group)
        return None  # a stray value was there
    if _same(held.typed, typed) or listed or _apposed(evidence.text, held.value, value):
        return None  # the same value said again, or the next value of a list
    same_words = alike(evidence, held.value, value)
    stray = not held.chosen and held.points < CLEARLY and not tuples and not same_words  # "2 bedroom, 1 bath"
    weak = value.kind == "name" and points < MIN_START or stray
    only = _written(value) and (len(fits) == 1 or value.unit != "")  # "$52 in …", "3 m by …"
    if weak or points < held.points - PEER and not tuples and not only:
        return None  # a stray value
    closed = _closed(evidence, reading.owners, lists)
    return _best_cut(evidence, reading.filled, held, value, slot, slots, closed)


def _key(item: Any) -> str:
    return item.casefold() if isinstance(item, str) else repr(item)


def _bracketed(evidence: Evidence, arrays: list[Slot], groups: list[list[int]]) -> dict[int, tuple[Any, ...]]:
    """First value of each list of numbers written in brackets -> the list's numbers."""
    units: dict[int, tuple[Any, ...]] = {}
    for group in groups if arrays else []:
        first, last = evidence.values[group[0]], evidence.values[group[-1]]
        before, after = evidence.text[: first.start].rstrip()[-1:], evidence.text[last.end :].lstrip()[:1]
        if first.kind == "number" and before in "[(" and after in "])" and before and after:
            units[group[0]] = tuple(evidence.values[k].value for k in group)
    return units


def _item_type(slot: Slot) -> str:
    items = slot.schema.get("items")
    return str(items.get("type", "")) if isinstance(items, dict) else ""


def _candidates(
    evidence: Evidence, slots: list[Slot], units: dict[int, tuple[Any, ...]], groups: list[list[int]]
) -> list[tuple[int, Value, list[Fit]]]:
    """The values that can start or fill a frame, in text order, each with its fits: a number of
    a list whose last number alone has a unit fits as if written with it ("8, 10 and 12 m/s")."""
    shared = _shared_units(evidence, groups)
    digits = any(v.kind == "number" and _digits(v) for v in evidence.values)
    enums = [v for v in evidence.values if v.kind == "enum"]
    found = []
    for k in sorted(range(len(evidence.values)), key=lambda k: (evidence.values[k].start, k)):
        value = evidence.values[k]
        if value.kind in SKIPPED or value.kind == "number" and digits and not _digits(value):
            continue  # "three boxes": a count, when the values are written in digits
        if value.kind == "name" and any(e.start < value.end and value.start < e.end for e in enums):
            continue  # a word that names an option is that option
        fits = _fits(slots, shared.get(k, value), evidence)
        if fits or k in units:
            found.append((k, value, fits))
    return found


def _shared_units(evidence: Evidence, groups: list[list[int]]) -> dict[int, Value]:
    """The numbers of each written list before its last, with the last one's unit when only it has one."""
    shared: dict[int, Value] = {}
    for *rest, end in groups:
        last = evidence.values[end]
        if last.kind == "number" and last.unit and not any(evidence.values[k].unit for k in rest):
            shared |= {k: replace(evidence.values[k], unit=last.unit, dimension=last.dimension) for k in rest}
    return shared


def _tuple(kinds: dict[str, str]) -> bool:
    """Whether a written list filled several parameters of one kind ("a 6 by 8 grid")."""
    return len(kinds) > 1 and len(set(kinds.values())) == 1


def _apposed(text: str, held: Value, value: Value) -> bool:
    """A value right after another, parted by a comma alone, says the same thing again: "next
    Friday, June 30", "Springfield, IL"."""
    return held.end <= value.start and text[held.end : value.start].strip() == "," and held.kind != "number"


def _closed(
    evidence: Evidence, owners: dict[int, dict[str, str]], lists: list[list[int]]
) -> list[tuple[int, int]]:
    """Stretches no frame may be cut in: within a value ("May 3, 2021", "Porto, Portugal"),
    and within a written list, except after each full set of a list that fills several
    parameters ("2 and 7, | 6 and 1" for `width`, `height`)."""
    closed = [(v.start, _reach(v)) for v in evidence.values if v.kind not in SKIPPED]
    for number, group in enumerate(lists):
        size = len(owners[number]) if _tuple(owners.get(number, {})) else len(group)
        for n in range(len(group) - 1):
            if (n + 1) % size:
                closed.append((evidence.values[group[n]].end, evidence.values[group[n + 1]].start))
    return closed


def _best_cut(
    evidence: Evidence,
    filled: dict[str, Fill],
    held: Fill,
    value: Value,
    slot: Slot,
    slots: list[Slot],
    closed: list[tuple[int, int]],
) -> int | None:
    """Where to cut between the value `held` and the `value` that fills its parameter again:
    at the strongest mark, where the values after it fit the new frame best."""
    order = sorted(filled.items(), key=lambda item: item[1].value.start)
    gains = [_moved_gain(order[j:], slot, slots, evidence) for j in range(len(order) + 1)]
    positions = [fill.value.start for _, fill in order]
    shut = Spans(closed)
    best: tuple[float, int] | None = None
    low = bisect.bisect_left(evidence.starts, held.value.end)
    high = bisect.bisect_left(evidence.starts, value.start)
    for token in evidence.tokens[low:high]:
        if shut.holds(token.start):
            continue  # inside a value or a list
        strength = STRENGTH.get(token.text, WORD_STRENGTH if token.norm in AND | THEN else None)
        if strength is None:
            continue
        gain = strength + gains[bisect.bisect_right(positions, token.start)]
        if best is None or gain >= best[0]:
            best = (gain, token.start)
    return best[1] if best else None


def _moved_gain(moved: list[tuple[str, Fill]], slot: Slot, slots: list[Slot], evidence: Evidence) -> float:
    """How much better the values `moved` fit a new frame whose `slot` is taken than where they
    are, each read as written in both ("0.05" of "rate 0.05, 3 years" is no time in either)."""
    taken = {slot.name}
    gain = 0.0
    for name, fill in moved:
        fits = _fits(slots, fill.value, evidence)
        free = [fit for fit in fits if fit[1].name not in taken]
        gain += (free[0][0] if free else 0.0) - next((f[0] for f in fits if f[1].name == name), fill.points)
        taken |= {free[0][1].name} if free else set()
    return gain


def _list_members(evidence: Evidence, chosen: dict[int, Slot], lists: list[list[int]]) -> dict[int, Slot]:
    """Values written in a list with one that binding chose, which fit its parameter about as
    well ("'red', 'blue' and 'green' paint": all three are `color`s)."""
    members: dict[int, Slot] = {}
    for group in lists:
        picked = [k for k in group if k in chosen]
        if len(picked) != 1:
            continue
        slot = chosen[picked[0]]
        top = score(slot, evidence.values[picked[0]], evidence) or 0.0
        typed = [k for k in group if k not in chosen and typed_value(slot, evidence.values[k]) is not None]
        points = {k: score(slot, evidence.values[k], evidence) for k in typed}
        members |= {k: slot for k, p in points.items() if p is not None and p >= top - PEER}
    return members


def written_lists(evidence: Evidence, groups: list[list[int]] | None = None) -> list[list[int]]:
    """The values written as lists (`Evidence.groups`, and `word_lists`, which replace the groups
    they hold), less two values parted by a comma alone: "next Friday, June 30" and "Hotel Lido,
    Rome" say one thing twice; less the ends of a range ("between 50 and 120", "3 to 5"); and
    less one value said twice ("Essen to Kassel, and Kassel to Jena": a leg's end, the next's start)."""
    chains = word_lists(evidence)
    held = {evidence.values[k].start for chain in chains for k in chain}
    listed = evidence.groups() if groups is None else groups
    found = []
    for group in [g for g in listed if any(evidence.values[k].start not in held for k in g)] + chains:
        if len({evidence.values[k].text for k in group}) == 1:
            continue
        first, second = evidence.values[group[0]], evidence.values[group[-1]]
        gap = {t.norm for t in evidence.tokens if first.end <= t.start and t.end <= second.start}
        ends = gap & RANGE_MARKS or "between" in words_before(evidence, first)  # "between 50 and 120"
        if (len(group) > 2 or gap & LIST_WORDS or first.kind == "number") and not ends:
            found.append(group)
    return found


def _reach(value: Value) -> int:
    """Where a value's words end, with the region written after a name ("Porto, Portugal")."""
    return value.start + len(value.region) if value.region.startswith(value.text) else value.end


def _fits(slots: list[Slot], value: Value, evidence: Evidence) -> list[Fit]:
    """The slots the value fits, best first (on a tie, the slot listed first)."""
    typed = [(slot, typed_value(slot, value)) for slot in slots]
    fits = [(score(slot, value, evidence), slot, taken) for slot, taken in typed if taken is not None]
    return sorted([fit for fit in fits if fit[0] is not None], key=lambda fit: -fit[0])


def _same(one: Any, other: Any) -> bool:
    """The same value, or a name and its short form ("Acme Inc" and "Acme")."""
    if one == other or not isinstance(one, str) or not isinstance(other, str):
        return one == other
    one, other = one.casefold(), other.casefold()
    return one.startswith(other + " ") or other.startswith(one + " ")


def _written(value: Value) -> bool:
    """A value written in a form that is surely a value: a number in digits, or a date."""
    return value.kind == "date" or value.kind == "number" and _digits(value)


def _digits(value: Value) -> bool:
    return value.text[:1].isdigit() or value.text[:1] in "-+.$€£¥"
