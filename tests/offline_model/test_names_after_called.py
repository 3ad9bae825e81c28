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
