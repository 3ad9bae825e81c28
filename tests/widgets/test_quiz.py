"""The flashcard widget reveals, grades, shuffles and remembers misses across sessions.

Every action is driven the way a learner drives it, by clicking the widget's buttons.
"""

from dataclasses import replace

import pytest

from wirelab.interview import Progress, load_bank
from wirelab.widgets.quiz import Flashcards, _rich


@pytest.fixture
def bank():
    return load_bank()


@pytest.fixture
def progress(tmp_path):
    return Progress(tmp_path / "progress.json")


@pytest.fixture
def deck(bank, progress):
    return Flashcards(bank, progress, seed=1)


def test_a_new_deck_shows_the_first_question_with_the_answer_hidden(deck, bank):
    assert deck.current == bank[0]
    assert _rich(bank[0].question) in deck.question.value
    assert deck.answer.value == "" and deck.points.children == ()
    assert deck.grade_button.disabled and not deck.reveal_button.disabled


def test_revealing_shows_the_model_answer_and_one_checkbox_per_key_point(deck):
    deck.reveal_button.click()
    assert _rich(deck.current.model_answer) in deck.answer.value
    assert [box.description for box in deck.points.children] == list(deck.current.key_points)
    assert deck.reveal_button.disabled and not deck.grade_button.disabled


