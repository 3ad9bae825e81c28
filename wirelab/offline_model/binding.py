"""Stage 4, bind values to parameters: fill a tool's arguments from its JSON Schema.

    >>> weather = Tool("get_weather", "Current weather in a city.", {"type": "object", "properties": {
    ...     "city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}})
    >>> bind(weather, "weather in Paris in Fahrenheit")
    {'city': 'Paris', 'unit': 'fahrenheit'}

Every (parameter, value) pair gets a score (`fit`: by kind, label, unit and place), and the best pairs
win, each value used once (a greedy assignment): required parameters before optional ones, names listed
in step with values listed in step ("base and height of 6 and 10"), and on a tie the parameters take
values in the order both are written.

Required parameters are always filled (the default, else a best guess); an optional one only when the
text gives it. Nested objects are filled the same way; arrays take a written list ("eggs, milk and
bread"), in the order written. Free-text parameters (`query`, `message`, …) take the words after their
own name, or what is left of the request (`free_text`). Several calls from one request are
`calls.bind_all`'s job.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import replace
from typing import Any

import numpy as np

from wirelab.encoder import encode
from wirelab.offline_model.evidence import LINKS, LIST_GLUE, Binding, Evidence, Words, word_lists
from wirelab.offline_model.extraction import ITEM_BREAKS, ZH_NUMBER, counted, list_items
from wirelab.offline_model.fit import (
    clock_part,
    clock_slot,
    clock_with,
    cue_weight,
    features,
    typed_value,
    wants_code,
    weigh,
    weights,
)
from wirelab.offline_model.flags import flag_option, flag_value
from wirelab.offline_model.free_text import (
    after_colon,
    command_span,
    labelled_text,
    marked_text,
    remainder,
    without_tool_head,
)
from wirelab.offline_model.lexicon import (
    ORDINALS,
    STOPWORDS,
    chinese_number,
    concept,
    count_of,
    lexicon_list,
    lexicon_words,
)
from wirelab.offline_model.normalize import Token, clean, identifier_words, segment
from wirelab.offline_model.options import enum_values, example_values, negated
from wirelab.offline_model.places import city, state_code, state_name
from wirelab.offline_model.request import Tool
from wirelab.offline_model.slots import (
    MAX_DEPTH,
    NO_DEFAULT,
    Schema,
    Slot,
    default_of,
    resolve,
    slot_of,
    slots_of,
)
from wirelab.offline_model.spans import Spans
from wirelab.offline_model.units import in_unit, unit_named
from wirelab.offline_model.values import Value

MEANT = 0.6  # the cosine of a word and the option it names by meaning ("puppy": dog, 小猫: cat)…
MEANT_MARGIN = 0.12  # …ahead of the option next closest to it
MEANT_WORDS = 12  # the words compared, at most
LIKE = 0.5  # the cosine of unmarked words and the closest example a description gives
SOME = re.compile(r"\be\.\s?g\b|\bsuch as\b|\blike\b|\bfor (?:example|instance)\b|\betc\b", re.I)  # not all
PLAIN = ("name", "phrase")  # values whose words may still name an option by meaning
CONTENT = lexicon_list("content_parameters")  # a parameter that holds what a note or message says
ITEMS = lexicon_list("item_parameters")  # a parameter that names the thing a count counts
HIGHEST, LOWEST = lexicon_list("highest"), lexicon_list("lowest")  # "the max": an end of a range
TIMES = {word: n for n, word in enumerate(lexicon_words("times"), 1)}  # "twice": 2
POSITIONS = {concept(word) for word in lexicon_list("positions")}  # `n`, "Position in the sequence"
NUMERIC = ("integer", "number")
JOINED = re.compile(r"\b(hyphen|dash|underscore)s? (?:instead of|in place of|for) spaces", re.I)
CASED = re.compile(r"(?<!\bto )(?<!\binto )\b(upper|lower)[- ]?case\b", re.I)  # not "convert to upper case"
Taken = tuple[Slot, Any, int]  # (slot, its value as typed, the value's index)


def bind(tool: Tool, text: str, *, guess: bool = True) -> dict[str, Any]:
    """Arguments for `tool` read from `text`; required ones guessed unless `guess=False`."""
    return fill_object(tool.parameters, Evidence.of(tool, text), tool.parameters, guess, 0)


def bind_evidence(tool: Tool, text: str | Words) -> Binding:
    """Binding's reading of `text` (or of a piece's `Words`) for `tool`, nothing guessed: the evidence (with
    what binding chose and used) and the arguments. The stages after it read this, not the text again."""
    evidence = Evidence.of(tool, text)
    return evidence, fill_object(tool.parameters, evidence, tool.parameters, False, 0)


def bind_marked(tool: Tool, text: str) -> dict[str, Any]:
    """Only the arguments the text marks: typed values, names and quotes, not unmarked words.

    What a follow-up changes ("And 75 CHF?", "那重庆呢？") keeps the rest of the call as it was.
    """
    evidence, bound = bind_evidence(tool, text)
    marked = {name for name, k in evidence.chosen.items() if evidence.values[k].kind != "phrase"}
    properties = tool.parameters.get("properties", {})
    unassigned = [n for n in bound if n not in evidence.chosen]  # booleans, lists, objects, free text
    kinds = {n: slot_of(n, resolve(properties.get(n), tool.parameters), False).kind for n in unassigned}
    return {k: v for k, v in bound.items() if k in marked or kinds.get(k) in ("boolean", "array", "object")}


def bind_one(tool: Tool, text: str, name: str) -> Any:
    """One property of `tool` read from `text` (guessed if the text has no value for it)."""
    bound = bind(tool, text, guess=False)
    if name in bound:
        return bound[name]
    schema = resolve(tool.parameters.get("properties", {}).get(name, {}), tool.parameters)
    return _fallback(slot_of(name, schema, True), Evidence.of(tool, text), tool.parameters, 0)


def fill_object(
    schema: Schema, evidence: Evidence, root: Schema, guess: bool, depth: int, role: str = ""
) -> dict[str, Any]:
    """Fill an object schema's properties (see the module docstring). A nested object's
    properties take the role of the property that holds them (`pickup.address` is an origin)."""
    if not isinstance(schema.get("properties"), dict) or depth > MAX_DEPTH:
        return {}
    slots = [s if s.role or not role else replace(s, role=role) for s in slots_of(schema, root)]
    _add_options(slots, evidence)
    values = _commands(slots, evidence)
    taken = assign([s for s in slots if s.name not in values], evidence)
    for slot, value, index in taken:
        values[slot.name] = value
        if depth == 0:
            evidence.chosen[slot.name] = index
    values |= _counted_items(slots, taken, evidence)
    values |= _marked_texts(slots, taken, evidence)
    unread = [s for s in slots if s.kind in ("integer", "number") and s.name not in values]
    values |= {s.name: n for s in unread if (n := _unread(s, taken, evidence)) is not None}
    for slot in slots:
        if slot.name in values:
            continue
        if (value := _structured(slot, evidence, root, guess, depth)) is None and slot.kind == "enum":
            value = flag_option(slot, evidence)
        if value is None:
            value = _state_of_city(slot, evidence) or _beside_option(slot, evidence)
        if value is None and guess and slot.required:
            value = _fallback(slot, evidence, root, depth)
        if value is not None:
            values[slot.name] = value
    return {slot.name: _cased(slot, values[slot.name]) for slot in slots if slot.name in values}


def _marked_texts(slots: list[Slot], taken: list[Taken], evidence: Evidence) -> dict[str, str]:
    """The text a request marks for each string parameter that takes one (`free_text.marked_text`:
    "saying …", "titled …", "about …"), in place of the words the assignment gave it (not a quote
    nor a typed value), without the values other parameters took at its end."""
    own = {slot.name: index for slot, _, index in taken}
    found = {}
    for slot in (s for s in slots if s.kind in ("text", "other", "person")):
        if slot.name in own and evidence.values[own[slot.name]].kind not in PLAIN:
            continue
        others = [evidence.values[k] for k in evidence.used if k != own.get(slot.name)]
        spans = [(value.start, value.end) for value in others]
        if said := marked_text(role_words(slot), evidence.text, spans):
            found[slot.name] = without_tool_head(said, evidence.own)
    return found


def _unread(slot: Slot, taken: list[Taken], evidence: Evidence) -> int | float | None:
    """A number the assignment left: its part of a time no other slot took whole, else a `_worded` one."""
    if slot.kind == "integer" and clock_slot(slot):
        whole = Spans.of(evidence.values[index] for other, _, index in taken if not clock_slot(other))
        times = (v for v in evidence.values if v.kind == "time" and not whole.overlaps(v.start, v.end))
        if (part := next((clock_part(slot, v) for v in times), None)) is not None:
            return part
    for token, after in zip(evidence.tokens, [*(t.norm for t in evidence.tokens[1:]), ""], strict=False):
        if (number := _worded(slot, token, after)) is not None:
            evidence.values.append(Value("number", number, token.text, token.start, token.end))
            evidence.used.add(len(evidence.values) - 1)
            return number
    return None


def _worded(slot: Slot, token: Token, after: str) -> int | float | None:
    """The number a word (and the next) says for a number slot: an ordinal's place of the thing it names,
    or of any for a position ("the third page" for `page`, 第五章 for `chapter`, "the tenth term" for
    `n`), one of a unit it measures ("a week": 7 `rental_days`), an end of its stated range, "twice"."""
    place, thing = ORDINALS.get(token.norm), after
    if token.text[:1] == "第" and (numeral := ZH_NUMBER.match(token.text, 1)):
        place, thing = chinese_number(numeral.group()), token.text[numeral.end() :] or after
    own = {w for w in slot.name_words if len(w) > 1} - POSITIONS  # none for `n`, `index`: a place of any
    if place and (concept(thing) in slot.name_words | slot.counts or not own and slot.words & POSITIONS):
        return place
    if token.norm in ("a", "an") and (unit := unit_named(after)) and unit.dimension == slot.dimension:
        return in_unit(1, after, slot.unit)
    if token.norm in HIGHEST | LOWEST:
        said = re.findall(r"\d+(?:\.\d+)?", str(slot.schema.get("description", "")))
        ends = sorted(int(n) if n.isdigit() else float(n) for n in said)
        return (ends[-1] if token.norm in HIGHEST else ends[0]) if len(ends) > 1 else None
    return TIMES.get(token.norm)


def _cased(slot: Slot, value: Any) -> Any:
    """A string in the case its description asks for ("ISO code, upper case": 'usd' -> 'USD'), its
    words joined by the mark it asks for ("hyphens instead of spaces": 'good-first-issue')."""
    described = str(slot.schema.get("description", ""))
    cases, joined = {m[1].casefold() for m in CASED.finditer(described)}, JOINED.search(described)
    if not isinstance(value, str) or slot.kind == "enum":
        return value
    value = ("_" if joined[1].casefold() == "underscore" else "-").join(value.split()) if joined else value
    return value if len(cases) != 1 else value.upper() if cases == {"upper"} else value.lower()


def _counted_items(slots: list[Slot], taken: list[Taken], evidence: Evidence) -> dict[str, Any]:
    """The thing a count another parameter took counts (8把椅子 -> 椅子), for a description or
    an item the assignment gave no value or only unmarked words."""
    counts = (counted(evidence.text, evidence.values[k]) for slot, _, k in taken if slot.kind == "integer")
    thing = next(filter(None, counts), "")
    given = {slot.name: evidence.values[k].kind for slot, _, k in taken}
    items = [s for s in slots if s.kind in ("text", "other") and set(identifier_words(s.name)) & ITEMS]
    return {s.name: thing for s in items if thing and given.get(s.name, "phrase") == "phrase"}


def _commands(slots: list[Slot], evidence: Evidence) -> dict[str, Any]:
    """A shell command the text writes out, for the parameters that take one (`command`, `cmd`),
    as written; the values inside it are its own ("shutdown /t 0" gives no other parameter 0)."""
    takers = [slot for slot in slots if _takes_a_command(slot)]
    if (span := command_span(evidence.text) if takers else None) is None:
        return {}
    start, end = span
    evidence.used |= {k for k, v in enumerate(evidence.values) if v.start < end and start < v.end}
    return {slot.name: evidence.text[start:end] for slot in takers}


def _takes_a_command(slot: Slot) -> bool:
    """A string parameter for a shell command: its name says so."""
    return slot.kind not in ("enum", "array", "object", "boolean", "integer", "number") and bool(
        {"command", "cmd"} & set(identifier_words(slot.name))
    )


def _add_options(slots: list[Slot], evidence: Evidence) -> None:
    """Add to the values every place the text names an option of an enum slot."""
    known = {(v.kind, v.start, repr(v.value), v.owner) for v in evidence.values}
    for slot in slots:
        found = enum_values(slot.schema["enum"], evidence) if slot.kind == "enum" else []
        if not slot.required:  # "kayaks" names `rent_kayaks`, not its option "Kayak Tour"
            found = [v for v in found if not _names_the_tool(slot, v, evidence)]
        if slot.kind == "enum" and not found:
            found = meant_option(slot.schema["enum"], evidence)
        spelled = slot.kind not in ("enum", "integer", "number", "boolean")  # "e.g. 120" is a number
        examples = example_values(slot.name, slot.examples, evidence) if spelled else []
        examples = [v for v in examples if not _of_its_kind_there(slot, v, evidence)]
        found += [v for v in examples if not _names_the_tool(slot, v, evidence)]  # "heater": no mode 'heat'
        if slot.kind == "other" and slot.examples and not found:
            found += like_examples(slot, evidence)
        for meaning, code in slot.codes:  # "business class" where "2 for business class": 2
            found += [replace(v, value=code) for v in example_values(slot.name, (meaning,), evidence)]
        for value in found:
            if (value.kind, value.start, repr(value.value), value.owner) not in known:
                known.add((value.kind, value.start, repr(value.value), value.owner))
                evidence.values.append(value)


def _beside_option(slot: Slot, evidence: Evidence) -> str | None:
    """For a required string no value fits, the rest of a phrase that opens with the words of an
    option another parameter took: "a big latte" gives `size` 'large' and `drink` "latte"; not a
    word that stands for the thing without naming it ("a large one", "two small ones"), which a
    named thing leaves out ("a small mushroom one": "mushroom")."""
    if not slot.required or slot.kind != "other":
        return None
    options = [evidence.values[k] for k in sorted(evidence.used) if evidence.values[k].kind == "enum"]
    for option in options:
        for phrase in (v for v in evidence.values if v.kind == "phrase" and v.start == option.start):
            rest = [t for t in evidence.tokens if option.end <= t.start and t.end <= phrase.end]
            named = [k for k, t in enumerate(rest) if t.norm not in STOPWORDS and not _stands_in(t)]
            if named:
                return evidence.text[rest[0].start : rest[named[-1]].end]
    return None


def _stands_in(token: Token) -> bool:
    """Whether the word is a count that stands for a thing: "one", "ones", "two"."""
    return count_of(token.norm.removesuffix("s")) is not None


def _of_its_kind_there(slot: Slot, example: Value, evidence: Evidence) -> bool:
    """Whether the text holds a value of the slot's own kind where it names an example: "500美元" for
    a currency code "如 USD" is a currency, which its place makes the one converted from; the
    example only shows the form (a code)."""
    return any(
        v.kind == slot.kind and v.start < example.end and example.start < v.end for v in evidence.values
    )


def meant_option(options: list[Any], evidence: Evidence) -> list[Value]:
    """The option a word of the text names by meaning, by the encoder: the closest (word, option) pair
    when close enough and clearly ahead of the next; whole words before a compound's first character."""
    named = [str(o) for o in options if isinstance(o, str) and o.strip()]
    tokens = [t for t in evidence.tokens if _may_name_an_option(t, evidence)][:MEANT_WORDS]
    if len(named) < 2 or len(named) != len(options) or not tokens:
        return []
    options_seen = encode([" ".join(identifier_words(o)) or o for o in named]).T
    nouns = [t for t in tokens if t.kind == "han" and 2 <= len(t.text) <= 3 and t.tag.startswith("n")]
    for words in ([(t.text, t) for t in tokens], [(t.text[0], t) for t in nouns]):  # a noun's first: 右窗
        if not words:
            continue
        sims = encode([w for w, _ in words]) @ options_seen
        ranked = np.sort(sims, axis=1)
        best = int(np.argmax(ranked[:, -1]))
        if ranked[best, -1] >= MEANT and ranked[best, -1] - ranked[best, -2] >= MEANT_MARGIN:
            token = words[best][1]
            return [Value("enum", options[int(np.argmax(sims[best]))], token.text, token.start, token.end)]
    return []


