"""Build the Chinese edition (notebooks/zh, solutions/zh) from the English one and its translations.

The English notebooks stay the source. The Chinese text of their markdown cells lives in one
Markdown file per notebook, easy to review and edit:

    translations/zh/notebooks/03_describing_tools.md
    translations/zh/solutions/03_describing_tools_lab.md

Each translated cell starts with a marker naming the English cell's index and the sha256 of
the English text it was translated from:

    <!-- cell 5 · sha256 9f86d081884c7d65... (64 hex digits) -->
    ## 为什么描述很重要
    ...

`build` writes notebooks/zh/NN_….ipynb: code cells copied verbatim from English (tags and all),
markdown cells replaced by the translation whose hash matches the English text (metadata
`zh.source_sha256` records that hash). A cell whose English text changed keeps its old
translation and old hash (so the tests fail and `stale` lists it); a cell never translated
keeps the English text without the metadata. Then it executes the notebook with
scripts/run_notebooks.py (outputs come from running it) and regenerates labs/zh.

    python scripts/zh.py build [NN ...] [--no-run]   # notebooks and solutions, all or lessons NN
    python scripts/zh.py stale                       # cells to (re-)translate; exit 1 if any
    python scripts/zh.py english NN [--all]          # English text of stale cells, with markers
    python scripts/zh.py stamp [NN ...]              # hash new markers `<!-- cell N -->`

To (re-)translate a cell: `english NN` prints its English text under a marker; write the
Chinese under a marker `<!-- cell N -->` (replacing any older translation of that cell), then
`stamp` records the hash of the English text it was translated from, and `build` runs.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("notebooks", "solutions")
MARKER = re.compile(r"^<!-- cell (?P<cell>\d+)(?: · sha256 (?P<sha>[0-9a-f]{64}))? -->$", re.M)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Translation:
    cell: int  # index of the English cell when it was translated
    sha: str  # sha256 of that English cell's source
    text: str


def english_paths(kind: str, lessons: list[str] | None = None) -> list[Path]:
    paths = sorted((ROOT / kind).glob("*.ipynb"))
    return [p for p in paths if not lessons or p.name[:2] in lessons]


def zh_path(english: Path) -> Path:
    return english.parent / "zh" / english.name


def store_path(english: Path) -> Path:
    return ROOT / "translations" / "zh" / english.parent.name / f"{english.stem}.md"


def read_store(path: Path) -> list[Translation]:
    """The translations in one store file (none when it does not exist)."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    markers = list(MARKER.finditer(text))
    found = []
    for marker, following in zip(markers, [*markers[1:], None], strict=True):
        body = text[marker.end() : following.start() if following else len(text)].strip("\n")
        if not body.strip():
            raise ValueError(f"{path}: the translation of cell {marker['cell']} is empty")
        if not marker["sha"]:
            raise ValueError(f"{path}: cell {marker['cell']} has no sha256: run scripts/zh.py stamp")
        found.append(Translation(int(marker["cell"]), marker["sha"], body))
    return found


def marker(cell: int, sha: str) -> str:
    return f"<!-- cell {cell} · sha256 {sha} -->"


def translate(english: nbformat.NotebookNode, store: list[Translation]) -> nbformat.NotebookNode:
    """The Chinese notebook: English code cells, translated markdown cells, no outputs."""
    by_sha = {t.sha: t for t in store}
    by_cell = {t.cell: t for t in store}
    zh = nbformat.v4.new_notebook(metadata=dict(english.metadata))
    for index, cell in enumerate(english.cells):
        if cell.cell_type == "code":
            new = nbformat.v4.new_code_cell(cell.source, metadata=dict(cell.metadata))
        elif cell.cell_type == "markdown":
            found = by_sha.get(sha256(cell.source)) or by_cell.get(index)
            metadata = dict(cell.metadata)
            if found:
                metadata["zh"] = {"source_sha256": found.sha}
            new = nbformat.v4.new_markdown_cell(found.text if found else cell.source, metadata=metadata)
            if "attachments" in cell:
                new.attachments = cell.attachments
        else:
            new = nbformat.v4.new_raw_cell(cell.source, metadata=dict(cell.metadata))
        new.id = f"cell-{index:03d}"
        zh.cells.append(new)
    return zh


@dataclass(frozen=True)
class Stale:
    english: Path
    cell: int
    why: str  # "changed" (translated from older text) or "missing" (never translated)
    first_line: str

    def __str__(self) -> str:
        where = self.english.relative_to(ROOT)
        return f"{where}  cell {self.cell:>2}  {self.why:<7}  {self.first_line}"