def test_covering_two_thirds_of_the_key_points_records_an_answer_on_disk(deck, progress):
    deck.reveal_button.click()
    needed = -(-2 * len(deck.current.key_points) // 3)
    deck.tick(*range(needed))
    deck.grade_button.click()
    saved = Progress(progress.path).data["questions"][deck.current.id]
    assert saved == {"seen": 1, "missed": 0, "last": "answered"}
    assert "answered" in deck.status.value
    assert all(box.disabled for box in deck.points.children), "a graded card is frozen"


def test_too_few_key_points_records_a_miss(deck, progress):
    deck.reveal_button.click()
    deck.tick(0)
    deck.grade_button.click()
    assert Progress(progress.path).missed() == [deck.current.id]


def test_grading_before_revealing_or_twice_is_refused(deck):
    with pytest.raises(RuntimeError, match="reveal"):
        deck.grade()
    deck.reveal()
    deck.grade()
    with pytest.raises(RuntimeError, match="already graded"):
        deck.grade()


def test_missed_questions_come_back_in_a_later_session(bank, progress):
    first = Flashcards(bank, progress)
    for _ in range(2):
        first.reveal()
        first.grade()
        first.next()
    later = Flashcards(bank, Progress(progress.path))
    later.missed_button.click()
    assert [q.id for q in later.deck] == sorted([bank[0].id, bank[1].id], key=[q.id for q in bank].index)
    assert "Reviewing 2 missed" in later.status.value


def test_review_missed_with_nothing_missed_keeps_the_deck(deck, bank):
    deck.missed_button.click()
    assert len(deck.deck) == len(bank) and "Nothing missed" in deck.status.value


def test_next_moves_on_hides_the_answer_and_wraps_around(bank, progress):
    deck = Flashcards(bank[:2], progress)
    deck.reveal()
    deck.next_button.click()
    assert deck.current == bank[1] and not deck.revealed and deck.points.children == ()
    deck.next_button.click()
    assert deck.current == bank[0]


def test_shuffling_with_a_seed_is_a_repeatable_permutation(bank, progress):
    one, two = Flashcards(bank, progress, seed=4), Flashcards(bank, progress, seed=4)
    one.shuffle_button.click()
    two.shuffle()
    assert [q.id for q in one.deck] == [q.id for q in two.deck]
    assert [q.id for q in one.deck] != [q.id for q in bank]
    assert sorted(q.id for q in one.deck) == sorted(q.id for q in bank)
    assert one.position == 0


def test_the_state_reports_what_the_learner_sees(deck):
    deck.reveal()
    deck.tick(1)
    assert deck.state() == {
        "card": deck.current.id,
        "language": "en",
        "position": 0,
        "deck": len(deck.deck),
        "revealed": True,
        "graded": False,
        "ticked": [i == 1 for i in range(len(deck.current.key_points))],
    }


def test_the_plain_text_view_is_stable_and_carries_no_address(deck, bank):
    assert repr(deck) == f"Flashcards(card 1 of {len(bank)}: {bank[0].id})"
    bundle = deck._repr_mimebundle_()
    assert bundle["text/plain"] == repr(deck)
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_a_saved_notebook_gets_a_static_html_view_of_the_card(deck):
    page = deck._repr_mimebundle_()["text/html"]
    assert "card 1 of" in page and deck.current.topic in page


def test_text_is_escaped_and_backticks_become_code():
    assert _rich("use `a<b` & <script>") == "use <code>a&lt;b</code> &amp; &lt;script&gt;"


def test_a_mock_interview_has_its_cards_and_a_countdown(bank, progress):
    mock = Flashcards.mock(bank, n=4, minutes=2, progress=progress, seed=9)
    assert len(mock.deck) == 4 and mock.clock.max == 120
    assert mock.clock_label.value == "2:00 left of 2:00"
    mock.clock.value = 45
    assert mock.clock_label.value == "1:15 left of 2:00"
    mock.clock.value = 120
    assert "Time is up" in mock.clock_label.value


def test_a_deck_without_questions_is_refused(progress):
    with pytest.raises(ValueError, match="at least one question"):
        Flashcards([], progress)


# --- languages and timed answers (issue 16) ---------------------------------------------


def bilingual(bank):
    return [q for q in bank if q.zh is not None]


def test_the_toggle_switches_the_card_and_the_buttons_to_chinese_and_back(bank, progress):
    deck = Flashcards(bilingual(bank), progress)
    deck.reveal_button.click()
    deck.tick(0)
    deck.language_toggle.value = "zh"
    card = deck.deck[0]
    assert _rich(card.zh.question) in deck.question.value
    assert _rich(card.zh.model_answer) in deck.answer.value
    assert _rich(card.zh.follow_up_answers[0]) in deck.answer.value
    assert _rich(card.common_mistakes[0].zh) in deck.answer.value
    assert [box.description for box in deck.points.children] == list(card.zh.key_points)
    assert deck.points.children[0].value is True, "ticks survive the switch"
    assert deck.next_button.description == "下一题" and deck.state()["language"] == "zh"
    deck.language_toggle.value = "en"
    assert _rich(card.question) in deck.question.value and deck.next_button.description == "Next"


def test_a_chinese_grade_is_recorded_under_the_same_id(bank, progress):
    deck = Flashcards(bilingual(bank), progress, language="zh")
    deck.reveal()
    deck.tick(*range(len(deck.current.key_points)))
    deck.grade_button.click()
    assert Progress(progress.path).data["questions"][deck.deck[0].id]["last"] == "answered"
    assert "答到" in deck.status.value


def test_an_untranslated_card_is_shown_in_english_with_a_note(bank, progress):
    untranslated = [replace(bank[0], zh=None)]  # the bank is all bilingual: a question added later may not be
    deck = Flashcards(untranslated, progress, language="zh")
    assert _rich(untranslated[0].question) in deck.question.value and "暂无中文版" in deck.header.value


def test_a_chinese_pitch_mock_times_each_question_for_a_minute(bank, progress):
    mock = Flashcards.mock(bank, n=3, progress=progress, seed=2, language="zh", mode="pitch")
    assert all(q.zh is not None for q in mock.deck) and mock.clock.max == 60
    mock.clock.value = 60
    assert "时间到" in mock.clock_label.value
    mock.next_button.click()
    assert mock.clock.value == 0, "the next question starts a fresh minute"


def test_a_deep_mock_gives_three_minutes_per_question(bank, progress):
    assert Flashcards.mock(bank, n=2, progress=progress, seed=1, mode="deep").clock.max == 180


def test_an_unknown_language_or_mode_is_refused(bank, progress):
    with pytest.raises(ValueError, match="language must be one of en, zh"):
        Flashcards(bank, progress, language="fr")
    with pytest.raises(ValueError, match="mode must be one of pitch, deep"):
        Flashcards.mock(bank, n=2, progress=progress, mode="marathon")
    with pytest.raises(ValueError, match="either minutes"):
        Flashcards(bank, progress, minutes=5, seconds_per_question=60)
