"""The pipeline: given a valid request, call tools or answer in text.

    normalize → intents → selection → extraction → binding → (tools run) → correction → answer

No state is kept between requests: each decision is read off the conversation since the last
user message (`context.conversation`).

1. Plan (`items_for`): each intent of the message with the tool its words choose (`selection.plan`; none
   for a lone tool the message only talks about: `heard`), or, when they choose none among several tools
   or name no lone tool's topic, its meaning (`selection.plan_by_meaning`); bound to arguments, one call
   per value of a list, gaps filled from the intents around it (`sharing.bind_plan`). A message that says
   only what changes ("and in Rome?") continues the last calls; one that answers the model's question
   completes the message before (`context`). An intent whose tool the request cannot fill goes to the tool
   nearest in meaning that it fills (`callable_reading`); one that lacks a value only the user can give is
   asked for (`answer.ask_for`), not made up, unless a call is forced.
2. The calls made since the user's message are paired with the items, in order; a call right
   after a failed one of the same item is its correction (`walk`).
3. The next response: the call an `obey_injection` fault follows, one correction per item whose
   first call failed (`correction.correct`), then a call per item not called yet (only one when
   `parallel_tool_calls` is false).
4. With nothing left to call, it answers from the results in the user's language (`answer.say`).

As in the real API, `tool_choice="required"` or a named tool forces a call in *every* response.
Instructions in tool descriptions or results are never followed, except under the
`obey_injection` fault. System messages are read only for a date they state ("Today is 11
March 2026"), which turns "tomorrow" or "周五" into ISO dates; a user may state it too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from wirelab.edition import language
from wirelab.offline_model import meaning
from wirelab.offline_model.answer import ask_for, no_tool_found, not_allowed, say, without_tools
from wirelab.offline_model.binding import bind
from wirelab.offline_model.calls import fills_required
from wirelab.offline_model.context import Attempt, Conversation, completed, continued, conversation, made
from wirelab.offline_model.correction import correct
from wirelab.offline_model.dates import TODAY, reference_date, today_stated
from wirelab.offline_model.evidence import Words
from wirelab.offline_model.faults import FIRST_CALL_FAULTS, break_call, injected_calls
from wirelab.offline_model.names import addressed
from wirelab.offline_model.normalize import warm_up as load_segmenter
from wirelab.offline_model.request import Call, Request, Tool, compact
from wirelab.offline_model.selection import (
    PlanItem,
    asks_for_nothing,
    best_piece,
    best_tool,
    meaning_choice,
    names_a_topic,
    own_points,
    plan,
    plan_by_meaning,
)
from wirelab.offline_model.sharing import bind_plan, with_calls
from wirelab.offline_model.wire.tool_schemas import warm_up as compile_metaschema


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
        return len(self.attempts) == 1 and self.attempts[0][1].error is not None  # every error is


def warm_up() -> None:
    """Load what the first request would otherwise wait for: the metaschema check, and in the
    Chinese edition jieba's dictionary (an English kernel loads it when a message first holds Chinese)."""
    compile_metaschema()
    if language() == "zh":
        load_segmenter()


def decide(request: Request) -> Reply:
    """The model's reply to a valid request."""
    with dated(request):
        return _decide(request)


@contextmanager
def dated(request: Request) -> Iterator[None]:
    """Read the request with today as its system messages, or else its user, state it (`TODAY`)."""
    stated = [reference_date(m.text) for m in request.messages if m.role in ("system", "developer")]
    stated += [today_stated(m.text) for m in request.messages if m.role == "user"]
    token = TODAY.set(next((date for date in stated if date), None))
    try:
        yield
    finally:
        TODAY.reset(token)


def _decide(request: Request) -> Reply:
    talk = conversation(request.messages)
    if talk.turns and (request.tool_choice == "none" or not request.tools):
        return Reply(say([attempt for turn in talk.turns for attempt in turn], talk.text))
    if request.tool_choice == "none" or not request.tools:
        return Reply(not_allowed(talk.text) if request.tools else without_tools(talk.text))
    items = items_for(request, talk)
    free = request.tool_choice == "auto" and not request.fault and not talk.turns
    unsure = [item for item in items if item.missing and free]  # ask, do not make values up
    items = [item for item in items if item not in unsure]
    tracks, extras = walk(items, talk.turns, {t.name for t in request.tools})
    if calls := next_calls(request, tracks, talk.turns):
        return Reply(None, tuple(calls if request.parallel_tool_calls else calls[:1]))
    if tracks and (request.forced or request.fault == "endless_calls"):
        return Reply(None, (fresh_call(tracks[0].item),))
    if not tracks and unsure:
        return Reply(ask_for(unsure[0].tool, unsure[0].missing, talk.text))
    if not tracks:
        return Reply(no_tool_found(talk.text, [tool.name for tool in request.tools]))
    return Reply(say([t.attempts[-1] for t in tracks if t.attempts] + extras, talk.text))


