"""Places: cities by name with their country and US state, written the way a tool asks.

    >>> city("berkeley")
    City(name='Berkeley', country='US', state='CA')
    >>> as_asked("Berkeley", "", "The city, in the format of 'City, State', e.g. 'Austin, TX'.")
    'Berkeley, CA'
    >>> as_asked("Chicago, Illinois", "Chicago", "Where, such as 'New York, NY'.")
    'Chicago, IL'
    >>> as_asked("Paris", "", "Formatted as 'City, State' or 'City, Country', e.g. 'Paris, France'.")
    'Paris, France'

An LLM reads "such as 'Berkeley, CA'" in a parameter's description and writes
"Austin" as "Austin, TX"; this model does the same from two things: the
description's example, which `format_of` reads (a city with a US state code, or
a city with a country), and a gazetteer, `data/places.tsv`: every US city of
15,000 people or more with its state, and every other city of 100,000 or more
with its country (GeoNames data, CC BY 4.0; `scripts/make_places.py` writes
it). Where a name is ambiguous the most populous city wins, unless the text
names the state ("Pittsburg PA").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale

from wirelab.offline_model.lexicon import lexicon_words
from wirelab.offline_model.normalize import Token

DATA = Path(__file__).resolve().parent / "data" / "places.tsv"
CITY_STATE = re.compile(r"[A-Z][a-z]+(?: [A-Z][a-z]+)*, ([A-Z]{2})\b")
TERRITORIES = Locale.parse("en").territories  # "JP": "Japan"
COUNTRIES = set(TERRITORIES.values())
CITY_PLACE = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*, ([A-Z][a-z]+(?: [A-Z][a-z]+)*)")  # "Lyon, France"
CITY_COUNTRY = re.compile(r"city,? (?:and )?country", re.I)


@dataclass(frozen=True)
class City:
    """A city, its ISO country code, and its state code when it is in the US."""

    name: str
    country: str
    state: str


@lru_cache(maxsize=1)
def _gazetteer() -> tuple[dict[str, City], dict[str, str], dict[str, str]]:
    """Cities by lower-cased name; state codes by lower-cased name or code; state names by code."""
    cities: dict[str, City] = {}
    states: dict[str, str] = {}
    names: dict[str, str] = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("#state\t"):
            _, code, name = line.split("\t")
            states[code.casefold()] = states[name.casefold()] = code
            names[code] = name
        elif line.startswith("#alias\t"):
            _, alias, name = line.split("\t")
            cities.setdefault(alias.casefold(), cities[name.casefold()])
        elif line and not line.startswith("#"):
            name, country, state, _ = line.split("\t")
            cities.setdefault(name.casefold(), City(name, country, state))  # most populous first
    return cities, states, names


def city(name: str) -> City | None:
    """The most populous city of that name, or None."""
    return _gazetteer()[0].get(name.casefold().strip())


def state_code(name: str) -> str | None:
    """A US state's two-letter code from its name or code, in any case: 'california' -> 'CA'."""
    return _gazetteer()[1].get(name.casefold().strip())


def state_name(code: str) -> str | None:
    """A US state's name from its code: 'CA' -> 'California'."""
    return _gazetteer()[2].get(code.upper())


def format_of(description: str) -> str:
    """How a description asks for a place: 'state' ("City, State", "such as 'Austin, TX'"),
    'country' ("City, Country" as well), or '' (nothing said)."""
    example = any(state_code(code) for code in CITY_STATE.findall(description))
    abroad = CITY_COUNTRY.search(description) or any(c in COUNTRIES for c in CITY_PLACE.findall(description))
    return "country" if abroad else "state" if example or "city, state" in description.casefold() else ""


def as_asked(written: str, name: str, description: str, city_only: bool = False) -> str:
    """A place as the description asks for it; `written` as is when it says nothing or the
    city is unknown. `name` is the city alone when `written` adds a region ("Chicago, Illinois"),
    what a parameter for a city (`city_only`) takes when its description asks for nothing else."""
    if not (wanted := format_of(description)) and city_only:
        return name or written  # a `city` the description does not ask to write with its region
    if not wanted:
        found = city(written)
        return found.name if found and _initials(written) else written  # initials: the city's name
    place, _, region = written.partition(",")
    head, _, last = written.rpartition(" ")
    if not region.strip() and head and (state_code(last) or last in COUNTRIES) and city(head):
        place, region = head, last  # "Pittsburg PA", "Osaka Japan"
    if region.strip():
        code = state_code(region) or {region.strip()} & COUNTRIES  # a state's code, or the country as named
        return f"{place.strip()}, {''.join(code)}" if code else written
    if (found := city(name or written)) is None:
        return written
    said = found.name if _initials(written) else written  # initials become the name; a name stays
    if found.country == "US":
        return f"{said}, {found.state}"
    return f"{said}, {TERRITORIES.get(found.country, found.country)}" if wanted == "country" else written


PLACE_LEVELS = lexicon_words("place_levels")  # from the highest: 省, 市, 区 …


def level_as_shown(written: Any, examples: tuple[str, ...]) -> Any:
    """A Chinese place written after the places above it, at the level the description's example
    shows: "浦东新区" of "上海市浦东新区" beside "e.g. 海淀区", "上海市" beside "e.g. 杭州市";
    `written` as is otherwise.

    >>> level_as_shown("上海市浦东新区", ("海淀区",)), level_as_shown("上海市浦东新区", ("上海市徐汇区",))
    ('浦东新区', '上海市浦东新区')
    """
    shown = [e[-1] for e in examples if e[-1:] in PLACE_LEVELS and not any(c in PLACE_LEVELS for c in e[:-1])]
    if not shown or not isinstance(written, str):
        return written
    cuts = [0, *(k + 1 for k, char in enumerate(written[:-2]) if k and char in PLACE_LEVELS), len(written)]
    parts = [written[start:end] for start, end in zip(cuts, cuts[1:], strict=False)]
    return next((part for part in reversed(parts) if part[-1] == shown[0]), written)


def level(token: Token) -> int:
    """How low the level of a Chinese place is, by its last character (省 0, 市 1, 区 2 …); -1 for
    another place jieba knows (北京), -2 for any other word."""
    if token.kind == "han" and len(token.text) > 1 and token.text[-1] in PLACE_LEVELS:
        return PLACE_LEVELS.index(token.text[-1])
    return -1 if token.tag == "ns" else -2


def _initials(written: str) -> bool:
    return written.isupper() and written.isalpha() and len(written) <= 4
