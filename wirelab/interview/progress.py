"""Progress across sessions: missed questions and coding-drill start times, in one JSON file.

The file is `$WIRELAB_HOME/drills-progress.json` (default `~/.wirelab/`); it is written
atomically after every change, and a file that is not progress is refused, never overwritten.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from wirelab.interview.bank import DrillError

PROGRESS_FILE = "drills-progress.json"


def progress_path() -> Path:
    """`$WIRELAB_HOME/drills-progress.json`, or `~/.wirelab/drills-progress.json`."""
    home = os.environ.get("WIRELAB_HOME")
    return (Path(home) if home else Path.home() / ".wirelab") / PROGRESS_FILE


class Progress:
    """Per-question results and drill start times, saved as JSON after every change.

    A file that is not valid progress raises `DrillError` and is never overwritten.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or progress_path()
        self.data: dict[str, Any] = self._read()

    def _read(self) -> dict[str, Any]:
        if not self.path.exists():
            return {"version": 1, "questions": {}, "drills": {}}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise DrillError(f"progress file {self.path} is unreadable ({exc}); move it away") from exc
        if not (
            isinstance(data, dict)
            and isinstance(data.get("questions"), dict)
            and isinstance(data.get("drills"), dict)
        ):
            raise DrillError(f"progress file {self.path} is not drills progress; move it away")
        return data

    def save(self) -> None:
        """Write atomically: a crash mid-write leaves the old file intact."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", dir=self.path.parent, delete=False, encoding="utf-8", suffix=".tmp"
        ) as tmp:
            json.dump(self.data, tmp, indent=1, sort_keys=True)
        os.replace(tmp.name, self.path)

    def record(self, question_id: str, answered: bool) -> None:
        """Count one attempt at a question; `answered=False` marks it missed."""
        entry = self.data["questions"].setdefault(question_id, {"seen": 0, "missed": 0})
        entry["seen"] += 1
        entry["missed"] += 0 if answered else 1
        entry["last"] = "answered" if answered else "missed"
        self.save()

    def missed(self) -> list[str]:
        """Ids whose latest attempt was missed, in id order."""
        return sorted(qid for qid, e in self.data["questions"].items() if e.get("last") == "missed")

    def start_drill(self, name: str, now: float | None = None) -> None:
        self.data["drills"][name] = {"started": time.time() if now is None else now}
        self.save()

    def drill_started(self, name: str) -> float | None:
        return self.data["drills"].get(name, {}).get("started")