def stale_cells(english_path: Path) -> list[Stale]:
    """The English markdown cells whose current text has no translation."""
    english = nbformat.read(english_path, as_version=4)
    store = read_store(store_path(english_path))
    shas = {t.sha for t in store}
    cells = {t.cell for t in store}
    found = []
    for index, cell in enumerate(english.cells):
        if cell.cell_type == "markdown" and sha256(cell.source) not in shas:
            why = "changed" if index in cells else "missing"
            first = next((line for line in cell.source.splitlines() if line.strip()), "")
            found.append(Stale(english_path, index, why, first[:80]))
    return found


def stamp(lessons: list[str] | None) -> int:
    """Give each new marker `<!-- cell N -->` the hash of English cell N as it is now."""
    for kind in KINDS:
        for english_path in english_paths(kind, lessons):
            path = store_path(english_path)
            if not path.exists():
                continue
            cells = nbformat.read(english_path, as_version=4).cells

            def stamped(found: re.Match[str], cells: list = cells, path: Path = path) -> str:
                index = int(found["cell"])
                if found["sha"]:
                    return found[0]
                if index >= len(cells) or cells[index].cell_type != "markdown":
                    raise SystemExit(f"{path}: English cell {index} is not a markdown cell")
                print(f"{path.relative_to(ROOT)}: stamped cell {index}")
                return marker(index, sha256(cells[index].source))

            text = path.read_text(encoding="utf-8")
            path.write_text(MARKER.sub(stamped, text), encoding="utf-8")
    return 0


def build(lessons: list[str] | None, run: bool) -> int:
    written = []
    for kind in KINDS:
        for english_path in english_paths(kind, lessons):
            english = nbformat.read(english_path, as_version=4)
            zh = translate(english, read_store(store_path(english_path)))
            target = zh_path(english_path)
            target.parent.mkdir(exist_ok=True)
            nbformat.write(zh, target)
            written.append(target)
            print(f"wrote {target.relative_to(ROOT)}", flush=True)
    if run and written:
        runner = [sys.executable, str(ROOT / "scripts" / "run_notebooks.py")]
        subprocess.run([*runner, *map(str, written)], check=True)
        subprocess.run([sys.executable, str(ROOT / "scripts" / "make_labs.py")], check=True)
    return 0


def stale(lessons: list[str] | None) -> int:
    found = [s for kind in KINDS for p in english_paths(kind, lessons) for s in stale_cells(p)]
    for item in found:
        print(item)
    print(f"{len(found)} cells to translate", file=sys.stderr)
    return 1 if found else 0


def english(lessons: list[str], every: bool) -> int:
    """Print English markdown cells with their markers, ready to paste into the store and translate."""
    for kind in KINDS:
        for english_path in english_paths(kind, lessons):
            wanted = None if every else {s.cell for s in stale_cells(english_path)}
            cells = nbformat.read(english_path, as_version=4).cells
            print(f"==> {store_path(english_path).relative_to(ROOT)}")
            for index, cell in enumerate(cells):
                if cell.cell_type == "markdown" and (wanted is None or index in wanted):
                    print(f"{marker(index, sha256(cell.source))}\n{cell.source}\n")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build_parser = commands.add_parser("build", help="write notebooks/zh and solutions/zh, run them")
    build_parser.add_argument("lessons", nargs="*", help="two-digit lesson numbers (default: all)")
    build_parser.add_argument("--no-run", action="store_true", help="write without executing")
    stale_parser = commands.add_parser("stale", help="list the cells to (re-)translate")
    stale_parser.add_argument("lessons", nargs="*")
    english_parser = commands.add_parser("english", help="print English cells to translate")
    english_parser.add_argument("lessons", nargs="+")
    english_parser.add_argument("--all", action="store_true", help="every markdown cell, not only stale")
    stamp_parser = commands.add_parser("stamp", help="hash new markers with the current English text")
    stamp_parser.add_argument("lessons", nargs="*")
    args = parser.parse_args(argv)
    for lesson in getattr(args, "lessons", []):
        if not re.fullmatch(r"\d\d", lesson):
            parser.error(f"a lesson is two digits, like 03, not {lesson!r}")
    commands = {
        "build": lambda: build(args.lessons, run=not args.no_run),
        "stale": lambda: stale(args.lessons),
        "stamp": lambda: stamp(args.lessons),
        "english": lambda: english(args.lessons, args.all),
    }
    try:
        return commands[args.command]()
    except ValueError as problem:  # a store file that cannot be read: say which and why
        print(problem, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
