"""wirelab.interview does what it says: the bank's validation, mock sets, progress, the mock
interview (timed, in English or Chinese) and the command line.

The tests of the data in drills/ (the questions, the coding drills) are in tests/drills/.
"""

import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from tests.conftest import TOPICS
from wirelab import interview
from wirelab.interview import DrillError, Progress


def write_bank(tmp_path: Path, data) -> Path:
    path = tmp_path / "questions.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize("field", ["model_answer", "key_points", "lesson", "topic"])
def test_an_entry_missing_a_field_is_rejected_with_its_position(tmp_path, raw_bank, field):
    del raw_bank["questions"][3][field]
    with pytest.raises(DrillError, match=r"questions/3"):
        interview.load_bank(write_bank(tmp_path, raw_bank))


def test_a_lesson_outside_00_to_18_is_rejected(tmp_path, raw_bank):
    raw_bank["questions"][0]["lesson"] = ["19"]
    with pytest.raises(DrillError, match="questions/0/lesson/0"):
        interview.load_bank(write_bank(tmp_path, raw_bank))


def test_two_key_points_are_too_few(tmp_path, raw_bank):
    raw_bank["questions"][5]["key_points"] = ["one", "two"]
    with pytest.raises(DrillError, match="questions/5/key_points"):
        interview.load_bank(write_bank(tmp_path, raw_bank))


def test_a_repeated_id_is_rejected_by_name(tmp_path, raw_bank):
    raw_bank["questions"][1]["id"] = raw_bank["questions"][0]["id"]
    with pytest.raises(DrillError, match=raw_bank["questions"][0]["id"]):
        interview.load_bank(write_bank(tmp_path, raw_bank))


def test_a_bank_that_is_not_yaml_gets_a_clear_error(tmp_path):
    path = tmp_path / "questions.yaml"
    path.write_text("questions: [unclosed")
    with pytest.raises(DrillError, match="cannot read"):
        interview.load_bank(path)


def test_a_mock_set_has_distinct_questions_spread_over_topics():
    picked = interview.pick_mock(interview.load_bank(), len(TOPICS), seed=11)
    assert len({q.id for q in picked}) == len(TOPICS)
    assert {q.topic for q in picked} == set(TOPICS)


def test_the_same_seed_draws_the_same_mock_set():
    bank = interview.load_bank()
    assert interview.pick_mock(bank, 5, seed=3) == interview.pick_mock(bank, 5, seed=3)


def test_a_topic_filter_draws_only_that_topic():
    picked = interview.pick_mock(interview.load_bank(), 3, topic="security", seed=1)
    assert {q.topic for q in picked} == {"security"}


@pytest.mark.parametrize(
    ("n", "topic", "message"),
    [(0, None, "between 1 and"), (10_000, None, "between 1 and"), (1, "cooking", "no questions")],
)
def test_an_impossible_mock_request_is_refused_clearly(n, topic, message):
    with pytest.raises(DrillError, match=message):
        interview.pick_mock(interview.load_bank(), n, topic=topic)


@pytest.mark.parametrize(
    ("hits", "total", "answered"), [(2, 3, True), (1, 3, False), (4, 6, True), (3, 5, False), (5, 5, True)]
)
def test_a_question_counts_as_answered_at_two_thirds_of_its_key_points(hits, total, answered):
    assert interview.covered_enough(hits, total) is answered


def test_progress_lives_under_wirelab_home(tmp_path, monkeypatch):
    monkeypatch.setenv("WIRELAB_HOME", str(tmp_path))
    assert interview.progress_path() == tmp_path / "drills-progress.json"


def test_progress_survives_into_the_next_session(tmp_path):
    path = tmp_path / "p.json"
    Progress(path).record("six-step-loop", answered=False)
    Progress(path).record("tool-poisoning", answered=True)
    later = Progress(path)
    assert later.missed() == ["six-step-loop"]
    assert later.data["questions"]["six-step-loop"] == {"seen": 1, "missed": 1, "last": "missed"}


