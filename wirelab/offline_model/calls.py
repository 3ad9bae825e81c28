"""Stage 5b, several calls from one intent: a list where the tool takes one value.

    bind_all(weather, "weather in Paris and Rome")
    # -> [{"city": "Paris"}, {"city": "Rome"}]

One intent becomes several calls only when the text lists values for a
parameter that takes one ("Paris and Rome", "for 10, 20 and 30 years"):

- a list fills the parameters that each take one of its values first ("the
  GCD of 40 and 50" is one call with two numbers);
- a list left over makes one call per value, the other arguments kept;
- two lists go in step when the text says "respectively" ("Taylor Swift and
  Maroon 5 for 20 and 15 minutes respectively" is two calls, each with its own
  pair), and make every combination otherwise ("BRCA1 and BRCA2 in humans and
  chimpanzees" is four);
- a second set of values of the kinds the first call used ("3 and 4, then 5
  and 12" for `a`, `b`) makes another call.

A single value never does: a number or name the call did not need is context,
not a second call.
"""

from __future__ import annotations

from typing import Any

from wirelab.offline_model.binding import assign, fill_object, score, typed_value
from wirelab.offline_model.evidence import Evidence
from wirelab.offline_model.request import Tool
from wirelab.offline_model.slots import slots_of

MAX_CALLS = 8  # calls one intent may become


def bind_all(tool: Tool, text: str, *, guess: bool = True) -> list[dict[str, Any]]:
    """One set of arguments per set of values the text gives (see the module docstring)."""
    evidence = Evidence.of(tool, text)
    first = fill_object(tool.parameters, evidence, tool.parameters, guess, 0)
    slots = {slot.name: slot for slot in slots_of(tool.parameters, tool.parameters)}
    lists = []
    for group in evidence.groups():
        taken = [name for name, index in evidence.chosen.items() if index in group]
        free = [k for k in group if k not in evidence.used]
        if len(taken) == 1 and free:
            slot = slots[taken[0]]
            typed = [
                typed_value(slot, evidence.values[k])
                for k in group
                if k == evidence.chosen[slot.name] or k in free
            ]
            if None not in typed:
                lists.append((slot.name, typed))
    if lists:
        respectively = any(t.norm in ("respectively", "分别", "各自") for t in evidence.tokens)
        return _in_step(first, lists) if respectively or len(lists) == 1 else _every(first, lists)
    return [first] + _again(evidence, first, slots)


def one_call(tool: Tool, text: str) -> bool:
    """Whether `text` asks for one call of `tool`: no value is left over that would fill a
    parameter another value filled ("$30 in Chicago, $52 in Sacramento" is two calls; "weight
    80 kg and height 180 cm" one). Values in a list are `bind_all`'s to spread."""
    evidence = Evidence.of(tool, text)
    filled = fill_object(tool.parameters, evidence, tool.parameters, False, 0)
    slots = [slot for slot in slots_of(tool.parameters, tool.parameters) if slot.name in filled]
    listed = {k for group in evidence.groups() if set(group) & evidence.used for k in group}
    for k, value in enumerate(evidence.values):
        if k in evidence.used or k in listed or not _is_written(value) and value.kind != "name":
            continue
        if any(
            typed_value(slot, value) is not None and (score(slot, value, evidence) or 0) >= 2
            for slot in slots
        ):
            return False
    return True


def announces(tool: Tool, text: str) -> bool:
    """Whether `text` asks for the tool but gives none of its values in writing ("I need a
    database set up."): the sentence after it, which does, is the same call."""
    evidence = Evidence.of(tool, text)
    filled = fill_object(tool.parameters, evidence, tool.parameters, False, 0)
    slots = {slot.name: slot for slot in slots_of(tool.parameters, tool.parameters) if slot.name in filled}
    for name, k in evidence.chosen.items():
        value = evidence.values[k]
        if _is_written(value) or value.kind == "name" and (score(slots[name], value, evidence) or 0) >= 2.5:
            return False
    return True


def _in_step(first: dict[str, Any], lists: list[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    """A call per position of the lists; lists of other lengths than the longest keep the first value."""
    size = max(len(values) for _, values in lists)
    calls = []
    for position in range(min(size, MAX_CALLS)):
        arguments = dict(first)
        for name, values in lists:
            if len(values) == size:
                arguments[name] = values[position]
        calls.append(arguments)
    return calls


def _every(first: dict[str, Any], lists: list[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    """A call for every combination: "BRCA1 and BRCA2 in humans and chimpanzees" is four calls."""
    calls = [dict(first)]
    for name, values in lists:
        calls = [{**call, name: value} for call in calls for value in values][:MAX_CALLS]
    return calls


def _again(evidence: Evidence, first: dict[str, Any], slots: dict) -> list[dict[str, Any]]:
    """Further calls from values left over, as long as they fill every slot the first call
    filled from a written number, date, quote, e-mail or code."""
    written = {
        name: evidence.values[index].kind
        for name, index in evidence.chosen.items()
        if _is_written(evidence.values[index])
    }
    if not written:
        return []
    again = [slots[name] for name in written]
    calls: list[dict[str, Any]] = []
    while len(calls) < MAX_CALLS:
        evidence.chosen = {}
        extra = {
            slot.name: value
            for slot, value, index in assign(again, evidence)
            if evidence.values[index].kind == written[slot.name]
        }
        if set(extra) != set(written):
            return calls
        calls.append({**first, **extra})
    return calls


def _is_written(value: Any) -> bool:
    """A value that repeats reliably: digits (not a number word such as "two"), a quote, a date,
    an e-mail or a code. A name left over is more often context than a second call."""
    if value.kind == "number":
        return value.text[:1].isdigit() or value.text[:1] == "-"
    return value.kind in ("quoted", "date", "email", "code")


CLEARLY = 3.0  # a value's binding score that only a label, a specific kind or its unit reaches


def gives_what_it_needs(text: str, tool: Tool) -> bool:
    """Whether `text` clearly gives every value `tool` requires: each required parameter takes
    a value of its own kind with a label, a unit or a specific type, not loose words; a flag, a
    list or an object counts when the text fills it."""
    required = tool.parameters.get("required")
    if not isinstance(required, list) or not required:
        return False
    evidence = Evidence.of(tool, text)
    filled = fill_object(tool.parameters, evidence, tool.parameters, False, 0)
    slots = {slot.name: slot for slot in slots_of(tool.parameters, tool.parameters)}
    for name in required:
        if name not in filled or name not in slots:
            return False
        index = evidence.chosen.get(name)
        if index is None:
            continue  # a flag, a list, an object or free text the text filled
        value = evidence.values[index]
        if value.kind == "phrase" or (score(slots[name], value, evidence) or 0) < CLEARLY:
            return False
    return True