def like_examples(slot: Slot, evidence: Evidence) -> list[Value]:
    """The unmarked words of the text that mean what the parameter's examples mean, by the
    encoder ("e.g. cheerful or sad": 欢快, not the other nouns around it): the phrase closest to
    an example, when close enough and clearly closer than the next phrase; for examples that are
    all it takes (no "e.g."), the option a word means (舒适型: 'comfort'), not the word."""
    if len(slot.examples) > 1 and not SOME.search(str(slot.schema.get("description", ""))):
        meant = meant_option(list(slot.examples), evidence)
        return [replace(v, kind="example", owner=slot.name) for v in meant]
    tokens = [t for t in evidence.tokens if _may_name_an_option(t, evidence)]
    words = [Value("phrase", t.text, t.text, t.start, t.end) for t in tokens]
    found = [*words, *(v for v in evidence.values if v.kind == "phrase")]
    if not (phrases := list({v.text: v for v in found}.values())[:MEANT_WORDS]):
        return []
    closest = (encode([v.text for v in phrases]) @ encode(list(slot.examples)).T).max(axis=1)
    ranked = np.sort(closest)
    best = phrases[int(np.argmax(closest))]
    if ranked[-1] < LIKE or len(ranked) > 1 and ranked[-1] - ranked[-2] < MEANT_MARGIN:
        return []
    return [replace(best, kind="example", owner=slot.name)]


