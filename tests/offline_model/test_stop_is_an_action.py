"""'Stop X' asks for an action on X: "stop", an action word too, negates no request by itself."""

from __future__ import annotations

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete
from wirelab.offline_model.meaning import negates

SPEAKER = tool("pause_speaker", "Pause whatever the lounge speaker is playing.", {"room": {"type": "string"}})
KETTLE = tool("boil_kettle", "Boil the kettle.")


@pytest.mark.parametrize("text", ["Stop the sprinkler in the back garden", "Stop my gym plan renewing"])
def test_stop_with_its_object_is_no_negation(text: str) -> None:
    assert not negates(text)


@pytest.mark.parametrize("text", ["Don't stop the sprinkler", "Never stop the sprinkler", "别停洒水器"])
def test_a_negation_before_stop_still_negates(text: str) -> None:
    assert negates(text)


def test_a_stop_request_the_words_miss_is_chosen_by_meaning() -> None:
    """The words name no tool; before, the request carried the negated feature and called nothing."""
    body = {"model": "wirelab-offline", "tools": [SPEAKER, KETTLE]}
    reply = complete({**body, "messages": [{"role": "user", "content": "Stop that racket in the lounge"}]})
    calls = reply["choices"][0]["message"]["tool_calls"] or []
    assert [call["function"]["name"] for call in calls] == ["pause_speaker"]
