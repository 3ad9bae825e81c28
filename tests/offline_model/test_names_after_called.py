"""A name after "called", "named" or "titled" runs on through its lower-case words, as a title written
in sentence case does, up to the next small word: "a meeting called Budget review in the calendar" is
titled "Budget review", not "Budget". On tools invented here."""

from __future__ import annotations

import pytest

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.binding import bind

BOARD = model_tool(
    "pin_card",
    "Pin a card to the team board.",
    {"heading": {"type": "string", "description": "The card's heading"}, "day": {"type": "string"}},
    ("heading",),
)


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("Pin a card called Roof repair quote on the board", "Roof repair quote"),
        ("Pin a card titled Winter rota for the whole team", "Winter rota"),
        ("Pin a card named Harbour Walk on the board", "Harbour Walk"),
        ("Pin a card called Ivy to the board", "Ivy"),
    ],
)
def test_a_called_name_runs_to_the_next_small_word(text: str, heading: str) -> None:
    assert bind(BOARD, text)["heading"] == heading


ALBUM = model_tool(
    "start_album",
    "Start a new photo album.",
    {"album_name": {"type": "string", "description": "What the album is called"}},
    ("album_name",),
)
CHANNEL = model_tool(
    "open_channel",
    "Open a chat channel for a team.",
    {"label": {"type": "string", "description": "The channel's label"}},
    ("label",),
)


@pytest.mark.parametrize(
    ("tool", "text", "name"),
    [
        (ALBUM, "Start an album named summer by the lake", "summer"),
        (ALBUM, "start a new album called beach day 2026", "beach day 2026"),
        (ALBUM, "新建一个名为海边日落的相册", "海边日落"),
        (ALBUM, "建一个叫毕业旅行的相册", "毕业旅行"),
        (CHANNEL, "开一个频道，名字叫产品复盘", "产品复盘"),
        (CHANNEL, "open a channel labelled release notes, please", "release notes"),
    ],
)
def test_a_lower_case_or_chinese_name_after_called_is_taken_whole(tool, text: str, name: str) -> None:
    assert bind(tool, text)["label" if tool is CHANNEL else "album_name"] == name