def _may_name_an_option(token: Token, evidence: Evidence) -> bool:
    """A content word of the text, not the tool's, not inside a typed value."""
    if token.kind not in ("word", "han") or len(token.text) < 2 or token.norm in STOPWORDS:
        return False
    if concept(token.norm) in evidence.tool_name or any(v.kind not in PLAIN for v in evidence.holding(token)):
        return False
    return not negated(evidence, token.start)


def _names_the_tool(slot: Slot, value: Value, evidence: Evidence) -> bool:
    """Whether the words that named an option are all words of the tool's own name, with no
    label of the parameter next to them ("of type SKU" is the option)."""
    words = {concept(w) for w in value.text.casefold().split()}
    before, _ = evidence.near(value, -1, 1)
    labelled = any(cue_weight(slot, word) == 1.0 for _, word in before)
    return bool(words) and words <= evidence.tool_name and not labelled


def assign(slots: list[Slot], evidence: Evidence) -> list[Taken]:
    """Greedy assignment of scalar values to slots, best-scoring pairs first."""
    scalar = [s for s in slots if s.kind not in ("array", "object", "boolean")]
    pairs = []
    for rank, index, typed, row in weighed(scalar, evidence):
        if (points := weigh(scalar[rank], evidence.values[index], row)) is not None:
            pairs.append((points, rank, index, scalar[rank], typed))
    pairs.sort(key=lambda pair: (-pair[0], pair[1], pair[2]))
    done: set[str] = set()
    chosen = []
    for _, _, index, slot, typed in pairs:
        if slot.name in done or index in evidence.used or _overlaps_used(evidence, evidence.values[index]):
            continue
        done.add(slot.name)
        evidence.used.add(index)
        clock = slot.kind == "date" and "T" in str(typed) and clock_with(evidence.values[index], evidence)
        if clock:
            evidence.used.add(evidence.values.index(clock))  # 周五下午两点: the date took its time too
        chosen.append((slot, typed, index))
    return _required_filled(chosen, pairs, evidence)


