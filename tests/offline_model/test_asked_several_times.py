"""A request that asks for its call a number of times ("shuffle the deck three times", "ping it
twice", 抽两次签) gets that many calls (`calls.repeats`), each with the values said once; a count
the tool takes ("flip a coin 5 times" for a `flips` parameter), a factor ("three times as long",
"3 times 8") or a rate ("twice a week", 每天三次) stays one call. Tools and requests invented here."""

import pytest

from tests.offline_model.conftest import calls_through, tool
from wirelab.offline_model.calls import repeats

SHUFFLE = tool(
    "shuffle_deck",
    "Shuffle a deck of playing cards and deal a hand.",
    {"hand_size": {"type": "integer", "description": "Cards dealt"}},
    ("hand_size",),
)
FLIP = tool("flip_coin", "Flip a coin a number of times.", {"flips": {"type": "integer"}}, ("flips",))
PING = tool("ping_host", "Ping a network host once.", {"host": {"type": "string"}}, ("host",))
TEMPLE = {"temple": {"type": "string", "description": "寺庙名"}}
LOT = tool("draw_lot", "抽一支签，看运势。", TEMPLE, ("temple",))
WATER = tool(
    "plant_watering",
    "Schedule watering for a house plant.",
    {"plant": {"type": "string"}, "note": {"type": "string"}},
    ("plant",),
)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("shuffle three times", 3),
        ("ping it twice, then stop", 2),
        ("抽两次签", 2),
        ("deal 4 times", 4),
        ("three times as long", 1),
        ("3 times 8", 1),
        ("twice a week", 1),
        ("每天三次", 1),
        ("2的3次方", 1),
        ("once", 1),
    ],
)
def test_the_count_of_times_said(text, count):
    assert repeats(text) == count


def test_a_call_asked_for_several_times_is_made_that_many_times(client):
    assert (
        calls_through(client, [SHUFFLE], "Shuffle the deck and deal 5 cards, three times")
        == [("shuffle_deck", {"hand_size": 5})] * 3
    )
    assert (
        calls_through(client, [PING], "Ping backup.lan twice") == [("ping_host", {"host": "backup.lan"})] * 2
    )
    assert calls_through(client, [LOT], "在灵隐寺抽两次签") == [("draw_lot", {"temple": "灵隐寺"})] * 2


def test_a_count_the_tool_takes_or_a_rate_stays_one_call(client):
    assert calls_through(client, [FLIP], "Flip a coin 5 times") == [("flip_coin", {"flips": 5})]
    assert len(calls_through(client, [WATER], "Water the fern twice a week")) == 1
    assert len(calls_through(client, [SHUFFLE], "Deal a hand of 7 cards")) == 1
