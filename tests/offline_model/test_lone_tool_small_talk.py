"""A lone tool whose words a message names is not called when the message only talks about its topic
(trivia, thanks) and states no value: the `chatter` probe hears small talk and the meaning stage gives
the tool less than `meaning.AMONG` (`policy.heard`). Tools and requests invented here."""

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.policy import heard
from wirelab.offline_model.selection import plan

TEA = model_tool(
    "brew_tea",
    "Brew a pot of tea in the kitchen teapot.",
    {"kind": {"type": "string", "description": "Which tea: green, black or mint."}},
    ("kind",),
)


def _heard(text: str) -> list[str]:
    return [item.tool.name for item in heard(plan(text, (TEA,)), text, (TEA,))]


def test_trivia_about_the_topic_calls_nothing():
    assert _heard("Who first grew tea?") == []


def test_a_request_for_the_tool_keeps_its_item():
    assert _heard("Brew some green tea, please.") == ["brew_tea"]


def test_a_stated_value_keeps_the_item():
    assert _heard("Tea for 2 at 16:00") == ["brew_tea"]