def test_a_question_answered_after_a_miss_is_no_longer_missed(tmp_path):
    progress = Progress(tmp_path / "p.json")
    progress.record("six-step-loop", answered=False)
    progress.record("six-step-loop", answered=True)
    assert progress.missed() == []
    assert progress.data["questions"]["six-step-loop"]["missed"] == 1


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"questions": []}'])
def test_a_broken_progress_file_is_reported_and_left_untouched(tmp_path, content):
    path = tmp_path / "p.json"
    path.write_text(content)
    with pytest.raises(DrillError, match="move it away"):
        Progress(path)
    assert path.read_text() == content


def test_starting_a_drill_records_its_start_time(tmp_path):
    Progress(tmp_path / "p.json").start_drill("loop", now=1000.0)
    assert Progress(tmp_path / "p.json").drill_started("loop") == 1000.0
    assert Progress(tmp_path / "p.json").drill_started("parallel") is None


@pytest.mark.parametrize(("reply", "hits"), [("1 3", 2), ("", 0), ("2,2, 4", 2)])
def test_key_point_replies_are_counted(reply, hits):
    assert interview.parse_hits(reply, 4) == hits


@pytest.mark.parametrize("reply", ["5", "0", "one", "1 -2"])
def test_a_key_point_reply_out_of_range_is_refused(reply):
    with pytest.raises(DrillError, match="between 1 and 4"):
        interview.parse_hits(reply, 4)


class Script:
    """Answers the mock interview's prompts from a list; EOFError when it runs out."""

    def __init__(self, *replies):
        self.replies, self.prompts = list(replies), []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if not self.replies:
            raise EOFError
        return self.replies.pop(0)


def test_a_mock_interview_grades_each_answer_and_saves_it(tmp_path):
    questions = interview.pick_mock(interview.load_bank(), 2, seed=5)
    progress, said = Progress(tmp_path / "p.json"), []
    everything = " ".join(str(i) for i in range(1, len(questions[0].key_points) + 1))
    results = interview.mock_interview(
        questions, 10, progress, ask=Script("", "nine", everything, "", ""), say=said.append
    )
    assert results == [(questions[0].id, True), (questions[1].id, False)]
    assert progress.missed() == [questions[1].id]
    assert any("between 1 and" in line for line in said), "a bad reply is explained and asked again"


def test_a_mock_interview_stops_when_time_is_up(tmp_path):
    questions = interview.pick_mock(interview.load_bank(), 3, seed=5)
    times = iter([0, 0, 61, 61])
    said = []
    results = interview.mock_interview(
        questions, 1, None, ask=Script("", ""), say=said.append, clock=lambda: next(times)
    )
    assert len(results) == 1
    assert any("Time is up after 1 of 3" in line for line in said)


def test_the_end_of_input_ends_a_mock_interview_without_losing_grades(tmp_path):
    questions = interview.pick_mock(interview.load_bank(), 3, seed=5)
    progress = Progress(tmp_path / "p.json")
    results = interview.mock_interview(questions, 10, progress, ask=Script("", "1"), say=lambda _: None)
    assert [qid for qid, _ in results] == [questions[0].id]
    assert list(Progress(tmp_path / "p.json").data["questions"]) == [questions[0].id]


def test_an_unknown_drill_is_refused_with_the_list_of_drills(capsys):
    assert interview.main(["check", "sorting"]) == 2
    assert "choose one of: loop, arguments" in capsys.readouterr().err


def test_the_summary_compares_the_time_taken_with_the_time_box():
    drill = interview.get_drill("loop")
    passed = interview.CheckResult(drill, 8, 8, "")
    failed = interview.CheckResult(drill, 3, 8, "")
    assert interview.summary(passed, 0, 754) == "PASS loop: 8/8 checks passed; time 12:34 of 20:00"
    assert interview.summary(failed, 0, 1500).endswith("time 25:00 of 20:00 - over the box")
    assert "run `start loop` to time it" in interview.summary(failed, None, 0)