def _required_filled(
    chosen: list[Taken], pairs: list[tuple[float, int, int, Slot, Any]], evidence: Evidence
) -> list[Taken]:
    """The assignment with a required number slot it left empty given the number a string slot
    took by its label, when that slot is optional or has another value to take: "the bedroom fan
    to 3" gives `speed` 3 and `fan` "bedroom", not `fan` 3 and no speed."""
    for _, _, index, slot, typed in (p for p in pairs if p[3].kind in NUMERIC and p[3].required):
        held = [k for k, taken in enumerate(chosen) if taken[2] == index and taken[0].kind not in NUMERIC]
        if not held or slot.name in {taken[0].name for taken in chosen}:
            continue
        other = chosen[held[0]][0]
        free = [p for p in pairs if p[3] is other and not _overlaps_used(evidence, evidence.values[p[2]])][:1]
        if free or not other.required:
            chosen[held[0]] = (slot, typed, index)
            chosen += [(other, p[4], p[2]) for p in free]
            evidence.used |= {p[2] for p in free}
    return chosen


def weighed(
    scalar: list[Slot], evidence: Evidence, every: bool = False
) -> list[tuple[int, int, Any, dict[str, float]]]:
    """(slot rank, value index, typed value, features) for every pair no veto rules out: the
    pair's `fit.features` (`every` one of them, for the fit) and its place in the assignment
    (required, in step, out of order)."""
    enums = Spans((v.start, v.end) for v in evidence.values if v.kind == "enum")
    fits: list[tuple[int, int, Any]] = []  # (slot rank, value index, typed value)
    for rank, slot in enumerate(scalar):
        for index, value in enumerate(evidence.values):
            if value.kind in ("name", "phrase") and enums.overlaps(value.start, value.end):
                continue  # words that name an enum option are that option, not a name nor free text
            if (typed := typed_value(slot, value, evidence)) is not None and index not in evidence.used:
                fits.append((rank, index, typed))
    # On a tie, the n-th slot takes the n-th value that fits it: "GCD of 96 and 128".
    value_place, taker_place = _places(fits)
    paired = _in_step(scalar, evidence)
    rows = []
    for rank, index, typed in fits:
        if (row := features(scalar[rank], evidence.values[index], evidence, every)) is not None:
            order = abs(taker_place[rank, index] - value_place[rank, index])
            row |= {"required": float(scalar[rank].required), "in_step": float(paired.get(index) == rank)}
            rows.append((rank, index, typed, row | {"out_of_order": float(order)}))
    return rows


