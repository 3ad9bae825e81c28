"""Choose tools by word overlap with their names and descriptions.

A tool's vocabulary is the stems of its name (weight 3), its description
(weight 2) and its parameters' names, descriptions and enum values (weight 1).
A sub-request's score for a tool is the sum, over the distinct content words
of the sub-request, of the weight each has in the tool's vocabulary. A tool
is chosen when its score reaches `THRESHOLD`; ties go to the tool listed first.

    weather = Tool("get_weather", "Current weather for a city.", {...})
    vague = Tool("helper", "Does useful things.", {...})
    score("What's the weather in Paris?", weather), score("What's the weather in Paris?", vague)
    # -> (3.0, 0.0)

So a tool whose name and description do not use the user's words is not chosen:
describing tools well (lesson 03) is what makes them callable. Left out:
synonyms, embeddings, and anything else that would hide why a tool was chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wirelab.offline_model.arguments import has_evidence_for, resolve
from wirelab.offline_model.text import identifier_words, split_requests, stems
from wirelab.offline_model.validation import Tool

NAME_WEIGHT, DESCRIPTION_WEIGHT, PARAMETER_WEIGHT = 3.0, 2.0, 1.0
THRESHOLD = 2.0


@dataclass(frozen=True)
class PlanItem:
    """One sub-request and the tool chosen for it."""

    request: str
    tool: Tool


def vocabulary(tool: Tool) -> dict[str, float]:
    """Each stem of the tool's name, description and parameters, with its weight."""
    weights: dict[str, float] = {}
    for text, weight in (
        (_parameter_text(tool.parameters), PARAMETER_WEIGHT),
        (tool.description, DESCRIPTION_WEIGHT),
        (" ".join(identifier_words(tool.name)), NAME_WEIGHT),
    ):
        weights.update(dict.fromkeys(stems(text), weight))
    return weights


def _parameter_text(schema: dict[str, Any]) -> str:
    parts = []
    for name, prop in schema.get("properties", {}).items():
        prop = resolve(prop, schema)
        parts += identifier_words(name) + [str(prop.get("description", ""))]
        parts += [str(v) for v in prop.get("enum", [])]
    return " ".join(parts)


def score(request: str, tool: Tool) -> float:
    """How well `request` matches `tool` (see the module docstring)."""
    known = vocabulary(tool)
    return sum(known.get(word, 0.0) for word in set(stems(request)))


def best_tool(request: str, tools: tuple[Tool, ...]) -> tuple[Tool | None, float]:
    """The highest-scoring tool (the first listed on a tie) and its score."""
    best, top = None, 0.0
    for tool in tools:
        points = score(request, tool)
        if best is None or points > top:
            best, top = tool, points
    return best, top


def plan(text: str, tools: tuple[Tool, ...]) -> list[PlanItem]:
    """One item per sub-request that clears the threshold.

    A sub-request that matches no tool but names a new value for the first
    required property of the previous item's tool ("weather in Paris *and in
    Rome*") is another call of that tool; otherwise it is context added to the
    previous item ("email Ann *and say hello*"). Two neighbouring items for the
    same tool that takes an array become one ("add eggs *and* milk").
    """
    items: list[PlanItem] = []
    for piece in split_requests(text):
        tool, points = best_tool(piece, tools)
        if tool is not None and points >= THRESHOLD:
            items.append(PlanItem(piece, tool))
        elif items and _names_new_value(piece, items[-1].tool):
            items.append(PlanItem(piece, items[-1].tool))
        elif items:
            items[-1] = PlanItem(f"{items[-1].request} and {piece}", items[-1].tool)
    return _merge_lists(items)


def _names_new_value(piece: str, tool: Tool) -> bool:
    required = tool.parameters.get("required", [])
    return bool(required) and has_evidence_for(tool, piece, required[0])


def _merge_lists(items: list[PlanItem]) -> list[PlanItem]:
    merged: list[PlanItem] = []
    for item in items:
        if merged and merged[-1].tool == item.tool and _takes_array(item.tool):
            merged[-1] = PlanItem(f"{merged[-1].request} and {item.request}", item.tool)
        else:
            merged.append(item)
    return merged


def _takes_array(tool: Tool) -> bool:
    properties = tool.parameters.get("properties", {}).values()
    return any(resolve(p, tool.parameters).get("type") == "array" for p in properties)


def best_piece(text: str, tool: Tool) -> str:
    """The sub-request that matches `tool` best, or the whole text if none matches at all."""
    pieces = split_requests(text) or [text]
    top = max(pieces, key=lambda piece: score(piece, tool))
    return top if score(top, tool) > 0 else text
