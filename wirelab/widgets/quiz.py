"""Flashcards and mock interviews over the question bank, as a notebook widget.

`Flashcards(load_bank())` shows one question at a time: reveal the model answer, tick the key
points you covered, record the grade (saved across sessions by `wirelab.interview.Progress`),
move on, shuffle, or review only what you missed. `Flashcards.mock(bank, n=5, minutes=15)`
draws a mock-interview set and adds a countdown; `mode="pitch"` (the one-minute 背诵版) or
`mode="deep"` (three minutes) gives each question its own time limit instead.

A toggle switches between English and Chinese (`language="zh"` starts in Chinese): the card,
its answer, follow-ups with their answers, common mistakes and the buttons change language; the
progress file is keyed by question id, so both languages share it. A question not yet translated
is shown in English with a note. A Chinese mock interview draws only translated questions.

Built with ipywidgets 8 rather than anywidget: every action is a Python callback on standard
controls (Button, Checkbox, HTML, Play), so the logic and the progress file live in the kernel,
a test drives it with `button.click()` without a browser, and JupyterLab renders it with the
widget manager it already ships; there is no front-end code of our own to keep in step.
The timer is a `Play` widget, so the front end ticks it and no kernel thread is needed.

Not here: loading the bank and grading rules (`wirelab.interview`), and the labels in both
languages and the timed modes (`wirelab.interview.language`), which the terminal mock shares.
A saved notebook without widget state (nbconvert, GitHub) shows the `text/html` fallback of
the current card instead.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from wirelab.interview import (
    Progress,
    Question,
    covered_enough,
    format_minutes,
    in_language,
    pick_mock,
)
from wirelab.interview.language import LABELS, MODES  # one table for the widget and the terminal


def _rich(text: str) -> str:
    """Escape text for HTML and turn `backticks` into <code>: '`a<b`' -> '<code>a&lt;b</code>'."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


