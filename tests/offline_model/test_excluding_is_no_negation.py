"""A word that leaves a value out ("without", "no", "avoid") does not negate the request."""

from __future__ import annotations

import pytest

from wirelab.offline_model.meaning import negates


@pytest.mark.parametrize(
    "text",
    [
        "Get me a large pie without mushrooms.",
        "A medium latte, no sugar.",
        "Drive me from Ghent to Bruges and avoid the ring road.",
    ],
)
def test_a_word_that_leaves_a_value_out_negates_nothing(text: str) -> None:
    assert not negates(text)


@pytest.mark.parametrize("text", ["Don't order a pie without onions", "Never add sugar", "Do not book it"])
def test_a_negated_action_still_negates(text: str) -> None:
    assert negates(text)
