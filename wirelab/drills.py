"""Interview drills: the question bank, mock-interview sets, progress, and the drill checker.

- `load_bank()` reads `drills/questions.yaml`, validates it against
  `drills/questions.schema.json` and returns `Question`s (ids must be unique).
- `pick_mock(bank, n, seed=...)` draws a mock-interview set, spread over topics.
- `Progress` remembers, across sessions, which questions were missed and when each
  coding drill was started, in `$WIRELAB_HOME/drills-progress.json`
  (default `~/.wirelab/`).
- `check_drill("loop")` runs a coding drill's checks against the learner's file.

From a terminal::

    python -m wirelab.drills list            # coding drills and their time boxes
    python -m wirelab.drills start loop      # start the clock, print the brief
    python -m wirelab.drills check loop      # run the checks on drills/coding/loop/starter.py
    python -m wirelab.drills mock -n 5 --minutes 15
    python -m wirelab.drills mock -n 3 --minutes 3 --lang zh   # in Chinese

Not here: the notebook flashcards (`wirelab.widgets.quiz`) and the checks themselves
(`drills/coding/<drill>/test_<drill>.py`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import jsonschema
import yaml

DRILLS_DIR = Path(__file__).resolve().parent.parent / "drills"
PROGRESS_FILE = "drills-progress.json"


class DrillError(Exception):
    """Bad input to the drills: a broken bank or progress file, an unknown drill or topic."""


@dataclass(frozen=True)
class Question:
    """One interview question with its model answer and what an interviewer listens for."""

    id: str
    topic: str
    difficulty: str
    question: str
    model_answer: str
    key_points: tuple[str, ...]
    follow_ups: tuple[str, ...]
    lessons: tuple[str, ...]
    follow_up_answers: tuple[str, ...] = ()
    common_mistakes: tuple[Mistake, ...] = ()
    zh: Translation | None = None


@dataclass(frozen=True)
class CodingDrill:
    """A timed coding drill: the file the learner edits, its checks and its time box."""

    name: str
    title: str
    minutes: int
    brief: str
    folder: Path

    @property
    def starter(self) -> Path:
        return self.folder / "starter.py"

    @property
    def solution(self) -> Path:
        return self.folder / "solution.py"

    @property
    def checks(self) -> Path:
        return self.folder / f"test_{self.name}.py"


# --- the question bank -----------------------------------------------------------------


def _read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise DrillError(f"cannot read {path}: {exc}") from exc


def validate_bank(data: Any, schema_path: Path | None = None) -> None:
    """Raise `DrillError` naming the first entry that breaks the schema or repeats an id."""
    schema_path = schema_path or DRILLS_DIR / "questions.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(data))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "(top level)"
        raise DrillError(f"question bank invalid at {where}: {error.message}")
    ids = [entry["id"] for entry in data["questions"]]
    repeated = sorted({qid for qid in ids if ids.count(qid) > 1})
    if repeated:
        raise DrillError(f"question bank repeats ids: {', '.join(repeated)}")
    _check_pairs_and_references(data)


def _check_pairs_and_references(data: dict[str, Any]) -> None:
    """Each follow-up has one answer (in each language); the reference map names real drills."""
    for entry in data["questions"]:
        for text in (entry, entry.get("zh")):
            answers = (text or {}).get("follow_up_answers")
            if answers is not None and len(answers) != len(text["follow_ups"]):
                raise DrillError(f"question {entry['id']!r}: one answer per follow-up, in the same order")
        if "zh" in entry and len(entry["zh"]["key_points"]) != len(entry["key_points"]):
            raise DrillError(f"question {entry['id']!r}: the Chinese key points must match the English ones")
    ids = {entry["id"] for entry in data["questions"]}
    for reference, drills in data.get("reference_map", {}).items():
        unknown = sorted(set(drills) - ids)
        if unknown:
            raise DrillError(f"reference_map {reference!r} names unknown drills: {', '.join(unknown)}")


def load_bank(path: Path | None = None) -> list[Question]:
    """Load and validate the question bank, in file order."""
    data = _read_yaml(path or DRILLS_DIR / "questions.yaml")
    validate_bank(data)
    return [_question(entry) for entry in data["questions"]]


def _question(entry: dict[str, Any]) -> Question:
    return Question(
        id=entry["id"],
        topic=entry["topic"],
        difficulty=entry["difficulty"],
        question=entry["question"].strip(),
        model_answer=" ".join(entry["model_answer"].split()),
        key_points=tuple(entry["key_points"]),
        follow_ups=tuple(entry["follow_ups"]),
        lessons=tuple(entry["lesson"]),
        follow_up_answers=tuple(entry.get("follow_up_answers", ())),
        common_mistakes=tuple(Mistake(m["en"], m["zh"]) for m in entry.get("common_mistakes", ())),
        zh=_translation(entry["zh"]) if "zh" in entry else None,
    )


# --- languages and spoken practice (issue 16) --------------------------------------------

LANGUAGES = ("en", "zh")
PITCH_SECONDS = 60  # the one-minute pitch (背诵版)
DEEP_SECONDS = 180  # the three-minute deep answer


@dataclass(frozen=True)
class Mistake:
    """Where popular answers go wrong, and why, in English and Chinese."""

    en: str
    zh: str


@dataclass(frozen=True)
class Translation:
    """A question's Chinese text: question, model answer, key points, follow-ups and their answers."""

    question: str
    model_answer: str
    key_points: tuple[str, ...]
    follow_ups: tuple[str, ...]
    follow_up_answers: tuple[str, ...]


CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
LINE_BREAK_NEXT_TO_CJK = re.compile(rf"(?<=[{CJK}])\s+|\s+(?=[{CJK}])")


def _join_cjk(text: str) -> str:
    """Undo the spaces YAML folding puts at line breaks next to Chinese: '一个 \n例子' -> '一个例子'."""
    return LINE_BREAK_NEXT_TO_CJK.sub("", " ".join(text.split()))


def _translation(entry: dict[str, Any]) -> Translation:
    return Translation(
        question=entry["question"].strip(),
        model_answer=_join_cjk(entry["model_answer"]),
        key_points=tuple(entry["key_points"]),
        follow_ups=tuple(entry["follow_ups"]),
        follow_up_answers=tuple(entry["follow_up_answers"]),
    )


def in_language(question: Question, language: str) -> Question:
    """The question with its text in `language` ("en" or "zh"); same id, so progress is shared."""
    if language not in LANGUAGES:
        raise DrillError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    if language == "en":
        return question
    if question.zh is None:
        raise DrillError(f"question {question.id!r} has no Chinese text yet")
    zh = question.zh
    return replace(
        question,
        question=zh.question,
        model_answer=zh.model_answer,
        key_points=zh.key_points,
        follow_ups=zh.follow_ups,
        follow_up_answers=zh.follow_up_answers,
    )


def translated(bank: Sequence[Question], language: str) -> list[Question]:
    """The questions of `bank` that can be asked in `language`, in that language."""
    return [in_language(q, language) for q in bank if language == "en" or q.zh is not None]


def pick_mock(
    bank: Sequence[Question], n: int, *, topic: str | None = None, seed: int | None = None
) -> list[Question]:
    """Draw `n` different questions, round-robin over topics so a set is never one-note.

    >>> [q.topic for q in pick_mock(load_bank(), 3, topic="security", seed=1)]
    ['security', 'security', 'security']
    """
    pool = [q for q in bank if topic is None or q.topic == topic]
    if not pool:
        raise DrillError(f"no questions on topic {topic!r}; topics: {sorted({q.topic for q in bank})}")
    if not 1 <= n <= len(pool):
        raise DrillError(f"ask for between 1 and {len(pool)} questions, not {n}")
    rng = random.Random(seed)
    by_topic: dict[str, list[Question]] = {}
    for question in rng.sample(pool, len(pool)):
        by_topic.setdefault(question.topic, []).append(question)
    rounds = [group[i] for i in range(len(pool)) for group in by_topic.values() if i < len(group)]
    return rounds[:n]


