"""The bank in two languages, and the time boxes of spoken practice.

`in_language(question, "zh")` gives the question with its Chinese text (same id, so progress
is shared between languages); `translated(bank, "zh")` keeps the questions that have Chinese.
A mock interview gives each question `PITCH_SECONDS` (the one-minute pitch, 背诵版) or
`DEEP_SECONDS` (the three-minute deep answer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from wirelab.interview.bank import DrillError, Question

LANGUAGES = ("en", "zh")
PITCH_SECONDS = 60  # the one-minute pitch (背诵版)
DEEP_SECONDS = 180  # the three-minute deep answer


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
