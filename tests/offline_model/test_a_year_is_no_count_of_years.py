"""A four-digit number reads as a calendar year for a `year`, not for a count of `years` (invented tools)."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.calls import bind_all

NUMBER = {"type": "number"}
SAVINGS = model_tool(
    "savings_growth",
    "Growth of a savings deposit.",
    {"deposit": NUMBER, "rate_percent": NUMBER, "years": {"type": "integer"}},
    ("deposit", "rate_percent", "years"),
)
RAINFALL = model_tool(
    "yearly_rainfall",
    "Total rainfall of a town in a year.",
    {"town": {"type": "string"}, "year": {"type": "integer"}},
    ("town", "year"),
)


def test_two_deposits_each_keep_their_own_amount() -> None:
    calls = bind_all(SAVINGS, "Growth of 1200 at 3% and of 4500 at 2%, both over 6 years.")
    assert [(c["deposit"], c["rate_percent"], c["years"]) for c in calls] == [(1200, 3, 6), (4500, 2, 6)]


def test_a_year_still_fills_a_year() -> None:
    assert bind_all(RAINFALL, "Rainfall in Bergen in 1987.") == [{"town": "Bergen", "year": 1987}]