def covered_enough(hits: int, total: int) -> bool:
    """Self-grading rule: a question counts as answered when two thirds of its key points were hit.

    >>> covered_enough(2, 3), covered_enough(3, 5), covered_enough(4, 5)
    (True, False, True)
    """
    return hits >= math.ceil(total * 2 / 3)


# --- progress across sessions ----------------------------------------------------------


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


# --- coding drills ---------------------------------------------------------------------


def coding_drills(folder: Path | None = None) -> dict[str, CodingDrill]:
    """The coding drills listed in `drills/coding/drills.yaml`, by name."""
    folder = folder or DRILLS_DIR / "coding"
    listing = _read_yaml(folder / "drills.yaml")
    return {
        name: CodingDrill(name, spec["title"], spec["minutes"], spec["brief"].strip(), folder / name)
        for name, spec in listing.items()
    }


def get_drill(name: str) -> CodingDrill:
    drills = coding_drills()
    if name not in drills:
        raise DrillError(f"no coding drill {name!r}; choose one of: {', '.join(drills)}")
    return drills[name]


@dataclass(frozen=True)
class CheckResult:
    """What one run of a drill's checks found."""

    drill: CodingDrill
    passed: int
    total: int
    output: str

    @property
    def ok(self) -> bool:
        return self.total > 0 and self.passed == self.total


