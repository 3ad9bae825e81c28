"""Which edition of the course a notebook belongs to: English, or Chinese (中文版).

The Chinese edition's code cells are the English ones, character for character, so the
language cannot be an argument. It comes from where the notebook is:

- `WIRELAB_LANG` (`en` or `zh`), when set, decides;
- otherwise a notebook in a `zh` folder of notebooks/, solutions/ or labs/ is Chinese. In
  JupyterLab the kernel gets the notebook's path in `JPY_SESSION_NAME` (jupyter_server sets
  it); nbclient and nbval start the kernel in the notebook's folder, so the working
  directory tells the same there. A server the notebook starts (lesson 12's knowledge base)
  inherits both, so it answers in the notebook's language too.

The widgets label themselves in this language (`wirelab.widgets.language`), and the
capstone's knowledge base reads the corpus in it by default (`wirelab.kb.corpus`).

    language()      # 'zh' in notebooks/zh, else 'en'
"""

from __future__ import annotations

import os
from pathlib import Path

LANGUAGES = ("en", "zh")
EDITIONS = ("notebooks", "solutions", "labs")


def language() -> str:
    """`zh` for a notebook of the Chinese edition (or WIRELAB_LANG=zh), else `en`."""
    chosen = os.environ.get("WIRELAB_LANG", "").strip()
    if chosen:
        if chosen not in LANGUAGES:
            raise ValueError(
                f"WIRELAB_LANG={chosen!r} is not a language of the course: use one of {list(LANGUAGES)}"
            )
        return chosen
    session = os.environ.get("JPY_SESSION_NAME")
    folders = [Path(session).parent] if session else []
    return "zh" if any(f.name == "zh" and f.parent.name in EDITIONS for f in [*folders, Path.cwd()]) else "en"
