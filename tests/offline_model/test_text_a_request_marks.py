"""A string parameter that holds text takes the text a request marks for it, whole and no more:
- a message's or a note's after "saying", "that", "telling him", 说一声, 内容是, 写上;
- a name's or a title's after "titled", "named", "called", 标题是, 叫做 (to 的, or to "on my …");
- a topic's after "about" or 关于 (to 的);
- without a value another parameter took at its end ("… in Spanish", "… at noon"), and not a clause
  after it that asks for something else (", and pin it"; "… and say …" is the body's);
- not in place of a quote or a typed value the parameter took.
Before, the words the assignment gave the parameter won: one capitalised word ("Crash"), the word
after a name ("rover"), or the mark itself ("内容", "主题"). The tools and requests are invented."""

from __future__ import annotations

import pytest

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.binding import bind

S = {"type": "string"}
PAGER = model_tool("page_team", "Page the on-call team.", {"team": S, "message": S}, ("team", "message"))
ISSUE = model_tool("open_issue", "Open an issue in the tracker.", {"title": S}, ("title",))
DIGEST = model_tool("find_stories", "Find stories in the press.", {"topic": S}, ("topic",))
LETTER = model_tool("write_letter", "Write a letter.", {"to": S, "subject": S, "body": S}, ("to", "subject"))
SAYER = model_tool("speak_line", "Speak a phrase aloud.", {"text": S, "language": S}, ("text", "language"))
JOURNAL = model_tool(
    "log_day", "写一篇日记", {"content": {"type": "string", "description": "日记内容"}}, ("content",)
)
BOARD = model_tool("new_board", "Create a board for cards.", {"name": S}, ("name",))
FEED = model_tool(
    "latest_posts", "看最新的帖子", {"topic": {"type": "string", "description": "话题"}}, ("topic",)
)


@pytest.mark.parametrize(
    ("tool", "text", "name", "value"),
    [
        (
            PAGER,
            "Page the storage team saying disk three is failing, and mark it urgent",
            "message",
            "disk three is failing",
        ),
        (PAGER, "Page the web team that the cache is cold", "message", "the cache is cold"),
        (ISSUE, "Open an issue titled Slow search results", "title", "Slow search results"),
        (DIGEST, "Find stories about the Ural Mountains", "topic", "the Ural Mountains"),
        (LETTER, "Write a letter to Gus about the spring fair", "subject", "the spring fair"),
        (
            LETTER,
            "Write to Gus about the spring fair and say the stall is booked",
            "body",
            "the stall is booked",
        ),
        (SAYER, "Speak the phrase say where is the museum in Spanish", "text", "where is the museum"),
        (BOARD, "Create a board named Kitchen Remodel on my workspace", "name", "Kitchen Remodel"),
        (JOURNAL, "在日记里写上今天去看了海", "content", "今天去看了海"),
        (JOURNAL, "写日记，内容是下雨了没出门", "content", "下雨了没出门"),
        (BOARD, "建一个叫做装修计划的看板", "name", "装修计划"),
        (FEED, "看看关于露营装备的帖子", "topic", "露营装备"),
    ],
)
def test_the_marked_text_whole(tool, text, name, value):
    assert bind(tool, text, guess=False)[name] == value


@pytest.mark.parametrize(
    ("tool", "text", "name", "value"),
    [
        (ISSUE, "Open an issue: the export hangs", "title", "the export hangs"),
        (SAYER, "Speak 'good night' in Welsh", "text", "good night"),
        (DIGEST, "Find stories on volcanoes", "topic", "volcanoes"),
    ],
)
def test_what_was_read_before_stays(tool, text, name, value):
    assert bind(tool, text, guess=False)[name] == value