def bilingual_entry(raw_bank) -> tuple[int, dict]:
    return next((i, q) for i, q in enumerate(raw_bank["questions"]) if "zh" in q)


def test_a_follow_up_without_its_answer_is_rejected(tmp_path, raw_bank):
    _, entry = bilingual_entry(raw_bank)
    entry["follow_ups"] = entry["follow_ups"][:1] + ["An extra question without an answer?"]
    entry["follow_up_answers"] = entry["follow_up_answers"][:1]
    with pytest.raises(DrillError, match="one answer per follow-up"):
        interview.load_bank(write_bank(tmp_path, raw_bank))


def test_a_translation_with_fewer_key_points_is_rejected(tmp_path, raw_bank):
    _, entry = bilingual_entry(raw_bank)
    entry["zh"]["key_points"] = entry["zh"]["key_points"][:-1]
    with pytest.raises(DrillError, match="Chinese key points"):
        interview.load_bank(write_bank(tmp_path, raw_bank))


def test_chinese_without_common_mistakes_is_rejected(tmp_path, raw_bank):
    index, entry = bilingual_entry(raw_bank)
    del entry["common_mistakes"]
    with pytest.raises(DrillError, match=f"questions/{index}"):
        interview.load_bank(write_bank(tmp_path, raw_bank))


def test_a_reference_mapped_to_an_unknown_drill_is_rejected(tmp_path, raw_bank):
    raw_bank["reference_map"]["Q1"] = ["no-such-drill"]
    with pytest.raises(DrillError, match="unknown drills: no-such-drill"):
        interview.load_bank(write_bank(tmp_path, raw_bank))


def test_asking_in_chinese_gives_the_chinese_text_under_the_same_id():
    bank = interview.load_bank()
    question = next(q for q in bank if q.zh is not None)
    zh = interview.in_language(question, "zh")
    assert zh.id == question.id and zh.question == question.zh.question
    assert "\n" not in zh.model_answer and " 的" not in zh.model_answer
    assert interview.in_language(question, "en") is question
    assert all(q.zh is not None for q in interview.translated(bank, "zh"))
    assert interview.translated(bank, "en") == bank


def test_an_unknown_or_missing_language_is_a_clear_error():
    bank = interview.load_bank()
    with pytest.raises(DrillError, match="language must be one of en, zh"):
        interview.in_language(bank[0], "fr")
    untranslated = replace(bank[0], zh=None)  # every question has Chinese now; one added later may not
    with pytest.raises(DrillError, match="no Chinese text yet"):
        interview.in_language(untranslated, "zh")


def test_a_chinese_mock_interview_in_the_terminal_asks_in_chinese(monkeypatch, tmp_path):
    monkeypatch.setenv("WIRELAB_HOME", str(tmp_path))
    asked = []
    monkeypatch.setattr(
        interview.cli, "mock_interview", lambda questions, minutes, progress, **_: asked.extend(questions)
    )
    assert interview.main(["mock", "-n", "3", "--lang", "zh", "--seed", "1"]) == 0
    assert len(asked) == 3 and all(q.question == q.zh.question for q in asked)


# --- timed answers (pitch 60 s, deep 180 s) and Chinese prompts in the terminal ---------------


def every_point(question) -> str:
    return " ".join(str(i) for i in range(1, len(question.key_points) + 1))


@pytest.mark.parametrize(
    ("mode", "seconds", "answered"),
    [("pitch", 59, True), ("pitch", 61, False), ("deep", 179, True), ("deep", 181, False)],
)
def test_a_timed_answer_over_its_limit_counts_as_missed_whatever_it_covered(mode, seconds, answered):
    question = interview.pick_mock(interview.load_bank(), 1, seed=5)[0]
    times, said = iter([0, 0, seconds, seconds]), []
    results = interview.mock_interview(
        [question],
        None,
        None,
        ask=Script("", every_point(question)),
        say=said.append,
        clock=lambda: next(times),
        mode=mode,
    )
    assert results == [(question.id, answered)]
    limit = interview.format_minutes(interview.MODES[mode])
    assert any(f"{limit} to answer" in line for line in said)
    assert any(f"over the {limit} limit" in line for line in said) is not answered


