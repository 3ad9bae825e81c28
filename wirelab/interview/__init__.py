"""Interview drills: the question bank, mock-interview sets, progress, and the drill checker.

- `load_bank()` reads `drills/questions.yaml`, validates it against
  `drills/questions.schema.json` and returns `Question`s (ids must be unique).
- `pick_mock(bank, n, seed=...)` draws a mock-interview set, spread over topics.
- `Progress` remembers, across sessions, which questions were missed and when each
  coding drill was started, in `$WIRELAB_HOME/drills-progress.json`
  (default `~/.wirelab/`).
- `check_drill("loop")` runs a coding drill's checks against the learner's file.

From a terminal::

    python -m wirelab.interview list            # coding drills and their time boxes
    python -m wirelab.interview start loop      # start the clock, print the brief
    python -m wirelab.interview check loop      # run the checks on drills/coding/loop/starter.py
    python -m wirelab.interview mock -n 5 --minutes 15
    python -m wirelab.interview mock -n 3 --minutes 3 --lang zh   # in Chinese
    python -m wirelab.interview mock -n 3 --mode pitch --lang zh  # 60 s an answer (背诵版)
    python -m wirelab.interview mock -n 3 --mode deep             # 180 s an answer

Not here: the notebook flashcards (`wirelab.widgets.quiz`) and the checks themselves
(`drills/coding/<drill>/test_<drill>.py`).
"""

from wirelab.interview.bank import (
    DRILLS_DIR,
    DrillError,
    Mistake,
    Question,
    Translation,
    covered_enough,
    load_bank,
    pick_mock,
    validate_bank,
)
from wirelab.interview.cli import main
from wirelab.interview.coding import CheckResult, CodingDrill, check_drill, coding_drills, get_drill, summary
from wirelab.interview.language import (
    DEEP_SECONDS,
    LABELS,
    LANGUAGES,
    MODES,
    PITCH_SECONDS,
    in_language,
    label,
    translated,
)
from wirelab.interview.mock import format_minutes, mock_interview, parse_hits
from wirelab.interview.progress import Progress, progress_path

__all__ = [
    "DEEP_SECONDS",
    "DRILLS_DIR",
    "LABELS",
    "LANGUAGES",
    "MODES",
    "PITCH_SECONDS",
    "Mistake",
    "Translation",
    "in_language",
    "label",
    "translated",
    "CheckResult",
    "CodingDrill",
    "DrillError",
    "Progress",
    "Question",
    "check_drill",
    "coding_drills",
    "covered_enough",
    "format_minutes",
    "get_drill",
    "load_bank",
    "main",
    "mock_interview",
    "parse_hits",
    "pick_mock",
    "progress_path",
    "summary",
    "validate_bank",
]
