"""The bank says what an interviewer expects to hear as of MCP 2026-07-28 (issue 24).

Where MCP comes from and who governs it, authorization as of 2026-07-28, MCP versus A2A, and
concrete figures given as starting points with the measurement that moves each; the
confused-deputy questions send the learner to lesson 13, where the word's three meanings are
told apart.
"""

import re

import pytest

from wirelab import interview

BANK = {q.id: q for q in interview.load_bank()}


def text(qid: str, language: str) -> str:
    q = interview.in_language(BANK[qid], language)
    return " ".join([q.question, q.model_answer, *q.key_points, *q.follow_ups, *q.follow_up_answers])


@pytest.mark.parametrize(
    ("qid", "english", "chinese"),
    [
        (
            "mcp-origin-governance",
            [
                "Anthropic",
                "November 2024",
                "December 2025",
                "Linux Foundation",
                "Agentic AI Foundation",
                "SEPs",
            ],
            ["Anthropic", "2024 年 11 月", "2025 年 12 月", "Linux 基金会", "Agentic AI Foundation"],
        ),
        (
            "authorization-2026",
            ["client ID metadata document", "`iss`", "`issuer`", "audience", "`application_type`", "mix-up"],
            ["客户端 ID 元数据文档", "`iss`", "`issuer`", "受众", "`application_type`", "mix-up"],
        ),
        (
            "mcp-vs-a2a",
            ["A2A", "agent card", "agent to another agent", "why not just use A2A"],
            ["A2A", "Agent Card", "Agent 和 Agent", "为什么不直接用 A2A"],
        ),
        (
            "concrete-figures",
            ["p99", "Recall@k", "exponential backoff", "rate limit", "starting point"],
            ["p99", "Recall@k", "指数退避", "限流", "起点"],
        ),
    ],
)
def test_the_new_questions_say_what_interviewers_expect_in_both_languages(qid, english, chinese):
    assert BANK[qid].zh is not None and BANK[qid].common_mistakes
    zh = text(qid, "zh").replace(" ", "")  # spacing between Chinese and Latin script is not compared
    missing = [w for w in english if w not in text(qid, "en")]
    missing += [w for w in chinese if w.replace(" ", "") not in zh]
    assert not missing, f"{qid} does not say: {missing}"


def test_each_figure_is_a_number_with_the_measurement_that_moves_it():
    points = BANK["concrete-figures"].key_points[:4]
    measures = ["p99", "Recall@k", "success per attempt", "latency knee"]
    for point, measure in zip(points, measures, strict=True):
        assert re.search(r"\d", point) and measure in point, point


@pytest.mark.parametrize("qid", ["confused-deputy", "deputy-vs-injection"])
def test_the_confused_deputy_questions_point_to_lesson_13s_three_cases(qid):
    question = BANK[qid]
    english = " ".join([*question.follow_up_answers, *(m.en for m in question.common_mistakes)])
    chinese = (text(qid, "zh") + " ".join(m.zh for m in question.common_mistakes)).replace(" ", "")
    assert "Lesson 13" in english or "lesson 13" in english
    assert "第13课" in chinese
    for case in ["token passthrough", "static client id", "injection"]:
        assert case in english.replace("Token passthrough", "token passthrough"), case
