"""A number written after a name or a catalogue code that counts nothing is part of it
("Kestrel 4 for an hour", "IC 1396"), while a number that something counts stays a number;
a unit's Chinese name that names a person, with no number before it, is the person. On tools
invented here."""

from __future__ import annotations

from typing import Any

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.extraction import extract
from wirelab.offline_model.normalize import clean
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, **properties: tuple[str, str]) -> Tool:
    props = {key: {"type": kind, "description": text} for key, (kind, text) in properties.items()}
    return Tool(name, description, {"type": "object", "properties": props, "required": list(props)})


ATLAS = _tool(
    "find_sky_object", "Find an object in the sky atlas.", designation=("string", "Catalogue designation")
)
ISSUE = _tool("open_issue", "Open an issue in the tracker.", number=("integer", "Issue number"))
ROVER = _tool("charge_rover", "Charge a survey rover battery.", rover=("string", "Rover name"))
BIOGRAPHY = _tool("read_biography", "Read the life story of a scientist.", person=("string", "Scientist"))


@pytest.mark.parametrize(
    ("tool", "text", "expected"),
    [
        (ATLAS, "Find IC 1396 in the atlas", {"designation": "IC 1396"}),
        (ATLAS, "Where is LDN 1622 in the atlas?", {"designation": "LDN 1622"}),
        (ROVER, "Charge the rover Kestrel 4 for an hour", {"rover": "Kestrel 4"}),
        (ROVER, "Please charge Marlin 7 at the dock", {"rover": "Marlin 7"}),
        (BIOGRAPHY, "讲讲焦耳的生平", {"person": "焦耳"}),
    ],
)
def test_a_name_keeps_what_is_written_with_it(tool: Tool, text: str, expected: dict[str, Any]) -> None:
    assert bind(tool, text) == expected


def test_a_number_after_a_code_still_fills_a_number() -> None:
    assert bind(ISSUE, "Open issue GH 4521 for me") == {"number": 4521}


@pytest.mark.parametrize("text", ["Convert EUR 250 to CHF", "Sell 300 shares of KLMN 2025"])
def test_a_currency_or_a_year_is_no_catalogue_number(text: str) -> None:
    codes = [v.text for v in extract(clean(text)) if v.kind == "code"]
    assert all(" " not in code for code in codes)


def test_a_unit_a_number_counts_is_a_unit() -> None:
    found = [(v.kind, v.value) for v in extract(clean("用五牛顿的力推"))]
    assert ("unit", "newton") in found
    assert all(kind != "name" for kind, _ in found)