def test_each_timed_question_gets_its_own_clock_so_a_slow_first_does_not_end_the_set():
    questions = interview.pick_mock(interview.load_bank(), 2, seed=5)
    times = iter([0, 0, 100, 500, 530, 530])  # 100 s on the first, 30 s on the second
    replies = Script("", every_point(questions[0]), "", every_point(questions[1]))
    results = interview.mock_interview(
        questions, None, None, ask=replies, say=lambda _: None, clock=lambda: next(times), mode="pitch"
    )
    assert results == [(questions[0].id, False), (questions[1].id, True)]


def test_the_terminal_mock_prompts_in_chinese_from_the_widgets_label_table():
    from wirelab.widgets import quiz

    assert quiz.LABELS is interview.LABELS and quiz.MODES is interview.MODES
    question = interview.translated(interview.pick_mock(interview.load_bank(), 1, seed=5), "zh")[0]
    replies, said = Script("", "九", every_point(question)), []
    results = interview.mock_interview(
        [question], None, None, ask=replies, say=said.append, clock=lambda: 0, mode="pitch", language="zh"
    )
    assert results == [(question.id, True)]
    assert replies.prompts == [
        interview.LABELS["zh"]["mock.speak"],
        interview.LABELS["zh"]["mock.covered"],
        interview.LABELS["zh"]["mock.covered"],
    ]
    text = "\n".join(said)
    assert "背诵版：每题限时 1:00" in text and "本题限时 1:00" in text and question.zh.question in text
    assert "参考答案：" in text and "请输入 1 到" in text and "答到" in text
    assert not re.search(r"Model answer|Key points|Answered \d", text)


def test_every_label_has_both_languages_with_the_same_placeholders():
    english, chinese = interview.LABELS["en"], interview.LABELS["zh"]
    assert set(english) == set(chinese)
    for key in english:
        assert set(re.findall(r"{(\w+)}", english[key])) == set(re.findall(r"{(\w+)}", chinese[key])), key


@pytest.mark.parametrize(
    ("arguments", "minutes", "mode"),
    [
        ([], 15, None),
        (["--minutes", "3"], 3, None),
        (["--mode", "pitch"], None, "pitch"),
        (["--mode", "deep", "--lang", "zh"], None, "deep"),
    ],
)
def test_the_mock_command_times_the_set_or_each_question(monkeypatch, tmp_path, arguments, minutes, mode):
    monkeypatch.setenv("WIRELAB_HOME", str(tmp_path))
    seen = {}
    monkeypatch.setattr(
        interview.cli,
        "mock_interview",
        lambda questions, minutes, progress, **options: seen.update(minutes=minutes, **options),
    )
    assert interview.main(["mock", "-n", "2", "--seed", "1", *arguments]) == 0
    language = "zh" if "zh" in arguments else "en"
    assert seen == {"minutes": minutes, "mode": mode, "language": language}


def test_the_mock_command_refuses_minutes_and_a_mode_together(capsys):
    with pytest.raises(SystemExit):
        interview.main(["mock", "--minutes", "5", "--mode", "pitch"])
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("minutes", "options", "complaint"),
    [
        (None, {}, "exactly one of the two"),
        (5, {"mode": "pitch"}, "exactly one of the two"),
        (None, {"mode": "marathon"}, "mode must be one of pitch, deep"),
        (5, {"language": "fr"}, "language must be one of en, zh"),
    ],
)
def test_a_mock_interview_refuses_a_clock_or_language_it_cannot_run(minutes, options, complaint):
    question = interview.load_bank()[0]
    with pytest.raises(DrillError, match=complaint):
        interview.mock_interview([question], minutes, None, ask=Script(), say=lambda _: None, **options)
