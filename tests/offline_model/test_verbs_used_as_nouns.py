"""A Chinese verb used as a noun (jieba's `vn`) is part of the thing it names: 设计 of
设计评审会, 培训 of 培训计划. Before, free text took it off the front as a verb ("来点爵士乐"
-> 爵士乐 is right: 来 is a verb) and a meeting's title read 评审会. Tools and requests invented."""

from __future__ import annotations

import pytest

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.binding import bind

MEETING = model_tool(
    "book_meeting",
    "Book a meeting room for a meeting.",
    {"title": {"type": "string", "description": "Meeting title"}, "room": {"type": "string"}},
    ("title",),
)


@pytest.mark.parametrize(
    ("text", "title"),
    [("安排一个设计评审会", "设计评审会"), ("帮我安排一个培训总结会", "培训总结会")],
)
def test_a_verb_used_as_a_noun_stays_in_the_title(text, title):
    assert bind(MEETING, text, guess=False)["title"] == title