Places = dict[tuple[int, int], int]  # (slot rank, value index) -> a place in a list


def _places(fits: list[tuple[int, int, Any]]) -> tuple[Places, Places]:
    """For each (slot rank, value index) that fits: the value's place among the values that fit
    that slot, and the slot's place among the slots that value fits, in one pass."""
    value_place: Places = {}
    taker_place: Places = {}
    values_seen: Counter[int] = Counter()
    takers_seen: Counter[int] = Counter()
    for rank, index, _ in fits:
        value_place[rank, index], taker_place[rank, index] = values_seen[rank], takers_seen[index]
        values_seen[rank] += 1
        takers_seen[index] += 1
    return value_place, taker_place


def _in_step(slots: list[Slot], evidence: Evidence) -> dict[int, int]:
    """Value index -> slot rank for names listed right before values listed ("x and y are 3 and 4")."""
    paired: dict[int, int] = {}
    for group in evidence.groups():
        first = evidence.values[group[0]]
        _, seen = evidence.near(first, -1, len(group) + 2)
        ideas = [concept(word) for word in reversed(seen) if word not in LINKS | LIST_GLUE]
        named = [next((rank for rank, s in enumerate(slots) if idea in s.name_words), None) for idea in ideas]
        named = [rank for rank in named if rank is not None][-len(group) :]
        if len(named) == len(group) and len(set(named)) == len(named):
            paired |= dict(zip(group, named, strict=True))
    return paired


