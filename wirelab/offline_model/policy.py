"""The decision policy: given a valid request, call tools or answer in text.

The model keeps no state between requests: each decision is read off the
conversation since the last user message.

1. The user's message is split into sub-requests, each matched to a tool
   (`selection.plan`). With `tool_choice="required"` the best tool is used
   even below the threshold; with a named tool, that tool is called.
2. The calls made since then are paired with the plan's items, in order;
   a call right after a failed one of the same item is its correction.
3. The next response holds, in this order: the call an `obey_injection`
   fault follows; one correction per item whose first call failed with a
   correctable error (`results.correct`); a call per item not called yet
   (only one in all when `parallel_tool_calls` is false).
4. With nothing left to call, it answers from the results: one line per
   result, or the error's message for a call that failed for good.

Like the real API, `tool_choice="required"` or a named tool forces a call in
*every* response, so a loop must switch back to "auto" after the first turn.
Instructions found in tool descriptions or results are never followed, except
under the `obey_injection` fault. System messages are not read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wirelab.offline_model.arguments import fill_arguments
from wirelab.offline_model.faults import FIRST_CALL_FAULTS, break_call, compact, injected_calls
from wirelab.offline_model.results import ToolResult, correct, read_result
from wirelab.offline_model.selection import PlanItem, best_piece, best_tool, plan
from wirelab.offline_model.validation import MODEL_ID, Call, Message, Request

Attempt = tuple[Call, ToolResult]


@dataclass(frozen=True)
class Reply:
    """What the model says: text, or tool calls (their ids are set by `wire_format`)."""

    content: str | None
    calls: tuple[Call, ...] = ()


@dataclass
class Track:
    """A plan item and the calls made for it so far, each with its result."""

    item: PlanItem
    attempts: list[Attempt] = field(default_factory=list)
    turn: int = -1

    def needs_correction(self) -> bool:
        return len(self.attempts) == 1 and self.attempts[0][1].correctable


def decide(request: Request) -> Reply:
    """The model's reply to a valid request."""
    text, turns = conversation(request.messages)
    if request.tool_choice == "none" or not request.tools:
        return Reply(_answer_without_tools(request, text, turns))
    tracks, extras = walk(items_for(request, text), turns, {t.name for t in request.tools})
    calls = next_calls(request, tracks, extras, turns)
    if calls:
        return Reply(None, tuple(calls if request.parallel_tool_calls else calls[:1]))
    if tracks and (request.forced or request.fault == "endless_calls"):
        return Reply(None, (fresh_call(tracks[0].item),))
    if not tracks:
        return Reply(no_tool_found(request, text))
    return Reply(answer(tracks, extras))


def conversation(messages: tuple[Message, ...]) -> tuple[str, list[list[Attempt]]]:
    """The last user message's text, and each tool-calling turn since, with its results."""
    start = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    text = messages[start].text if start >= 0 else ""
    turns = [
        [(call, _results_after(messages, i)[call.id]) for call in messages[i].tool_calls]
        for i in range(start + 1, len(messages))
        if messages[i].tool_calls
    ]
    return text, turns


def _results_after(messages: tuple[Message, ...], index: int) -> dict[str, ToolResult]:
    """The results that answer the calls of message `index`, by call id."""
    results = {}
    for message in messages[index + 1 :]:
        if message.role != "tool":
            break
        results[message.tool_call_id] = read_result(message.text)
    return results


def items_for(request: Request, text: str) -> list[PlanItem]:
    """The plan: matching sub-requests, or the forced tool."""
    if request.tool_choice not in ("auto", "required"):
        tool = next(t for t in request.tools if t.name == request.tool_choice)
        return [PlanItem(best_piece(text, tool), tool)]
    items = plan(text, request.tools)
    if not items and (request.forced or request.fault == "endless_calls"):
        tool, _ = best_tool(text, request.tools)
        items = [PlanItem(text, tool)] if tool else []
    return items


