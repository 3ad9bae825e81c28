"""A follow-up whose only cue is a Chinese verb with its result (换成) goes on from the last call."""

from __future__ import annotations

from tests.offline_model.conftest import tool
from tests.offline_model.test_results import arguments
from tests.offline_model.test_turns import _after
from wirelab.offline_model.normalize import segment

PAINT = tool(
    "order_wall_paint",
    "Order a tin of wall paint in one colour.",
    {"colour": {"type": "string", "description": "The colour of the paint."}},
    ("colour",),
)
KITE = tool(
    "rent_kite",
    "Rent a kite for the beach.",
    {"shape": {"type": "string", "description": "The kite's shape."}},
    ("shape",),
)


def test_a_follow_up_cued_only_by_a_verb_and_its_result_changes_the_value(client):
    first = {"colour": "蓝色"}
    chat = _after(client, [PAINT, KITE], "订一桶蓝色的墙漆。", first, "换成绿色的")
    assert arguments(chat.send()) == [{"colour": "绿色"}]


def test_a_compound_the_lexicon_holds_whole_is_one_word_for_every_stage():
    """normalize cuts an action word from its result (发给 -> 发 给) but not a word the lexicon
    has whole, a follow-up cue or a synonym: 换成 is one token, so no stage has to join it again."""
    words = [token.text for token in segment("把墙漆换成绿色，再发给小林")]
    assert "换成" in words and "成" not in words
    assert words[words.index("发") + 1] == "给"
