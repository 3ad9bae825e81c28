"""Stage 6a, keep context: read the conversation, and carry a follow-up on from the last call.

    >>> from wirelab.offline_model import complete
    >>> convert = {"type": "function", "function": {"name": "convert", "description": "Convert money.",
    ...     "parameters": {"type": "object", "properties": {"amount": {"type": "number"},
    ...     "from_currency": {"type": "string"}, "to_currency": {"type": "string"}}}}}
    >>> sent = '{"amount":100,"from_currency":"USD","to_currency":"EUR"}'
    >>> called = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
    ...     "function": {"name": "convert", "arguments": sent}}]}
    >>> talk = [{"role": "user", "content": "Convert 100 USD to EUR"}, called,
    ...     {"role": "tool", "tool_call_id": "c1", "content": '{"result": 92.1}'},
    ...     {"role": "user", "content": "And what about 50 GBP?"}]
    >>> reply = complete({"model": "wirelab-offline", "messages": talk, "tools": [convert]})
    >>> reply["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]  # only what changed
    '{"amount":50,"from_currency":"GBP","to_currency":"EUR"}'

The model keeps no state between requests: `conversation` reads the last user message and the
tool calls made since. `continued` reads the plan against the last turn's calls: a call of their
tool keeps their value for a required one the message does not state ("The attic lamp as well":
on again, not a guessed off); a message that asks for no call it can fill makes them again with
what it changes (a typed value or a name; a phrase after "same", 呢 or an opening "And"; "X
instead of Y" changes the parameter that held Y). `completed` reads an answer to the model's
question with the message before it; `made` keeps the tools of the calls already made for this
message, so that their errors are repaired, not answered with another tool.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from wirelab.offline_model.binding import bind, bind_marked
from wirelab.offline_model.calls import in_order
from wirelab.offline_model.lexicon import lexicon_list
from wirelab.offline_model.normalize import MAX_TEXT, Token, clean, segment
from wirelab.offline_model.request import Call, Message, Tool, compact
from wirelab.offline_model.results import ToolResult, read_result
from wirelab.offline_model.selection import PlanItem, asks_for_nothing, plan, plan_by_meaning
from wirelab.offline_model.sharing import bind_plan

FOLLOW_UP = lexicon_list("follow_up")  # a message that goes on from the last call says so
REPLACED = lexicon_list("replaced")  # what follows names the value the message replaces
AND = lexicon_list("intent_and")

Attempt = tuple[Call, ToolResult]


@dataclass(frozen=True)
class Conversation:
    """The last user message, the turns of tool calls since, and the last calls made before it."""

    text: str
    turns: list[list[Attempt]]
    earlier: tuple[Call, ...]  # the calls of the last turn before it
    before: str  # the user's message before, when it was answered in words


def conversation(messages: tuple[Message, ...]) -> Conversation:
    """Read the messages (see the module docstring)."""
    start = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    text = messages[start].text[:MAX_TEXT] if start >= 0 else ""  # all any stage reads of it
    turns = [_turn(messages, i) for i in range(start + 1, len(messages)) if messages[i].tool_calls]
    earlier = next((m.tool_calls for m in reversed(messages[: max(start, 0)]) if m.tool_calls), ())
    asked = max((i for i, m in enumerate(messages[: max(start, 0)]) if m.role == "user"), default=-1)
    answered = asked >= 0 and not any(m.tool_calls for m in messages[asked:start])
    return Conversation(text, turns, earlier, messages[asked].text if answered else "")


def _turn(messages: tuple[Message, ...], index: int) -> list[Attempt]:
    """The calls of message `index`, each with the result that answers it (an empty one if none)."""
    results = {}
    for message in messages[index + 1 :]:
        if message.role != "tool":
            break
        results[message.tool_call_id] = read_result(message.text)
    return [(call, results.get(call.id, ToolResult(""))) for call in messages[index].tool_calls]


def continued(items: list[PlanItem], talk: Conversation, tools: tuple[Tool, ...]) -> list[PlanItem]:
    """The plan read against the last calls made before the message (see the module docstring)."""
    tool = next((t for t in tools if talk.earlier and t.name == talk.earlier[-1].name), None)
    bases = [b for c in talk.earlier if tool and c.name == tool.name and (b := c.parsed()) is not None]
    if tool is None or not bases:
        return items
    if any(not item.missing for item in items):  # the message asks for a call it can fill
        return [_keeping(item, bases[-1]) if item.tool is tool else item for item in items]
    cued, nothing = bool(_cues(clean(talk.text))), asks_for_nothing(talk.text)  # "And tomorrow?"
    if not cued and (nothing or any(item.tool is not tool for item in items)):
        return items
    changed = _changes(tool, bases[-1], talk.text, phrases=not nothing)
    calls = {compact(base | changed): in_order(tool, base | changed) for base in bases} if changed else {}
    return [PlanItem(talk.text, tool, arguments) for arguments in calls.values()] or items


def _keeping(item: PlanItem, base: dict[str, Any]) -> PlanItem:
    """The item with the last call's values for the required ones its message does not state."""
    stated = bind(item.tool, item.request, guess=False)
    kept = {k: base[k] for k in item.arguments or {} if k not in stated and k in base}
    return replace(item, arguments={**(item.arguments or {}), **kept}) if kept else item


