"""The interview question bank: load `drills/questions.yaml`, validate it, draw mock sets.

`load_bank()` validates the file against `drills/questions.schema.json` (ids must be unique)
and returns `Question`s; `pick_mock(bank, n, seed=...)` draws a set spread over topics.
Every bad input raises `DrillError`, which the whole package uses.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import yaml

DRILLS_DIR = Path(__file__).resolve().parents[2] / "drills"


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


def read_yaml(path: Path) -> Any:
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
    data = read_yaml(path or DRILLS_DIR / "questions.yaml")
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


CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
LINE_BREAK_NEXT_TO_CJK = re.compile(rf"(?<=[{CJK}])\s+|\s+(?=[{CJK}])")


def _join_cjk(text: str) -> str:
    """Undo the spaces YAML folding puts at line breaks next to Chinese.

    >>> _join_cjk("一个\\n  例子 and\\n  more")
    '一个例子and more'
    """
    return LINE_BREAK_NEXT_TO_CJK.sub("", " ".join(text.split()))


def _translation(entry: dict[str, Any]) -> Translation:
    return Translation(
        question=entry["question"].strip(),
        model_answer=_join_cjk(entry["model_answer"]),
        key_points=tuple(entry["key_points"]),
        follow_ups=tuple(entry["follow_ups"]),
        follow_up_answers=tuple(entry["follow_up_answers"]),
    )


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