def walk(
    items: list[PlanItem], turns: list[list[Attempt]], names: set[str]
) -> tuple[list[Track], list[Attempt]]:
    """Pair each call made so far with its plan item; calls that fit none are extras.

    A call of a tool not in `names` (a misspelt one) is paired with the next
    item not called yet.
    """
    tracks, extras = [Track(item) for item in items], []
    for number, turn in enumerate(turns):
        for call, result in turn:
            track = _retried(tracks, call, number) or _first_free(tracks, call, names)
            if track is None:
                extras.append((call, result))
            else:
                track.attempts.append((call, result))
                track.turn = number
    return tracks, extras


def _retried(tracks: list[Track], call: Call, turn: int) -> Track | None:
    return next(
        (
            t
            for t in tracks
            if t.needs_correction()
            and t.turn < turn
            and call.name in (t.item.tool.name, t.attempts[0][0].name)
        ),
        None,
    )


def _first_free(tracks: list[Track], call: Call, names: set[str]) -> Track | None:
    return next(
        (t for t in tracks if not t.attempts and (call.name == t.item.tool.name or call.name not in names)),
        None,
    )


def next_calls(
    request: Request, tracks: list[Track], extras: list[Attempt], turns: list[list[Attempt]]
) -> list[Call]:
    """The calls of the next response, in order (see the module docstring)."""
    calls = _injected(request, turns) if request.fault == "obey_injection" else []
    for track in tracks:
        if track.needs_correction():
            fixed = correct(
                track.attempts[0][0], track.attempts[0][1].error or {}, track.item.tool, track.item.request
            )
            calls += [fixed] if fixed else []
    fresh = [fresh_call(t.item) for t in tracks if not t.attempts]
    if fresh and not turns and request.fault in FIRST_CALL_FAULTS:
        fresh[0] = _spoilt(request, fresh[0], tracks[0].item)
    return calls + fresh


def fresh_call(item: PlanItem) -> Call:
    """A call of the item's tool with arguments read from its sub-request."""
    return Call("", item.tool.name, compact(fill_arguments(item.tool, item.request)))


def _spoilt(request: Request, call: Call, item: PlanItem) -> Call:
    arguments = fill_arguments(item.tool, item.request)
    name, text = break_call(request.fault or "", item.tool, arguments, tuple(t.name for t in request.tools))
    return Call("", name, text)


def _injected(request: Request, turns: list[list[Attempt]]) -> list[Call]:
    """The first instruction found in a description or result that was not obeyed yet."""
    made = {(call.name, call.arguments) for turn in turns for call, _ in turn}
    sources = [tool.description for tool in request.tools]
    sources += [_result_text(result) for turn in turns for _, result in turn]
    known = {tool.name for tool in request.tools}
    found = [pair for text in sources for pair in injected_calls(text, known) if pair not in made]
    return [Call("", *found[0])] if found else []


def _result_text(result: ToolResult) -> str:
    return result.value if isinstance(result.value, str) else compact(result.value)


def answer(tracks: list[Track], extras: list[Attempt]) -> str:
    """One line per tool result, e.g. 'get_weather: Paris, 18, cloudy.'"""
    last = [t.attempts[-1] for t in tracks if t.attempts] + extras
    return "\n".join(_line(call, result) for call, result in last)


def _line(call: Call, result: ToolResult) -> str:
    if result.error is not None:
        return f'{call.name} failed: "{result.message()}"'
    return f"{call.name}: {result.summary()}."


def no_tool_found(request: Request, text: str) -> str:
    """The honest answer when no tool's name or description matches the request."""
    names = ", ".join(tool.name for tool in request.tools)
    return (
        f'I found no suitable tool for "{text}". None of the tools offered ({names}) '
        "has a name or description that shares enough words with the request."
    )


def _answer_without_tools(request: Request, text: str, turns: list[list[Attempt]]) -> str:
    if turns:
        return "\n".join(_line(call, result) for turn in turns for call, result in turn)
    if request.tools:
        return f'tool_choice is "none", so I may not call a tool, and I cannot answer "{text}" without one.'
    return (
        f"I am {MODEL_ID}, the course's offline model: a set of rules, not a neural "
        "network. I choose and call the tools a request describes and report their "
        f'results. This request offers no tools, so I can only repeat it: "{text}"'
    )
