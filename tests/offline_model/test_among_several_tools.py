"""Among several tools, for a message whose words chose none and which the `chatter` probe reads
as wanting a tool, a lower bar (`meaning.AMONG`) chooses.

On the corpus's requests held out of the fit, that bar calls the wanted tool more often and a tool
where none is wanted about as often (1 more of 2,302 offers: `scripts/train_offline_model.py
--folds`); a tool offered alone, or talk the probe reads as wanting none, keeps one half. The tools
and requests here are invented for this test: a building's blinds, printer, lift and car park, and
a harbour's boathouse, tide table and sea forecast.
"""

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete, meaning, selection
from wirelab.offline_model.request import Tool

BLINDS = tool(
    "open_blinds",
    "Raise or lower the window blinds in a room.",
    {"room": {"type": "string"}, "position_percent": {"type": "integer"}},
    ("room",),
)
PRINTER = tool(
    "print_document", "Send a file to the office printer.", {"file_name": {"type": "string"}}, ("file_name",)
)
LIFT = tool(
    "call_elevator", "Send the lift to a floor of the building.", {"floor": {"type": "integer"}}, ("floor",)
)
PARKING = tool(
    "book_parking",
    "Reserve a parking space in the garage for a date.",
    {"date": {"type": "string"}},
    ("date",),
)
BUILDING = [BLINDS, PRINTER, LIFT, PARKING]
HARBOUR = [
    tool(
        "rent_kayak",
        "Hire a kayak at the boathouse for a time slot.",
        {"start_time": {"type": "string"}},
        ("start_time",),
    ),
    tool(
        "tide_times",
        "High and low water times at the harbour for a date.",
        {"date": {"type": "string"}},
        ("date",),
    ),
    tool("weather_at_sea", "Wind and wave forecast for the bay.", {"day": {"type": "string"}}, ("day",)),
]


def calls(text, tools):
    body = {"model": "wirelab-offline", "messages": [{"role": "user", "content": text}], "tools": tools}
    found = complete(body)["choices"][0]["message"].get("tool_calls") or []
    return [(c["function"]["name"], c["function"]["arguments"]) for c in found]


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("Send me up to 12", ("call_elevator", '{"floor":12}')),
        ("带我去9楼", ("call_elevator", '{"floor":9}')),
    ],
)
def test_a_request_whose_verb_implies_one_of_several_tools_calls_it(text, wanted):
    assert calls(text, BUILDING) == [wanted]


@pytest.mark.parametrize(
    "text",
    [
        "What a lovely sunny morning.",
        "Paper jams are so annoying.",
        "周末过得怎么样？",
        "My cousin fixes printers for a living.",  # the printer at 0.48, but the probe reads talk
    ],
)
def test_talk_among_several_tools_still_calls_nothing(text):
    assert calls(text, BUILDING) == []


def test_a_question_the_probe_reads_as_wanting_a_tool_is_called_at_the_bar_the_folds_chose():
    """The tide tool at 0.22: below the 0.25 of old, above the 0.2 that decides the most held-out offers."""
    assert calls("周五什么时候涨潮？", HARBOUR) == [("tide_times", '{"date":"周五"}')]


@pytest.mark.parametrize(
    "text",
    [
        "Kayaks are great fun in summer.",
        "The bay was rough on Saturday.",
        "谢谢，今天玩得很开心。",
        "Why is sea water salty?",
    ],
)
def test_talk_among_the_harbour_tools_calls_nothing(text):
    assert calls(text, HARBOUR) == []


def test_the_bar_is_lower_only_among_several_tools():
    assert meaning.AMONG < meaning.CHOOSE
    assert calls("Send me up to 12", [LIFT]) == []


def test_a_piece_of_a_longer_message_needs_one_half_and_the_whole_message_the_lower_bar():
    """A piece read without the rest lacks what it refers to, so only a message of one piece, or
    the whole message read when no piece picked a tool, gets `meaning.AMONG`."""
    text = "I'm on the ground floor with heavy boxes, get me to 5."
    offered = tuple(
        Tool(t["function"]["name"], t["function"]["description"], t["function"]["parameters"])
        for t in BUILDING
    )
    readings = selection.read_by_meaning(text, offered)
    assert [(r.whole, r.choice.bar) for r in readings] == [(False, 0.5), (False, 0.5), (True, meaning.AMONG)]
    assert calls(text, BUILDING) == [("call_elevator", '{"floor":5}')]


def test_a_pasted_listing_of_many_lines_is_read_by_meaning_as_one_text():
    """Each line is a piece, and each piece read by meaning binds every tool: a listing of 40
    lines would cost 40 readings. Past `selection.MAX_PIECES` pieces the message is read whole."""
    offered = tuple(
        Tool(t["function"]["name"], t["function"]["description"], t["function"]["parameters"])
        for t in BUILDING
    )
    listing = "\n".join(f"box {n}: books" for n in range(40))
    readings = selection.read_by_meaning(listing, offered)
    assert [(r.start, r.end) for r in readings] == [(0, len(readings[0].message))]
    few = selection.read_by_meaning("\n".join(f"box {n}: books" for n in range(3)), offered)
    assert len(few) > 1  # a short message is still read piece by piece
