"""Execute notebooks top to bottom on a fresh kernel and save them with their outputs.

    python scripts/run_notebooks.py notebooks/02_the_loop.ipynb solutions/*.ipynb
    python scripts/run_notebooks.py --metadata-only notebooks/*.ipynb   # no run: metadata only

Each notebook runs in its own folder, offline (WIRELAB_OFFLINE=1), and is saved
with outputs and execution counts but without volatile metadata (execution
timestamps, widget state, jupytext's pairing metadata), with stable cell ids, so that a re-run changes the
file only where an output really changed. A cell that raises stops the run
unless it is tagged `raises-exception`.

The kernelspec saved is the one JupyterLab writes when it opens the notebook (the kernel's
own, e.g. display_name "Python 3 (ipykernel)"), so that opening a lesson does not mark it
changed and autosave does not rewrite it. `--metadata-only` rewrites just that metadata in
place, executing nothing, and leaves a notebook that already has it byte for byte as it was.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient
from nbstripout import strip_output

from wirelab.check.runner import private_kernel

TIMEOUT_S = 120
KERNEL = "python3"


def kernelspec() -> dict[str, str]:
    """The notebook metadata JupyterLab writes for the course's kernel."""
    spec = KernelSpecManager().get_kernel_spec(KERNEL)
    return {"display_name": spec.display_name, "language": spec.language, "name": KERNEL}


def execute(path: Path) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    os.environ["WIRELAB_OFFLINE"] = "1"
    with private_kernel() as config:
        NotebookClient(
            nb,
            config=config,
            timeout=TIMEOUT_S,
            kernel_name=KERNEL,
            resources={"metadata": {"path": str(path.parent)}},
            store_widget_state=False,
        ).execute()
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
    nb.metadata["kernelspec"] = kernelspec()
    return nb


def rewrite_metadata(path: Path) -> bool:
    """Give the notebook at `path` JupyterLab's kernelspec, running nothing; True if it changed."""
    nb = nbformat.read(path, as_version=4)
    if nb.metadata.get("kernelspec") == kernelspec():
        return False
    nb.metadata["kernelspec"] = kernelspec()
    nbformat.write(nb, path)
    return True


def main(args: list[str]) -> int:
    metadata_only = "--metadata-only" in args
    for name in [a for a in args if a != "--metadata-only"]:
        path = Path(name)
        if metadata_only:
            print(f"{'rewrote' if rewrite_metadata(path) else 'unchanged'} {path}", flush=True)
            continue
        print(f"running {path}", flush=True)
        nbformat.write(execute(path), path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