def _overlaps_used(evidence: Evidence, value: Value) -> bool:
    return any(
        evidence.values[k].start < value.end and value.start < evidence.values[k].end for k in evidence.used
    )


def _structured(slot: Slot, evidence: Evidence, root: Schema, guess: bool, depth: int) -> Any:
    """Booleans, arrays, objects and free text: read from the whole sub-request."""
    if slot.kind == "boolean":
        return flag_value(slot, evidence)
    if slot.kind == "array":
        return _array(slot, evidence, root, depth)
    if slot.kind == "object":
        filled = fill_object(slot.schema, evidence, root, guess and slot.required, depth + 1, slot.role)
        return filled or None
    if slot.kind == "text" and (slot.required or _mentioned(slot, evidence)):
        labelled = labelled_text(set(identifier_words(slot.name)), evidence.tool_words, evidence.text)
        said = labelled or after_colon(evidence.text, evidence.used_spans())
        content = bool(role_words(slot) & CONTENT)  # a note's text: what is to be done, its verb too
        return said or without_tool_head(left_over(evidence, content=content), evidence.own) or None
    return None


def role_words(slot: Slot) -> set[str]:
    """The words that say what a text parameter holds: its name's, and its description's Chinese
    words, as a name in pinyin says nothing the lexicon reads (`neirong`, 消息内容: a message's text)."""
    described = segment(clean(str(slot.schema.get("description", ""))[:200]))
    return set(identifier_words(slot.name)) | {t.norm for t in described if t.kind == "han"}


