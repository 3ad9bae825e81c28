"""The bank in two languages, the time boxes of spoken practice, and the drills' labels.

`in_language(question, "zh")` gives the question with its Chinese text (same id, so progress
is shared between languages); `translated(bank, "zh")` keeps the questions that have Chinese.
A timed mock gives each question `PITCH_SECONDS` (the one-minute pitch, 背诵版) or
`DEEP_SECONDS` (the three-minute deep answer): `MODES` names them "pitch" and "deep".

`LABELS` is the one table of words shown around the questions, in English and Chinese: the
flashcards widget (`wirelab.widgets.quiz`) uses the plain keys, the terminal mock interview
(`wirelab.interview.mock`) the `mock.` ones and a few shared ones (`key_points`, `answered`).
`label("zh", "mock.summary", answered=2, graded=3, taken="4:05")` fills one in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from wirelab.interview.bank import DrillError, Question

LANGUAGES = ("en", "zh")
PITCH_SECONDS = 60  # the one-minute pitch (背诵版)
DEEP_SECONDS = 180  # the three-minute deep answer
MODES = {"pitch": PITCH_SECONDS, "deep": DEEP_SECONDS}

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "reveal": "Reveal answer",
        "grade": "Record grade",
        "next": "Next",
        "shuffle": "Shuffle",
        "missed": "Review missed",
        "card": "Card",
        "of": "of",
        "lesson": "lesson",
        "follow_ups": "Follow-ups",
        "mistakes": "Common mistakes",
        "tick": "Tick the key points you covered:",
        "answered": "answered",
        "missed_verdict": "missed - it will come back in Review missed",
        "key_points": "key points",
        "time_up": "Time is up.",
        "left": "left of",
        "untranslated": "",
        "nothing_missed": "Nothing missed yet: the deck stays as it is.",
        "reviewing": "Reviewing {n} missed question(s).",
        "mock.mode.pitch": "One-minute pitch (背诵版): {limit} for each answer.",
        "mock.mode.deep": "Deep answer: {limit} for each answer.",
        "mock.set_clock": "{elapsed} of {limit}",
        "mock.answer_clock": "{limit} to answer",
        "mock.speak": "Answer out loud, then press Enter to see the model answer... ",
        "mock.over_time": "You took {taken}, over the {limit} limit: it counts as missed.",
        "mock.model_answer": "Model answer: ",
        "mock.key_points": "Key points:",
        "mock.follow_ups": "Follow-ups: ",
        "mock.separator": " | ",
        "mock.covered": "Numbers of the key points you covered: ",
        "mock.bad_numbers": "type numbers between 1 and {total}, separated by spaces",
        "mock.missed": "missed",
        "mock.verdict": "{hits}/{total} key points: {verdict}.",
        "mock.time_up": "Time is up after {done} of {total} questions.",
        "mock.summary": "Answered {answered} of {graded} in {taken}.",
    },
    "zh": {
        "reveal": "显示答案",
        "grade": "记录自评",
        "next": "下一题",
        "shuffle": "打乱",
        "missed": "复习答错的题",
        "card": "第",
        "of": "题 / 共",
        "lesson": "课",
        "follow_ups": "追问",
        "mistakes": "常见错误",
        "tick": "勾选你答到的要点：",
        "answered": "答到",
        "missed_verdict": "未答到，会在“复习答错的题”中再次出现",
        "key_points": "个要点",
        "time_up": "时间到。",
        "left": "剩余，总时长",
        "untranslated": "（此题暂无中文版，显示英文）",
        "nothing_missed": "还没有答错的题：题组保持不变。",
        "reviewing": "正在复习 {n} 道答错的题。",
        "mock.mode.pitch": "背诵版：每题限时 {limit}。",
        "mock.mode.deep": "深入版：每题限时 {limit}。",
        "mock.set_clock": "已用 {elapsed} / 共 {limit}",
        "mock.answer_clock": "本题限时 {limit}",
        "mock.speak": "请大声作答，说完按回车查看参考答案…… ",
        "mock.over_time": "用时 {taken}，超过限时 {limit}：按未答到计。",
        "mock.model_answer": "参考答案：",
        "mock.key_points": "要点：",
        "mock.follow_ups": "追问：",
        "mock.separator": "｜",
        "mock.covered": "你答到的要点编号（用空格分隔）：",
        "mock.bad_numbers": "请输入 1 到 {total} 之间的编号，用空格分隔",
        "mock.missed": "未答到",
        "mock.verdict": "{hits}/{total} 个要点：{verdict}。",
        "mock.time_up": "时间到：共 {total} 题，答了 {done} 题。",
        "mock.summary": "{graded} 题中答到 {answered} 题，用时 {taken}。",
    },
}


def label(language: str, key: str, **values: object) -> str:
    """The text of `key` in `language`, with `values` filled in.

    >>> label("zh", "mock.summary", answered=2, graded=3, taken="4:05")
    '3 题中答到 2 题，用时 4:05。'
    """
    if language not in LABELS:
        raise DrillError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    return LABELS[language][key].format(**values)


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