def _cues(text: str) -> list[Token]:
    """The follow-up words of the (cleaned) message, and a joiner it opens with ("And …?")."""
    words = [token for token in segment(text) if token.kind != "punct"]
    opening = words[:1] if words and words[0].norm in AND else []
    return opening + [token for token in words if token.norm in FOLLOW_UP | REPLACED]


def _changes(tool: Tool, base: dict[str, Any], text: str, phrases: bool) -> dict[str, Any]:
    """The values the message changes: marked ones, or after a cue the phrases (the cue words
    left out) for parameters the last call had; 'X instead of Y' gives X to the parameter that held Y."""
    text = clean(text)
    cues = _cues(text)
    cut = min((t.start for t in cues if t.norm in REPLACED), default=len(text))
    if not (new := bind_marked(tool, text[:cut])) and cues and phrases:  # the cue words are no values
        chars = list(text[:cut])
        for cue in cues:
            chars[cue.start : cue.end] = " " * len(chars[cue.start : cue.end])
        new = {k: v for k, v in bind(tool, "".join(chars), guess=False).items() if k in base}
    old = bind_marked(tool, text[cut:]) if cut < len(text) else {}
    held = [k for k, v in base.items() if v in old.values() and not isinstance(v, bool)]
    return {held[0]: next(iter(new.values()))} if len(new) == 1 and len(held) == 1 else new


def completed(items: list[PlanItem], talk: Conversation, tools: tuple[Tool, ...]) -> list[PlanItem]:
    """The tools chosen for the message before, bound on it with this one, when that one lacked
    a value (the model asked for it) and this one gives it: together they fill every item."""
    if not talk.before or any(not item.missing for item in items) or asks_for_nothing(talk.text):
        return items
    asked = bind_plan(plan(talk.before, tools) or plan_by_meaning(talk.before, tools))
    both = f"{talk.before}\n{talk.text}"
    again = bind_plan([PlanItem(both, item.tool) for item in asked]) if all(i.missing for i in asked) else []
    return again if again and not any(item.missing for item in again) else items


def made(items: list[PlanItem], talk: Conversation, tools: tuple[Tool, ...]) -> list[PlanItem]:
    """The plan, where calls were already made for the message: the tools they used stand for
    the items the request cannot fill that no call used (with no item, the first call's tool)."""
    by_name = {tool.name: tool for tool in tools}
    names = list(dict.fromkeys(call.name for turn in talk.turns for call, _ in turn if call.name in by_name))
    unplanned = [name for name in names if all(item.tool.name != name for item in items)]
    unfilled = [item for item in items if item.missing and item.tool.name not in names]
    if not unplanned or (items and not unfilled):
        return items
    kept = [item for item in items if item not in unfilled]
    return kept + [PlanItem(talk.text, by_name[name]) for name in unplanned[: max(len(unfilled), 1)]]
