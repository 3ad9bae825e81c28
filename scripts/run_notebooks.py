"""Execute notebooks top to bottom on a fresh kernel and save them with their outputs.

    python scripts/run_notebooks.py notebooks/02_the_loop.ipynb solutions/*.ipynb

Each notebook runs in its own folder, offline (WIRELAB_OFFLINE=1), and is saved
with outputs and execution counts but without volatile metadata (execution
timestamps, widget state, jupytext's pairing metadata), with stable cell ids, so that a re-run changes the
file only where an output really changed. A cell that raises stops the run
unless it is tagged `raises-exception`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbstripout import strip_output

TIMEOUT_S = 120


def execute(path: Path) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    os.environ["WIRELAB_OFFLINE"] = "1"
    client = NotebookClient(
        nb,
        timeout=TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=False,
    )
    client.execute()
    return clean(nb)


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop what changes on every run; keep outputs and counts (nbval needs both)."""
    strip_output(
        nb,
        keep_output=True,
        keep_count=True,
        keep_id=True,
        extra_keys=["metadata.widgets", "metadata.jupytext", "cell.metadata.execution"],
    )
    for index, cell in enumerate(nb.cells):
        cell.id = f"cell-{index:03d}"
    nb.metadata.pop("widgets", None)
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    return nb


def main(paths: list[str]) -> int:
    for name in paths:
        path = Path(name)
        print(f"running {path}", flush=True)
        nbformat.write(execute(path), path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
