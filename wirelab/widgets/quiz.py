"""Flashcards and mock interviews over the question bank, as a notebook widget.

`Flashcards(load_bank())` shows one question at a time: reveal the model answer, tick the key
points you covered, record the grade (saved across sessions by `wirelab.interview.Progress`),
move on, shuffle, or review only what you missed. `Flashcards.mock(bank, n=5, minutes=15)`
draws a mock-interview set and adds a countdown.

Built with ipywidgets 8 rather than anywidget: every action is a Python callback on standard
controls (Button, Checkbox, HTML, Play), so the logic and the progress file live in the kernel,
a test drives it with `button.click()` without a browser, and JupyterLab renders it with the
widget manager it already ships; there is no front-end code of our own to keep in step.
The timer is a `Play` widget, so the front end ticks it and no kernel thread is needed.

Not here: loading the bank and grading rules (`wirelab.interview`). A saved notebook without
widget state (nbconvert, GitHub) shows the `text/html` fallback of the current card instead.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from wirelab.interview import Progress, Question, covered_enough, format_minutes, pick_mock


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
    ) -> None:
        if not questions:
            raise ValueError("a deck needs at least one question")
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
    ) -> Flashcards:
        """A mock interview: `n` questions spread over topics, against a `minutes` countdown."""
        return cls(pick_mock(bank, n, seed=seed), progress, seed=seed, minutes=minutes)

    # --- the view --------------------------------------------------------------------

    def _build(self) -> None:
        self.header, self.question, self.answer = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.points = widgets.VBox()
        self.status = widgets.HTML()
        self.reveal_button = self._button("Reveal answer", self.reveal, "primary")
        self.grade_button = self._button("Record grade", self.grade, "success")
        self.next_button = self._button("Next", self.next)
        self.shuffle_button = self._button("Shuffle", self.shuffle)
        self.missed_button = self._button("Review missed", self.review_missed, "warning")
        controls = widgets.HBox(
            [self.reveal_button, self.grade_button, self.next_button, self.shuffle_button, self.missed_button]
        )
        rows = [self.header, self.question, self.answer, self.points, controls, self.status]
        self.timer = self._timer() if self.minutes else None
        self.box = widgets.VBox(([self.timer] if self.timer else []) + rows)

    @staticmethod
    def _button(label: str, action: Any, style: str = "") -> widgets.Button:
        button = widgets.Button(description=label, button_style=style)
        button.on_click(lambda _: action())
        return button

    def _timer(self) -> widgets.HBox:
        self.clock = widgets.Play(
            value=0, min=0, max=int(self.minutes * 60), interval=1000, description="timer"
        )
        self.clock_label = widgets.HTML()
        self.clock.observe(lambda _: self._tick(), names="value")
        self._tick()
        return widgets.HBox([self.clock, self.clock_label])

    def _tick(self) -> None:
        left = self.clock.max - self.clock.value
        self.clock_label.value = (
            "<b>Time is up.</b>"
            if left <= 0
            else f"{format_minutes(left)} left of {format_minutes(self.clock.max)}"
        )

    def _show(self) -> None:
        card = self.current
        self.header.value = (
            f"<b>Card {self.position + 1} of {len(self.deck)}</b> · {card.topic}"
            f" · {card.difficulty} · lesson {', '.join(card.lessons)}"
        )
        self.question.value = f"<h3>{_rich(card.question)}</h3>"
        self.answer.value = self._answer_html() if self.revealed else ""
        for box in self.points.children:
            box.disabled = self.graded
        self.reveal_button.disabled = self.revealed
        self.grade_button.disabled = not self.revealed or self.graded

    def _answer_html(self) -> str:
        follow_ups = "".join(f"<li>{_rich(f)}</li>" for f in self.current.follow_ups)
        return (
            f"<p>{_rich(self.current.model_answer)}</p><p><b>Follow-ups</b></p>"
            f"<ul>{follow_ups}</ul><p><b>Tick the key points you covered:</b></p>"
        )

    # --- actions (each button calls one) ----------------------------------------------

    @property
    def current(self) -> Question:
        return self.deck[self.position]

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
        verdict = "answered" if answered else "missed - it will come back in Review missed"
        self.status.value = f"{hits}/{len(self.current.key_points)} key points: {verdict}."
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
            self.status.value = "Nothing missed yet: the deck stays as it is."
            return
        self.deck, self.position = deck, 0
        self._reset()
        self.status.value = f"Reviewing {len(deck)} missed question(s)."

    def _reset(self) -> None:
        self.revealed = self.graded = False
        self.points.children = []
        self.status.value = ""
        self._show()

    # --- state and display ------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The Python-side state, stable enough to compare in a notebook check."""
        return {
            "card": self.current.id,
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