class Flashcards:
    """A deck of question cards with reveal, self-grading, shuffle and missed-question review."""

    def __init__(
        self,
        questions: Sequence[Question],
        progress: Progress | None = None,
        *,
        seed: int | None = None,
        minutes: float | None = None,
        language: str = "en",
        seconds_per_question: int | None = None,
    ) -> None:
        if not questions:
            raise ValueError("a deck needs at least one question")
        if language not in LABELS:
            raise ValueError(f"language must be one of {', '.join(LABELS)}, not {language!r}")
        if minutes and seconds_per_question:
            raise ValueError("give either minutes for the whole set or seconds_per_question, not both")
        self.language = language
        self.seconds_per_question = seconds_per_question
        self.bank = list(questions)
        self.deck = list(questions)
        self.progress = progress if progress is not None else Progress()
        self.rng = random.Random(seed)
        self.position, self.revealed, self.graded = 0, False, False
        self.minutes = minutes
        self._build()
        self._show()

    @classmethod
    def mock(
        cls,
        bank: Sequence[Question],
        n: int = 5,
        minutes: float = 15,
        progress: Progress | None = None,
        seed: int | None = None,
        *,
        language: str = "en",
        mode: str | None = None,
    ) -> Flashcards:
        """A mock interview: `n` questions spread over topics, against a `minutes` countdown.

        `mode="pitch"` (60 s) or `"deep"` (180 s) times each question instead of the whole set;
        `language="zh"` asks in Chinese, drawing only questions that have a Chinese text.
        """
        if mode is not None and mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        pool = [q for q in bank if language == "en" or q.zh is not None]
        questions = pick_mock(pool, n, seed=seed)
        if mode:
            return cls(questions, progress, seed=seed, language=language, seconds_per_question=MODES[mode])
        return cls(questions, progress, seed=seed, minutes=minutes, language=language)

    # --- the view --------------------------------------------------------------------

    def _build(self) -> None:
        self.header, self.question, self.answer = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.points = widgets.VBox()
        self.status = widgets.HTML()
        self.reveal_button = self._button("reveal", self.reveal, "primary")
        self.grade_button = self._button("grade", self.grade, "success")
        self.next_button = self._button("next", self.next)
        self.shuffle_button = self._button("shuffle", self.shuffle)
        self.missed_button = self._button("missed", self.review_missed, "warning")
        self.language_toggle = widgets.ToggleButtons(
            options=[("English", "en"), ("中文", "zh")], value=self.language
        )
        self.language_toggle.observe(lambda change: self.switch_language(change["new"]), names="value")
        controls = widgets.HBox(
            [self.reveal_button, self.grade_button, self.next_button, self.shuffle_button, self.missed_button]
        )
        rows = [self.language_toggle, self.header, self.question, self.answer, self.points, controls]
        rows.append(self.status)
        self.timer = self._timer() if self.minutes or self.seconds_per_question else None
        self.box = widgets.VBox(([self.timer] if self.timer else []) + rows)

    def _button(self, key: str, action: Any, style: str = "") -> widgets.Button:
        button = widgets.Button(description=LABELS[self.language][key], button_style=style)
        button.on_click(lambda _: action())
        button.label_key = key
        return button

    def _label(self, key: str) -> str:
        return LABELS[self.language][key]

    def _timer(self) -> widgets.HBox:
        seconds = self.seconds_per_question or int(self.minutes * 60)
        self.clock = widgets.Play(value=0, min=0, max=seconds, interval=1000, description="timer")
        self.clock_label = widgets.HTML()
        self.clock.observe(lambda _: self._tick(), names="value")
        self._tick()
        return widgets.HBox([self.clock, self.clock_label])

    def _tick(self) -> None:
        left = self.clock.max - self.clock.value
        self.clock_label.value = (
            f"<b>{self._label('time_up')}</b>"
            if left <= 0
            else f"{format_minutes(left)} {self._label('left')} {format_minutes(self.clock.max)}"
        )

    def _show(self) -> None:
        card = self.current
        buttons = (self.reveal_button, self.grade_button, self.next_button, self.shuffle_button)
        for button in (*buttons, self.missed_button):
            button.description = self._label(button.label_key)
        note = self._label("untranslated") if self.language == "zh" and card.zh is None else ""
        self.header.value = (
            f"<b>{self._label('card')} {self.position + 1} {self._label('of')} {len(self.deck)}</b>"
            f" · {card.topic} · {card.difficulty} · {self._label('lesson')} {', '.join(card.lessons)}{note}"
        )
        self.question.value = f"<h3>{_rich(card.question)}</h3>"
        self.answer.value = self._answer_html() if self.revealed else ""
        for box in self.points.children:
            box.disabled = self.graded
        self.reveal_button.disabled = self.revealed
        self.grade_button.disabled = not self.revealed or self.graded

    def _answer_html(self) -> str:
        card = self.current
        answers = [*card.follow_up_answers, *[""] * len(card.follow_ups)]
        follow_ups = "".join(
            f"<li>{_rich(f)}" + (f"<br><i>{_rich(a)}</i>" if a else "") + "</li>"
            for f, a in zip(card.follow_ups, answers, strict=False)
        )
        mistakes = "".join(f"<li>{_rich(getattr(m, self.language))}</li>" for m in card.common_mistakes)
        mistakes_html = f"<p><b>{self._label('mistakes')}</b></p><ul>{mistakes}</ul>" if mistakes else ""
        return (
            f"<p>{_rich(card.model_answer)}</p><p><b>{self._label('follow_ups')}</b></p>"
            f"<ul>{follow_ups}</ul>{mistakes_html}<p><b>{self._label('tick')}</b></p>"
        )

    # --- actions (each button calls one) ----------------------------------------------

    @property
    def current(self) -> Question:
        """The current card, in the deck's language when it has a translation."""
        card = self.deck[self.position]
        return in_language(card, self.language) if card.zh is not None else card

    def switch_language(self, language: str) -> None:
        """Show the deck in `language` ("en" or "zh"); ticks and grades so far are kept."""
        if language not in LABELS:
            raise ValueError(f"language must be one of {', '.join(LABELS)}, not {language!r}")
        self.language = language
        self.language_toggle.value = language
        for box, point in zip(self.points.children, self.current.key_points, strict=True):
            box.description = point
        if self.timer:
            self._tick()
        self._show()

    def reveal(self) -> None:
        """Show the model answer, the follow-ups and one checkbox per key point."""
        if not self.revealed:
            self.points.children = [
                widgets.Checkbox(description=point, indent=False, layout=widgets.Layout(width="auto"))
                for point in self.current.key_points
            ]
        self.revealed = True
        self._show()

    def tick(self, *indexes: int) -> None:
        """Tick key points by index, as a learner's clicks would: `tick(0, 2)`."""
        for index in indexes:
            self.points.children[index].value = True

    def grade(self) -> bool:
        """Record the current card as answered or missed from the ticked key points."""
        if not self.revealed:
            raise RuntimeError("reveal the answer before grading")
        if self.graded:
            raise RuntimeError("this card is already graded; go to the next one")
        hits = sum(box.value for box in self.points.children)
        answered = covered_enough(hits, len(self.current.key_points))
        self.progress.record(self.current.id, answered)
        self.graded = True
        verdict = self._label("answered" if answered else "missed_verdict")
        self.status.value = f"{hits}/{len(self.current.key_points)} {self._label('key_points')}: {verdict}."
        self._show()
        return answered

    def next(self) -> None:
        self.position = (self.position + 1) % len(self.deck)
        self._reset()

    def shuffle(self) -> None:
        self.rng.shuffle(self.deck)
        self.position = 0
        self._reset()

    def review_missed(self) -> None:
        """Limit the deck to questions whose latest attempt was missed (from saved progress)."""
        missed = set(self.progress.missed())
        deck = [q for q in self.bank if q.id in missed]
        if not deck:
            self.status.value = self._label("nothing_missed")
            return
        self.deck, self.position = deck, 0
        self._reset()
        self.status.value = self._label("reviewing").format(n=len(deck))

    def _reset(self) -> None:
        self.revealed = self.graded = False
        self.points.children = []
        self.status.value = ""
        if self.seconds_per_question:
            self.clock.value = 0  # each question gets its own time limit
        self._show()

    # --- state and display ------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The Python-side state, stable enough to compare in a notebook check."""
        return {
            "card": self.current.id,
            "language": self.language,
            "position": self.position,
            "deck": len(self.deck),
            "revealed": self.revealed,
            "graded": self.graded,
            "ticked": [box.value for box in self.points.children],
        }

    def to_html(self) -> str:
        """Static view of the current card, for saved notebooks without widget state."""
        card = self.current
        return (
            f"<div><p><b>Flashcards</b> · card {self.position + 1} of {len(self.deck)} · "
            f"{card.topic}</p><p>{_rich(card.question)}</p><p><i>Run the notebook to reveal "
            f"the answer and grade yourself.</i></p></div>"
        )

    def __repr__(self) -> str:
        return f"Flashcards(card {self.position + 1} of {len(self.deck)}: {self.current.id})"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = self.box._repr_mimebundle_(**kwargs) or {}
        return {**bundle, "text/plain": repr(self), "text/html": self.to_html()}
