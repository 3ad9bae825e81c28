"""Build the Chinese diagrams (assets/zh/*.svg) from the English ones and their translations.

The English SVG stays the source. The Chinese text of its labels lives in one JSON file per
diagram, with the sha256 of the English SVG it was translated from, as markdown cells keep it:

    translations/zh/assets/six_step_loop.json
    {"source_sha256": "9f86d0…", "texts": {"1 define": "1 定义", "your code": "你的代码", …}}

`build` writes assets/zh/NAME.svg: the English SVG with each `<text>`/`<tspan>` whose content
is a key of `texts` replaced by its value (labels that are code, such as `POST /mcp` or JSON,
have no entry and stay as they are). A diagram whose English SVG changed after its
translation is *stale*: `stale` lists it and the tests fail until its labels are checked,
re-translated where needed and `stamp` records the new hash.

    python scripts/zh_svg.py build           # write assets/zh/*.svg
    python scripts/zh_svg.py stale           # diagrams to re-translate; exit 1 if any
    python scripts/zh_svg.py stamp NAME ...  # record the English SVG's hash after translating
    python scripts/zh_svg.py check           # exit 1 if assets/zh is not what build writes
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = ROOT / "assets"
CHINESE = ROOT / "assets" / "zh"
STORE = ROOT / "translations" / "zh" / "assets"
LABEL = re.compile(r"(<(?:text|tspan)\b[^>]*>)([^<]+)(<)")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def labels(svg: str) -> list[str]:
    """The text of every label of an SVG, in order, without repeats.

    >>> labels('<svg><text x="1">a</text><text><tspan>b</tspan></text><text>a</text></svg>')
    ['a', 'b']
    """
    return list(dict.fromkeys(m[2] for m in LABEL.finditer(svg) if m[2].strip()))


def translate(svg: str, texts: dict[str, str]) -> str:
    """The SVG with each label found in `texts` replaced by its translation.

    >>> translate('<text x="1">your code</text><text>POST /mcp</text>', {"your code": "你的代码"})
    '<text x="1">你的代码</text><text>POST /mcp</text>'
    """
    return LABEL.sub(lambda m: m[1] + texts.get(m[2], m[2]) + m[3], svg)


def diagrams() -> list[Path]:
    return sorted(ENGLISH.glob("*.svg"))


def store_of(english: Path) -> Path:
    return STORE / f"{english.stem}.json"


def read_store(english: Path) -> dict:
    path = store_of(english)
    if not path.exists():
        return {"source_sha256": "", "texts": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def built(english: Path) -> str:
    """What assets/zh/NAME.svg must contain."""
    return translate(english.read_text(encoding="utf-8"), read_store(english)["texts"])


def stale() -> list[str]:
    """One line per diagram with no translation, or translated from an older English SVG."""
    found = []
    for english in diagrams():
        store = read_store(english)
        if not store["texts"]:
            found.append(f"{english.name}: not translated ({store_of(english).relative_to(ROOT)})")
        elif store["source_sha256"] != sha256(english.read_text(encoding="utf-8")):
            found.append(f"{english.name}: changed since its translation: check its labels, then stamp it")
    return found


def out_of_date() -> list[str]:
    """The Chinese diagrams that differ from what `build` writes."""
    chinese = {english: CHINESE / english.name for english in diagrams()}
    return [
        path.name
        for english, path in chinese.items()
        if not path.exists() or path.read_text(encoding="utf-8") != built(english)
    ]


def stamp(names: list[str]) -> None:
    for name in names:
        english = ENGLISH / f"{Path(name).stem}.svg"
        store = read_store(english)
        store["source_sha256"] = sha256(english.read_text(encoding="utf-8"))
        store_of(english).parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(store, ensure_ascii=False, indent=1) + "\n"
        store_of(english).write_text(text, encoding="utf-8")
        print(f"stamped {store_of(english).relative_to(ROOT)}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["build", "stale", "stamp", "check"])
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    if args.command == "build":
        CHINESE.mkdir(exist_ok=True)
        for english in diagrams():
            (CHINESE / english.name).write_text(built(english), encoding="utf-8")
        return 0
    if args.command == "stamp":
        stamp(args.names)
        return 0
    problems = stale() if args.command == "stale" else out_of_date()
    for line in problems:
        print(line if args.command == "stale" else f"assets/zh/{line} is out of date: run build")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
