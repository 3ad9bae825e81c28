"""Build reveal.js slides from the lesson notebooks, viewable with no network at all.

nbconvert's slides template loads reveal.js (and require.js, jQuery, MathJax, mermaid) from
CDNs. Here `reveal_url_prefix` points at a copy of the npm package `reveal.js` placed beside
the slides (`OUT/reveal.js/`, copied from `node_modules/reveal.js`), reveal and its notes
plugin are loaded with plain script tags (their UMD builds need no require.js), and the CDN
script blocks are left out. Open `OUT/NN-name.slides.html` straight from disk.

A notebook without slideshow metadata gets a default: each markdown cell that opens with a
heading starts a new slide, everything else continues the slide before it. The notebooks on
disk are never changed. Left out: MathJax (LaTeX stays as source text) and mermaid diagrams.

    python scripts/build_slides.py                       # notebooks/*.ipynb -> build/slides/
    python scripts/build_slides.py notebooks/02-*.ipynb --out /tmp/slides
    python scripts/build_slides.py --reveal-dir path/to/reveal.js
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

import jinja2
import nbformat
from nbconvert import SlidesExporter

ROOT = Path(__file__).resolve().parent.parent
REVEAL_FILES = ("dist", "plugin/notes")  # all the slides load from the reveal.js package
LOCAL_PREFIX = "reveal.js"

TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{% block footer_js %}
<script src="{{ resources.reveal.url_prefix }}/dist/reveal.js"></script>
<script src="{{ resources.reveal.url_prefix }}/plugin/notes/notes.js"></script>
<script>
Reveal.initialize({controls: true, progress: true, history: true, hash: true,
                   transition: "{{ resources.reveal.transition }}", plugins: [RevealNotes],
                   width: 1100, height: 760});
</script>
{% endblock footer_js %}
"""

REMOTE = re.compile(
    r"""<script[^>]*\bsrc=["'](https?://[^"']+)|<link[^>]*\bhref=["'](https?://[^"']+)"""
    r"""|\bimport\s+(?:[\w*{}\s,]+\s+from\s+)?["'](https?://[^"']+)"""
    r"""|@import\s+(?:url\()?["']?(https?://[^"')\s]+)""",
    re.I,
)


def remote_references(page: str) -> list[str]:
    """Scripts, style sheets and imports the page would fetch from the network.

    >>> remote_references('<script src="https://unpkg.com/reveal.js/dist/reveal.js"></script>')
    ['https://unpkg.com/reveal.js/dist/reveal.js']
    """
    return [next(g for g in match.groups() if g) for match in REMOTE.finditer(page)]


def default_slide_types(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Give a notebook without slideshow metadata one slide per markdown heading (a copy)."""
    nb = nbformat.from_dict(nb)
    if any("slideshow" in cell.metadata for cell in nb.cells):
        return nb
    for cell in nb.cells:
        heading = cell.cell_type == "markdown" and cell.source.lstrip().startswith("#")
        cell.metadata["slideshow"] = {"slide_type": "slide" if heading else "-"}
    return nb


def exporter() -> SlidesExporter:
    """nbconvert's slides exporter with our offline template and the local reveal.js prefix."""
    slides = SlidesExporter(
        extra_loaders=[jinja2.DictLoader({"offline-slides.j2": TEMPLATE})], template_file="offline-slides.j2"
    )
    slides.reveal_url_prefix = LOCAL_PREFIX
    return slides


def copy_reveal(reveal_dir: Path, out: Path) -> None:
    """Copy the parts of the reveal.js package the slides load into `out/reveal.js/`."""
    if not (reveal_dir / "dist" / "reveal.js").is_file():
        raise FileNotFoundError(
            f"no reveal.js package at {reveal_dir}: run `npm install` in the repository root "
            "(package.json lists reveal.js) or pass --reveal-dir"
        )
    for part in REVEAL_FILES:
        shutil.copytree(reveal_dir / part, out / LOCAL_PREFIX / part, dirs_exist_ok=True)


def build(notebooks: list[Path], out: Path, reveal_dir: Path) -> list[Path]:
    """Write one `<name>.slides.html` per notebook into `out`; fail on any remote reference."""
    if not notebooks:
        raise FileNotFoundError("no notebooks to build slides from")
    out.mkdir(parents=True, exist_ok=True)
    copy_reveal(reveal_dir, out)
    slides, written = exporter(), []
    for path in notebooks:
        page, _ = slides.from_notebook_node(
            default_slide_types(nbformat.read(path, as_version=4)),
            resources={"metadata": {"name": path.stem}},
        )
        remote = remote_references(page)
        if remote:
            raise RuntimeError(f"{path.name}: slides would load {remote} from the network")
        target = out / f"{path.stem}.slides.html"
        target.write_text(page, encoding="utf-8")
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "notebooks", nargs="*", type=Path, help="notebooks to convert (default: notebooks/*.ipynb)"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "slides")
    parser.add_argument("--reveal-dir", type=Path, default=ROOT / "node_modules" / "reveal.js")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    try:
        written = build(notebooks, args.out, args.reveal_dir)
    except (FileNotFoundError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print("\n".join(str(path) for path in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