def items_for(request: Request, talk: Conversation) -> list[PlanItem]:
    """The plan: bound items for the intents, a follow-up of the last call, or the forced tool."""
    text, tools = talk.text, request.tools
    if request.tool_choice not in ("auto", "required"):
        tool = next(t for t in tools if t.name == request.tool_choice)
        return bind_plan([PlanItem(best_piece(text, tool), tool)])
    items = bind_plan([callable_reading(with_calls(i), tools) for i in heard(plan(text, tools), text, tools)])
    items = completed(continued(items, talk, tools), talk, tools)  # "And 75 CHF?"
    fresh = not items and not talk.turns and not asks_for_nothing(text)
    if fresh and (len(tools) > 1 or not names_a_topic(text, tools)):  # words chose none: may meaning?
        items = bind_plan(plan_by_meaning(text, tools))
    items = made(items, talk, tools)  # a call made for this message (by any model) is ours to fix
    if not items and (request.forced or request.fault == "endless_calls"):
        tool, _ = best_tool(text, tools)
        items = bind_plan([PlanItem(text, tool)]) if tool else []
    return items


def heard(items: list[PlanItem], text: str, tools: tuple[Tool, ...]) -> list[PlanItem]:
    """The items the words chose; none for a lone tool when the message states no value (a number, a date;
    not a name) and tells no one anything, the `chatter` probe hears no request and meaning gives the tool
    under `meaning.AMONG`."""
    if len(tools) != 1 or not items:
        return items
    words = Words.of(text)
    if any(v.kind not in ("name", "unit") for v in words.values) or addressed(words.tokens):
        return items  # a value, or a message for a person however chatty ("Tell Grandpa happy birthday")
    unwanted = meaning.wants_no_tool(text) and meaning_choice(text, tools).rows[0][2] < meaning.AMONG
    return [] if unwanted else items


def callable_reading(item: PlanItem, tools: tuple[Tool, ...]) -> PlanItem:
    """The item, or the same request for another tool when the words chose one it cannot call (a required
    value missing: "my suitcase weighs 40 pounds" read as a tip in money) and the tool closest to it in
    meaning, whose own words the request names too, gets a value for every parameter it requires. A negated
    request, or one the `chatter` probe reads as wanting no tool, keeps its item."""
    if _callable(item) or meaning.negates(item.request) or meaning.wants_no_tool(item.request):
        return item
    closest = meaning.nearer(item.request, item.tool, tools)[:1]
    other = [with_calls(PlanItem(item.request, tool)) for tool in closest if own_points(item.request, tool)]
    return other[0] if other and _callable(other[0]) else item


def _callable(item: PlanItem) -> bool:
    """Whether binding gives the item's tool a value, not an empty one, for each parameter it requires."""
    bound = bind_plan([item])
    return bool(bound) and all(not b.missing and fills_required(item.tool, b.arguments) for b in bound)


def walk(
    items: list[PlanItem], turns: list[list[Attempt]], names: set[str]
) -> tuple[list[Track], list[Attempt]]:
    """Pair each call made so far with its plan item; calls that fit none are extras. A call of a
    tool not in `names` (a misspelt one) is paired with the next item not called yet."""
    tracks, extras = [Track(item) for item in items], []
    for number, turn in enumerate(turns):
        for call, result in turn:
            retried = (t for t in tracks if t.needs_correction() and t.turn < number)  # a failed call again
            track = next((t for t in retried if call.name in (t.item.tool.name, t.attempts[0][0].name)), None)
            unknown = call.name not in names  # a misspelt tool: the next item not called yet
            free = (t for t in tracks if not t.attempts and (unknown or call.name == t.item.tool.name))
            track = track or next(free, None)
            if track is None:
                extras.append((call, result))
            else:
                track.attempts.append((call, result))
                track.turn = number
    return tracks, extras


def next_calls(request: Request, tracks: list[Track], turns: list[list[Attempt]]) -> list[Call]:
    """The calls of the next response, in order (see the module docstring)."""
    calls = _injected(request, turns) if request.fault == "obey_injection" else []
    for track in tracks:
        if track.needs_correction():
            first, result = track.attempts[0]
            fixed = correct(first, result.error or {}, track.item.tool, track.item.request)
            calls += [fixed] if fixed else []
    fresh = [fresh_call(t.item) for t in tracks if not t.attempts]
    if fresh and not turns and request.fault in FIRST_CALL_FAULTS:
        fresh[0] = _spoilt(request, tracks[0].item)
    return calls + fresh


def fresh_call(item: PlanItem) -> Call:
    """A call of the item's tool with its bound arguments."""
    return Call("", item.tool.name, compact(_arguments(item)))


def _arguments(item: PlanItem) -> dict:
    return item.arguments if item.arguments is not None else bind(item.tool, item.request)


def _spoilt(request: Request, item: PlanItem) -> Call:
    names = tuple(t.name for t in request.tools)
    name, text = break_call(request.fault or "", item.tool, _arguments(item), names)
    return Call("", name, text)


def _injected(request: Request, turns: list[list[Attempt]]) -> list[Call]:
    """The first instruction found in a description or result that was not obeyed yet."""
    made = {(call.name, call.arguments) for turn in turns for call, _ in turn}
    sources = [tool.description for tool in request.tools]
    sources += [r.value if isinstance(r.value, str) else compact(r.value) for turn in turns for _, r in turn]
    known = {tool.name for tool in request.tools}
    found = [pair for text in sources for pair in injected_calls(text, known) if pair not in made]
    return [Call("", *found[0])] if found else []
