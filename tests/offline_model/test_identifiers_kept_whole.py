"""An identifier written as one word is one value, copied as written: a version with a suffix, a
numbered code of several parts, an image reference, a camelCase name; a unit written with a
numeral (千米, 千瓦) is no number of its own; a word that is only a verb starting a sentence is
no name. On tools and requests invented here."""

from __future__ import annotations

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.extraction import extract
from wirelab.offline_model.request import Tool

SYNTH = Tool(
    "update_synth",
    "Install a firmware build on a synthesizer.",
    {
        "type": "object",
        "properties": {"build": {"type": "string", "description": "Firmware build to install."}},
        "required": ["build"],
    },
)
PART = Tool(
    "find_part",
    "Find a spare part in the catalogue.",
    {
        "type": "object",
        "properties": {"part_number": {"type": "string", "description": "Manufacturer part number."}},
        "required": ["part_number"],
    },
)
ALIAS = Tool(
    "add_alias",
    "Add an alias for a method in the style guide.",
    {
        "type": "object",
        "properties": {
            "method": {"type": "string", "description": "Method as written in code."},
            "alias": {"type": "string", "description": "Alias as written in code."},
        },
        "required": ["method", "alias"],
    },
)
KILN_FAN = Tool(
    "set_fan",
    "Set the power of the drying-room fan.",
    {
        "type": "object",
        "properties": {"watts": {"type": "number", "description": "Power in watts."}},
        "required": ["watts"],
    },
)


def _codes(text: str) -> list[str]:
    return [v.value for v in extract(text) if v.kind == "code"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Install 4.1.0b2 on the Moog", "4.1.0b2"),
        ("Install build r2.3-nightly please", "r2.3-nightly"),
        ("Part 0451-22-917-3 is worn", "0451-22-917-3"),
        ("Shelf 2017.3.88 holds it", "2017.3.88"),
        ("Push reg.local/kiosk/menu:1.8 today", "reg.local/kiosk/menu:1.8"),
        ("Alias shuffleDeck as mixCards", "shuffleDeck"),
    ],
)
def test_an_identifier_written_as_one_word_is_one_code(text: str, code: str) -> None:
    assert code in _codes(text)


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("Meet on 2024-05-01 at 10:30.", ["date", "time"]),
        ("Run 5.5km, then pay 1,250.50 dollars", ["number", "unit", "number", "currency"]),
        ("The host 10.0.0.5:8080 is down", ["url"]),
    ],
)
def test_dates_numbers_and_hosts_are_read_as_before(text: str, kinds: list[str]) -> None:
    assert [v.kind for v in extract(text)] == kinds


def test_a_firmware_build_with_a_suffix_is_copied_whole() -> None:
    assert bind(SYNTH, "Put 3.0.2-rc1 on the synth", guess=False) == {"build": "3.0.2-rc1"}


def test_a_part_number_of_several_numbers_is_copied_whole() -> None:
    assert bind(PART, "Find part 0451-22-917-3", guess=False) == {"part_number": "0451-22-917-3"}


@pytest.mark.parametrize(
    "text",
    [
        "The card module is a mess. Give shuffleDeck the alias mixCards.",
        "The card module is a mess. Add the alias mixCards for shuffleDeck.",
    ],
)
def test_camel_case_names_fill_their_parameters_before_loose_words(text: str) -> None:
    assert bind(ALIAS, text, guess=False) == {"method": "shuffleDeck", "alias": "mixCards"}


@pytest.mark.parametrize(
    ("text", "names"),
    [("Rename fetchRows to loadRows", []), ("Deprecate Parse Header now", ["Parse Header"])],
)
def test_a_word_that_is_only_a_verb_starting_a_sentence_is_no_name(text: str, names: list[str]) -> None:
    assert [v.text for v in extract(text) if v.kind == "name"] == names


@pytest.mark.parametrize(("text", "watts"), [("Run the fan at 0.4 kW", 400), ("风扇开到1.5千瓦", 1500)])
def test_kilowatts_are_converted_to_watts(text: str, watts: int) -> None:
    assert bind(KILN_FAN, text, guess=False) == {"watts": watts}


@pytest.mark.parametrize("text", ["跑了5千米", "买5千克面粉", "开到5千瓦"])
def test_a_unit_written_with_a_numeral_is_no_number(text: str) -> None:
    assert [v.value for v in extract(text) if v.kind == "number"] == [5]


SCREEN = Tool(
    "set_resolution",
    "Set the projector's resolution.",
    {
        "type": "object",
        "properties": {
            "width": {"type": "integer", "description": "Width in pixels."},
            "height": {"type": "integer", "description": "Height in pixels."},
        },
        "required": ["width", "height"],
    },
)


def test_two_readings_written_with_a_slash_are_two_numbers() -> None:
    assert bind(SCREEN, "Run the projector at 1280/720", guess=False) == {"width": 1280, "height": 720}


@pytest.mark.parametrize("text", ["Add 3/4 cup of milk", "Open 24/7"])
def test_a_fraction_is_no_pair_of_numbers(text: str) -> None:
    assert [v.value for v in extract(text) if v.kind == "number"] == []
