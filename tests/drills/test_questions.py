"""The data in drills/: the question bank is complete, bilingual and cleanly written, and every
coding drill has its files.

How wirelab.interview reads and uses them is tested in tests/interview/.
"""

import re

import pytest

from tests.conftest import TOPICS
from wirelab import interview


def test_the_bank_validates_and_holds_at_least_forty_questions():
    assert len(interview.load_bank()) >= 40


def test_every_topic_of_the_course_has_at_least_three_questions():
    topics = [question.topic for question in interview.load_bank()]
    assert {topic: topics.count(topic) >= 3 for topic in TOPICS} == dict.fromkeys(TOPICS, True)


def test_every_question_has_three_to_six_key_points_and_a_follow_up():
    for question in interview.load_bank():
        assert 3 <= len(question.key_points) <= 6 and question.follow_ups, question.id


def test_every_coding_drill_has_a_starter_a_solution_checks_and_a_time_box():
    listed = interview.coding_drills()
    assert set(listed) == {"loop", "arguments", "parallel", "stdio_server"}
    for drill in listed.values():
        assert drill.starter.is_file() and drill.solution.is_file() and drill.checks.is_file()
        assert drill.minutes > 0 and drill.brief


def test_every_question_is_bilingual_with_answered_follow_ups_and_common_mistakes():
    for q in interview.load_bank():
        assert q.zh is not None, q.id
        assert len(q.zh.key_points) == len(q.key_points), q.id
        assert (
            len(q.follow_up_answers)
            == len(q.follow_ups)
            == len(q.zh.follow_ups)
            == len(q.zh.follow_up_answers)
        ), q.id
        assert q.common_mistakes and all(m.en and m.zh for m in q.common_mistakes), q.id


HAN = re.compile(r"[\u4e00-\u9fff]")
CHINESE = "\u4e00-\u9fff\u3000-\u303f\uff00-\uffef"  # Han, CJK punctuation, fullwidth forms (，：（）)
PUNCTUATION = "\u3000-\u303f\uff00-\uffef"
# What a folded YAML line leaves in Chinese text: a space between two characters, or next to a
# full-width punctuation mark. A space between Chinese and a Latin word (一个 JSON 字符串) is fine.
STRAY_SPACE = re.compile(rf"[{CHINESE}]\s+[{CHINESE}]|[{PUNCTUATION}]\s|\s[{PUNCTUATION}]")


def strings(node, where=""):
    """Every string of a YAML tree, with where it sits: ('questions/3/zh/model_answer', '...')."""
    if isinstance(node, str):
        yield where, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from strings(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from strings(value, f"{where}/{index}")


def test_no_space_sits_between_two_chinese_characters(raw_bank):
    """Chinese has no spaces between words; one there is a folded YAML line (write Chinese on one line)."""
    found = [
        f"{where}: ...{text[max(0, m.start() - 8) : m.end() + 8]}..."
        for where, text in strings(raw_bank)
        for m in STRAY_SPACE.finditer(text)
    ]
    assert found == []
    assert any(HAN.search(text) for _, text in strings(raw_bank)), "the check must see Chinese text"


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("再把结果 作为", True),
        ("结果\n  作为", True),
        ("归应用负责。 函数", True),
        ("注册动作， `@server.resource`", True),
        ("一个 JSON 字符串，`finish_reason` 为 stop", False),
    ],
)
def test_the_space_check_flags_folded_lines_but_not_spaces_around_english(text, flagged):
    assert bool(STRAY_SPACE.search(text)) is flagged
