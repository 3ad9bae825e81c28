"""Why the model chose what it chose: each stage's decision for a request, with its evidence.

    >>> def tool(name, description, key):
    ...     schema = {"type": "object", "properties": {key: {"type": "string"}}, "required": [key]}
    ...     function = {"name": name, "description": description, "parameters": schema}
    ...     return {"type": "function", "function": function}
    >>> tools = [tool("wake_up", "Set an alarm clock.", "time"), tool("get_weather", "City weather.", "city")]
    >>> steps = explain({"model": "wirelab-offline", "tools": tools,
    ...                  "messages": [{"role": "user", "content": "明天早上7:00叫醒我"}]})["stages"]
    >>> [(step["stage"], step["decision"]) for step in steps][1:3]
    [('select by words', []), ('select by meaning', 'wake_up')]
    >>> steps[-1]["decision"]
    [{'name': 'wake_up', 'arguments': '{"time":"07:00"}'}]

The stages are those of `policy.items_for` for a fresh message: the small-talk and negation
check; selection by the tools' words (`selection.plan`); a lone tool they chose, dropped when the
message only talks about its topic (`policy.heard`); where the words tie on several tools
in a piece of the message, each one's cosine (the closest wins); selection by meaning, only
when the words chose no tool and named no tool's topic: one stage per piece of the message, the
piece as the model read it (`selection.read_by_meaning`), with every tool's features, the fitted
weights and the probability; for each call made from the plan, the features and weights behind
each argument binding gave it (`binding.reasons`), read from the piece of the message the call
was bound from (under "pieces"; a second call of a tool is "name (2)"); and the calls the model
returns.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from wirelab.offline_model import meaning, selection
from wirelab.offline_model.binding import reasons
from wirelab.offline_model.context import conversation
from wirelab.offline_model.intents import pieces, unwrap
from wirelab.offline_model.normalize import clean
from wirelab.offline_model.policy import dated, decide, fresh_call, heard, items_for
from wirelab.offline_model.request import Call, Tool
from wirelab.offline_model.selection import PlanItem
from wirelab.offline_model.wire.validation import read_request


def explain(body: dict[str, Any]) -> dict[str, Any]:
    """The decisions behind the reply to a Chat Completions request body (see the module docstring)."""
    request = read_request(body)
    talk = conversation(request.messages)
    text = talk.text
    nothing = selection.asks_for_nothing(text)
    planned = [] if nothing else selection.plan(text, request.tools)
    by_words = [item.tool.name for item in planned]
    stages: list[dict[str, Any]] = [
        {"stage": "asks for nothing", "decision": nothing},
        {"stage": "select by words", "decision": by_words},
    ]
    ties = [_tie(piece.text, request.tools) for piece in pieces(unwrap(clean(text)))] if by_words else []
    if any(ties):
        stages.append({"stage": "words tie, meaning decides", "decision": [tie for tie in ties if tie]})
    if planned and not heard(planned, text, request.tools):
        stages.append(_small_talk(text, request.tools))
    tools = request.tools  # meaning reads what words chose none for, among several tools or naming no topic
    if not (nothing or by_words) and tools and (len(tools) > 1 or not selection.names_a_topic(text, tools)):
        stages += [_by_meaning(reading) for reading in selection.read_by_meaning(text, tools)]
    if made := decide(request).calls:
        with dated(request):  # "tomorrow" read as the model read it
            stages += _bound(made, items_for(request, talk))
    calls = [{"name": call.name, "arguments": call.arguments} for call in made]
    return {"request": text, "stages": [*stages, {"stage": "calls", "decision": calls}]}


def _bound(calls: tuple[Call, ...], items: list[PlanItem]) -> list[dict[str, Any]]:
    """The "bind" stage: each call that an item of the plan makes, bound from that item's piece."""
    planned: dict[tuple[str, str], PlanItem] = {}
    for item in items:
        call = fresh_call(item)
        planned.setdefault((call.name, call.arguments), item)
    bound, sources, times = {}, {}, Counter[str]()
    for call in calls:
        item = planned.get((call.name, call.arguments))
        if item is None:  # a correction, or a fault's call: not bound from the message
            continue
        times[call.name] += 1
        key = call.name if times[call.name] == 1 else f"{call.name} ({times[call.name]})"
        bound[key], sources[key] = reasons(item.tool, item.request), item.request
    return [{"stage": "bind", "decision": bound, "pieces": sources}] if bound else []


def _tie(piece: str, tools: tuple[Tool, ...]) -> dict[str, Any]:
    """Each tool the piece's words tie on, with its cosine, and the closest ({} with no tie)."""
    matches, _, top = selection.by_words(piece, tools)
    if not (tied := selection.word_tie(matches, top)):
        return {}
    near = meaning.cosines(piece, tied)[1]
    cosines = {tool.name: round(float(c), 3) for tool, c in zip(tied, near, strict=True)}
    return {"piece": piece, "tool": tied[int(near.argmax())].name, "cosines": cosines}


def _small_talk(text: str, tools: tuple[Tool, ...]) -> dict[str, Any]:
    """The lone tool the words chose, dropped: the message states no value, the `chatter` probe
    hears no request (log-odds above 0) and meaning gives the tool less than `meaning.AMONG`."""
    chatter = meaning.chatter(text)
    probability = selection.meaning_choice(text, tools).rows[0][2]
    return {
        "stage": "only talks about the lone tool",
        "decision": [],
        "chatter": round(chatter, 3),
        "probability": round(probability, 3),
        "threshold": meaning.AMONG,
    }


def _by_meaning(reading: selection.Reading) -> dict[str, Any]:
    """The meaning stage on one piece of the message, as the model read it (the whole message
    when no piece picked a tool): each tool's features, contributions and probability."""
    stage: dict[str, Any] = {"stage": "select by meaning", "piece": reading.text}
    if reading.choice is None:
        return stage | {"decision": None, "asks for nothing": True}
    fitted = meaning.weights()
    rows = [
        {
            "tool": tool.name,
            "features": {name: round(row[name], 3) for name in meaning.NAMES},
            "contributions": {
                name: round(row[name] * fitted.weights[name], 3) + 0.0 for name in meaning.NAMES
            },
            "probability": round(probability, 3),
        }
        for tool, row, probability in reading.choice.rows
    ]
    return stage | {
        "decision": reading.tool.name if reading.tool else None,
        "weights": fitted.weights,
        "bias": fitted.bias,
        "threshold": reading.choice.bar,
        "tools": rows,
    }