def _state_of_city(slot: Slot, evidence: Evidence) -> str | None:
    """A `state` the request does not name, for a US city it does: "Denver" is in CO, or in
    Colorado when the description neither asks for a code nor shows one."""
    if slot.kind not in ("place", "other") or "state" not in identifier_words(slot.name):
        return None
    cities = [city(v.text) for v in evidence.values if v.kind == "name"]
    if (found := next((c for c in cities if c and c.country == "US"), None)) is None:
        return None
    described = str(slot.schema.get("description", ""))
    spelled = any(state_code(word) == word for word in re.findall(r"\b[A-Z]{2}\b", described))
    return found.state if spelled or wants_code(slot) else state_name(found.state) or found.state


def left_over(evidence: Evidence, clause: bool = True, content: bool = False) -> str:
    """The sub-request without the tool's words and the values used (`free_text.remainder`);
    when nothing is left, without only its name's words, then without none: a word the tool's
    own text uses may be the value ("Put on some ska" for a tool that plays "ska or jazz")."""
    used = evidence.used_spans()
    for name, k in evidence.chosen.items():  # "sorted by price" for `sort`: the label's words
        at = bisect.bisect_left(evidence.starts, evidence.values[k].start)
        after = bisect.bisect_left(evidence.starts, evidence.values[k].end)  # "high priority" for `priority`
        named = {concept(w) for w in identifier_words(name)}
        near = [*evidence.tokens[max(at - 2, 0) : at], *evidence.tokens[after : after + 1]]
        used += [(t.start, t.end) for t in near if concept(t.norm) in named]
    for words in (evidence.tool_words, set(evidence.tool_name), set()):
        if left := remainder(evidence.tokens, evidence.text, used, words, clause, content):
            return left
    return ""