def check_drill(drill: CodingDrill, target: Path | None = None, timeout: float = 120) -> CheckResult:
    """Run the drill's checks (pytest, in a subprocess) against `target` (default: the starter).

    Plugin autoloading is off: the checks need none, and it keeps a check to about a second.
    """
    target = (target or drill.starter).resolve()
    if not target.is_file():
        raise DrillError(f"no file to check at {target}")
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.xml"
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "--tb=short",
            "-p",
            "no:cacheprovider",
            f"--junitxml={report}",
            "--rootdir",
            str(drill.folder),
            str(drill.checks),
        ]
        env = {**os.environ, "WIRELAB_DRILL_FILE": str(target), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
        try:
            run = subprocess.run(
                command, capture_output=True, text=True, env=env, timeout=timeout, cwd=drill.folder
            )
        except subprocess.TimeoutExpired as exc:
            raise DrillError(
                f"checks did not finish in {timeout:g} s: does {target.name} wait forever?"
            ) from exc
        passed, total = _count(report)
    return CheckResult(drill, passed, total, run.stdout + run.stderr)


def _count(report: Path) -> tuple[int, int]:
    if not report.exists():
        return 0, 0
    suite = ET.parse(report).getroot()
    suite = suite if suite.tag == "testsuite" else suite[0]
    total = int(suite.get("tests", 0))
    failed = sum(int(suite.get(key, 0)) for key in ("failures", "errors", "skipped"))
    return total - failed, total


def format_minutes(seconds: float) -> str:
    """`format_minutes(754) -> '12:34'`"""
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"


def summary(result: CheckResult, started: float | None, now: float) -> str:
    """One line: pass/fail, checks passed, time taken against the time box."""
    verdict = "PASS" if result.ok else "FAIL"
    box = result.drill.minutes * 60
    if started is None:
        clock = f"time box {result.drill.minutes} min (run `start {result.drill.name}` to time it)"
    else:
        taken = now - started
        over = " - over the box" if taken > box else ""
        clock = f"time {format_minutes(taken)} of {format_minutes(box)}{over}"
    return f"{verdict} {result.drill.name}: {result.passed}/{result.total} checks passed; {clock}"


# --- mock interview in a terminal ------------------------------------------------------


def parse_hits(reply: str, total: int) -> int:
    """Key points the learner says they covered: `'1 3'` -> 2; raises `DrillError` on bad input."""
    numbers = reply.replace(",", " ").split()
    if not all(n.isdigit() and 1 <= int(n) <= total for n in numbers):
        raise DrillError(f"type numbers between 1 and {total}, separated by spaces")
    return len(set(numbers))


def mock_interview(
    questions: Sequence[Question],
    minutes: float,
    progress: Progress | None,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    clock: Callable[[], float] = time.monotonic,
) -> list[tuple[str, bool]]:
    """Ask each question, reveal the model answer, self-grade; stop when time runs out.

    Returns (question id, answered) pairs; each is also recorded in `progress`.
    """
    start, results = clock(), []
    for number, question in enumerate(questions, 1):
        elapsed = clock() - start
        if elapsed >= minutes * 60:
            say(f"\nTime is up after {len(results)} of {len(questions)} questions.")
            break
        say(
            f"\n[{number}/{len(questions)}] {question.topic} · {question.difficulty} · "
            f"{format_minutes(elapsed)} of {format_minutes(minutes * 60)}\n{question.question}"
        )
        answered = _ask_and_grade(question, ask, say)
        if answered is None:
            break
        results.append((question.id, answered))
        if progress is not None:
            progress.record(question.id, answered)
    say(f"\nAnswered {sum(a for _, a in results)} of {len(results)} in {format_minutes(clock() - start)}.")
    return results


def _ask_and_grade(question: Question, ask: Callable[[str], str], say: Callable[[str], None]) -> bool | None:
    """None when the learner ends the session (end of input)."""
    try:
        ask("Answer out loud, then press Enter to see the model answer... ")
        say(f"\nModel answer: {question.model_answer}\nKey points:")
        say("\n".join(f"  {i}. {point}" for i, point in enumerate(question.key_points, 1)))
        say("Follow-ups: " + " | ".join(question.follow_ups))
        while True:
            try:
                total = len(question.key_points)
                hits = parse_hits(ask("Numbers of the key points you covered: "), total)
                answered = covered_enough(hits, total)
                say(f"{hits}/{total} key points: {'answered' if answered else 'missed'}.")
                return answered
            except DrillError as exc:
                say(str(exc))
    except EOFError:
        return None


# --- command line ----------------------------------------------------------------------


def _cmd_list(args: argparse.Namespace) -> int:
    for drill in coding_drills().values():
        print(f"{drill.name:14} {drill.minutes:3} min  {drill.title}")
    return 0


def _cmd_start(args: argparse.Namespace) -> int:
    drill = get_drill(args.drill)
    Progress().start_drill(drill.name)
    print(
        f"{drill.title} - {drill.minutes} minutes from now.\n\n{drill.brief}\n\n"
        f"Edit {drill.starter}\nThen run: python -m wirelab.drills check {drill.name}"
    )
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    drill = get_drill(args.drill)
    result = check_drill(drill, Path(args.file) if args.file else None)
    print(result.output)
    print(summary(result, Progress().drill_started(drill.name), time.time()))
    return 0 if result.ok else 1


def _cmd_mock(args: argparse.Namespace) -> int:
    pool = [q for q in load_bank() if args.lang == "en" or q.zh is not None]
    questions = translated(pick_mock(pool, args.n, topic=args.topic, seed=args.seed), args.lang)
    mock_interview(questions, args.minutes, Progress())
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m wirelab.drills", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="list the coding drills").set_defaults(run=_cmd_list)
    start = commands.add_parser("start", help="start a coding drill's clock")
    start.add_argument("drill")
    start.set_defaults(run=_cmd_start)
    check = commands.add_parser("check", help="run a coding drill's checks")
    check.add_argument("drill")
    check.add_argument("--file", help="file to check (default: the drill's starter.py)")
    check.set_defaults(run=_cmd_check)
    mock = commands.add_parser("mock", help="mock interview: random questions against a timer")
    mock.add_argument("-n", type=int, default=5, help="number of questions (default 5)")
    mock.add_argument("--minutes", type=float, default=15, help="time limit (default 15)")
    mock.add_argument("--topic", help="only this topic")
    mock.add_argument("--seed", type=int, help="repeatable draw")
    mock.add_argument("--lang", choices=LANGUAGES, default="en", help="ask in English or Chinese (zh)")
    mock.set_defaults(run=_cmd_mock)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except DrillError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
