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
    say("3 of 3 pass", "3 项全部通过")   # a sentence for the learner, in that language

`say` keeps both languages of a message side by side at the one place that writes it (a
check, a summary, a paragraph of the client), so no catalogue drifts from its code.
"""

from __future__ import annotations

import os
from pathlib import Path

LANGUAGES = ("en", "zh")
EDITIONS = ("notebooks", "solutions", "labs")


def language(notebook: Path | None = None) -> str:
    """`zh` for a notebook of the Chinese edition (or WIRELAB_LANG=zh), else `en`.

    `notebook`: decide for that file (e.g. the lab `./course check` runs) instead of this process.
    """
    chosen = os.environ.get("WIRELAB_LANG", "").strip()
    if chosen:
        if chosen not in LANGUAGES:
            raise ValueError(
                f"WIRELAB_LANG={chosen!r} is not a language of the course: use one of {list(LANGUAGES)}"
            )
        return chosen
    if notebook is not None:
        folders = [Path(notebook).resolve().parent]
    else:
        session = os.environ.get("JPY_SESSION_NAME")
        folders = [*([Path(session).parent] if session else []), Path.cwd()]
    return "zh" if any(f.name == "zh" and f.parent.name in EDITIONS for f in folders) else "en"


def say(en: str, zh: str, notebook: Path | None = None) -> str:
    """The English or the Chinese sentence, in the edition's language (see `language`)."""
    return zh if language(notebook) == "zh" else en