def _array(slot: Slot, evidence: Evidence, root: Schema, depth: int) -> list[Any] | None:
    items = resolve(slot.schema.get("items", {}), root)
    item = slot_of(slot.name, {**items, "description": slot.schema.get("description", "")}, True)
    if item.kind == "enum":
        found = sorted(enum_values(items["enum"], evidence), key=lambda v: v.start)  # in the order written
        return list(dict.fromkeys(v.value for v in found)) or None
    if item.kind in ("integer", "number"):
        return _numbers_listed(item, evidence)
    if item.kind == "array":  # "(0, 0), (4, 0) and (4, 3)": the numbers in each pair of brackets
        spans = [m.span() for m in re.finditer(r"[\[(][^\[\]()]*[\])]", evidence.text)]
        numbers = [v for v in evidence.values if v.kind == "number"]
        found = [[v.value for v in numbers if a < v.start < b] for a, b in spans]
        return [pair for pair in found if pair] or None
    if item.kind == "object":  # "2 pens at $3 and 1 pad at $5": an object of each piece
        pieces = [p for p in ITEM_BREAKS.split(evidence.text) if p.strip()]
        split = len(pieces) > 1 and all(p.strip()[:1].isdigit() for p in pieces[1:])  # each after a count
        read = [Evidence.of(Tool(slot.name, evidence.own, items), p) for p in pieces] if split else [evidence]
        found = [fill_object(items, text, root, False, depth + 1) for text in read]
        return [filled for filled in found if filled] or None
    if named := list(dict.fromkeys(v.value for v in example_values(slot.name, item.examples, evidence))):
        return named  # "a nut-free cake", where the description says "e.g. nut-free, dairy-free"
    quoted = [v.value for k, v in enumerate(evidence.values) if v.kind == "quoted" and k not in evidence.used]
    if len(quoted) >= 2:  # "tag it 'urgent' and 'home'" (quotes another parameter took are its own)
        return quoted
    names = [g for g in evidence.groups() if evidence.values[g[0]].kind in ("name", "email", item.kind)]
    if names := [g for g in names if not set(g) & evidence.used]:
        evidence.used |= set(names[0])  # "with Ingrid, Bruno and Keiko": names, or e-mail addresses
        return [evidence.values[k].value for k in names[0]]
    if not slot.required and not _mentioned(slot, evidence):
        return None  # a list the call may take, from words that do not name it: left out
    phrase = evidence.text.split(":", 1)[1] if ":" in evidence.text else left_over(evidence, clause=False)
    found = list_items(phrase)
    chain = next((c for c in word_lists(evidence, least=2) if not set(c) & evidence.used), [])
    held = [item for item in found if any(v.text in item for v in evidence.values if v.kind in PLAIN)]
    first = evidence.values[chain[0]].text in found[0] if chain and found else False  # it starts the list
    if first and len(chain) >= len(held):  # "yogurt and berries, and keep it cold": the values listed
        return [evidence.values[k].value for k in chain]
    return found or None


def _numbers_listed(item: Slot, evidence: Evidence) -> list[Any] | None:
    """The first list of numbers not used yet ("scores 85, 90, 88"), its numbers then used;
    without a written list, every number not used."""
    real = item.kind == "number"  # a list of `number` items is written as reals: [12.0, 15.0]
    for group in evidence.groups():
        if not set(group) & evidence.used:
            numbers = [typed_value(item, evidence.values[k]) for k in group]
            if None not in numbers and len(numbers) > 1:
                evidence.used |= set(group)
                return [float(n) for n in numbers] if real else numbers
    numbers = [typed_value(item, v) for k, v in enumerate(evidence.values) if k not in evidence.used]
    found = [float(n) if real else n for n in numbers if n is not None]
    return found or None


def _mentioned(slot: Slot, evidence: Evidence) -> bool:
    said = {concept(t.norm) for t in evidence.tokens}
    return any(concept(w) in said for w in identifier_words(slot.name))


def _fallback(slot: Slot, evidence: Evidence, root: Schema, depth: int) -> Any:
    """A required slot the text gave no value for: its default, else a best guess."""
    schema = slot.schema
    default = default_of(schema)
    if default is not NO_DEFAULT:
        return default
    if slot.kind == "enum":
        return schema["enum"][0]
    if slot.kind in ("integer", "number"):
        low = schema.get("minimum", 1 if slot.kind == "integer" else 0)
        return low if isinstance(low, int | float) else 0
    if slot.kind == "boolean":
        return False
    if slot.kind == "array":
        return []
    if slot.kind == "object":
        return fill_object(schema, evidence, root, True, depth + 1)
    free = [
        v for k, v in enumerate(evidence.values) if k not in evidence.used and v.kind in ("name", "quoted")
    ]
    if free:
        evidence.used.add(evidence.values.index(free[0]))
        return free[0].value
    return left_over(evidence) or evidence.text.strip()


def reasons(tool: Tool, text: str) -> dict[str, dict[str, Any]]:
    """For each argument the assignment bound from `text`: the value, each feature's contribution
    (its value times its weight), and the points they add up to with the bias (`explain` shows them)."""
    evidence, bound = bind_evidence(tool, text)
    slots = {slot.name: slot for slot in slots_of(tool.parameters, tool.parameters)}
    table = weights()
    found = {}
    for name, index in evidence.chosen.items():
        row = features(slots[name], evidence.values[index], evidence) or {}
        contributions = {feature: round(v * table.weights[feature], 3) for feature, v in row.items()}
        points = round(table.points(row), 3)
        found[name] = {"value": bound[name], "contributions": contributions, "points": points}
    return found
