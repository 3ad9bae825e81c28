"""Every question in the reference interview notes maps to a drill, and the new drills are bilingual.

The notes live outside the repository, in `shared/reference/` beside the clone (read-only in CI).
A learner's own clone has no such folder: the tests that read the notes skip there, naming what is
missing, and fail when it is missing on CI (`CI=true`), where it must be.
Numbered questions 53-63 are lines like `53. ...？`; their follow-ups are the lines under the first
面试官可能追问 that read `问题？（答案）`, numbered 53.1, 53.2, ...; Q1-Q5 are lines like `Q1：...`.
"""

import os
import re
from pathlib import Path

import pytest
import yaml

from wirelab import interview

REPO = Path(interview.__file__).resolve().parents[2]
# shared/ sits beside the clone (CI), or beside a folder of worktrees: look upwards.
REFERENCE = next(
    (p / "shared" / "reference" for p in [REPO, *REPO.parents] if (p / "shared" / "reference").is_dir()),
    REPO.parent / "shared" / "reference",
)
QUESTIONS = REFERENCE / "interview-questions-53-63.zh.txt"
CHAPTER = REFERENCE / "interview-notes-fc-mcp-chapter.zh.txt"
NUMBERED = re.compile(r"^(5[3-9]|6[0-3])\. ")
SELF_CHECK = re.compile(r"^(Q[1-5])：")


def read_note(path: Path) -> list[str]:
    """The note's lines; skipped when the note is missing (a learner's clone), except on CI."""
    if not path.is_file():
        reason = f"reference notes not found at {path}: shared/reference/ must sit beside the clone"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path.read_text(encoding="utf-8").splitlines()


def reference_questions() -> dict[str, str]:
    """'53' -> its question, '53.1' -> its first follow-up, 'Q1' -> ...; first occurrence wins."""
    found: dict[str, str] = {}
    current, in_follow_ups = None, False
    for line in (raw.strip() for raw in read_note(QUESTIONS)):
        if match := NUMBERED.match(line):
            current, in_follow_ups = match[1], False
            found.setdefault(current, line)
        elif line == "面试官可能追问":
            in_follow_ups = True
        elif in_follow_ups and "？（" in line:
            number = sum(key.startswith(f"{current}.") for key in found) + 1
            found.setdefault(f"{current}.{number}", line)
        elif in_follow_ups and line:
            in_follow_ups = False
    for line in (raw.strip() for raw in read_note(CHAPTER)):
        if match := SELF_CHECK.match(line):
            found.setdefault(match[1], line)
    return found


@pytest.fixture(scope="module")
def data():
    return yaml.safe_load((interview.DRILLS_DIR / "questions.yaml").read_text(encoding="utf-8"))


def test_the_notes_hold_eleven_questions_twenty_five_follow_ups_and_five_self_checks():
    found = reference_questions()
    numbered = [str(n) for n in range(53, 64)] + [f"Q{n}" for n in range(1, 6)]
    assert [k for k in found if "." not in k] == numbered
    assert sum("." in k for k in found) == 25


def test_every_question_in_the_reference_notes_has_a_drill(data):
    missing = {key: text for key, text in reference_questions().items() if key not in data["reference_map"]}
    assert not missing, "reference questions without a drill in reference_map:\n" + "\n".join(
        f"  {key}: {text}" for key, text in missing.items()
    )


def test_the_map_names_only_questions_the_notes_have(data):
    assert set(data["reference_map"]) <= set(reference_questions())


def test_mapped_drills_exist():
    ids = {q.id for q in interview.load_bank()}
    mapped = {
        qid
        for qids in yaml.safe_load((interview.DRILLS_DIR / "questions.yaml").read_text())[
            "reference_map"
        ].values()
        for qid in qids
    }
    assert mapped <= ids


NEW_IN_ISSUE_16 = [
    "how-model-decides",
    "fc-vs-json-in-prompt",
    "mcp-vs-http-api",
    "kb-server-six-tools",
    "build-server-with-sdk",
    "remote-server-authorization",
    "split-or-merge-servers",
    "deputy-vs-injection",
    "when-routing-wins",
    "check-status-before-retry",
    "failed-tool-in-the-loop",
]


@pytest.mark.parametrize("qid", NEW_IN_ISSUE_16)
def test_the_questions_the_notes_ask_are_bilingual_with_answered_follow_ups(qid):
    question = {q.id: q for q in interview.load_bank()}[qid]
    zh = interview.in_language(question, "zh")
    assert re.search(r"[\u4e00-\u9fff]", zh.question + zh.model_answer + "".join(zh.key_points))
    assert len(question.follow_up_answers) == len(question.follow_ups) == len(zh.follow_up_answers)
    assert question.common_mistakes and all(m.en and m.zh for m in question.common_mistakes)


def test_the_outdated_claims_of_the_notes_are_named_as_common_mistakes():
    mistakes = " ".join(m.en for q in interview.load_bank() for m in q.common_mistakes)
    for claim in ["HTTP+SSE", "FastMCP", "guarantees valid JSON", "`continue`s past a bad call"]:
        assert claim in mistakes, claim


def test_the_kb_pitch_maps_every_tool_name_of_the_notes_to_the_course():
    pitch = {q.id: q for q in interview.load_bank()}["kb-server-six-tools"].model_answer
    for course, notes in [
        ("answer_question", "rag_answer"),
        ("search", "rag_search"),
        ("search_reranked", "rag_search_rerank"),
        ("list_documents", "kb_list"),
        ("get_document", "kb_get_document"),
        ("kb_stats", "kb_stats"),
    ]:
        assert f"`{course}`" in pitch and notes in pitch, course


def test_every_question_and_follow_up_of_the_notes_has_a_bilingual_drill(data):
    bilingual = {q.id for q in interview.load_bank() if q.zh is not None and q.follow_up_answers}
    lacking = [
        key for key in reference_questions() if not bilingual.intersection(data["reference_map"].get(key, []))
    ]
    assert lacking == []


# For each follow-up of the notes, a word it shares with the drill that asks it: the word must be in
# the follow-up's line of the notes and in the Chinese question, follow-ups or answers of one of the
# drills it maps to, so that a follow-up cannot be mapped to a drill that never takes it up.
ASKED_AS = {
    "53.1": "理解",
    "53.2": "多少轮",
    "53.3": "tool_call_id",
    "54.1": "合并",
    "54.2": "指令",
    "55.1": "兜底",
    "55.2": "爆炸",
    "56.1": "哪些错误不该",
    "56.2": "语法",
    "56.3": "要不要改",
    "57.1": "依赖",
    "57.2": "顺序",
    "58.1": "LangChain",
    "58.2": "描述质量",
    "59.1": "Client",
    "59.2": "Streamable HTTP",
    "59.3": "sampling",
    "60.1": "拆",
    "60.2": "RAG",
    "61.1": "所有错误",
    "61.2": "幂等键",
    "62.1": "防不住",
    "62.2": "Confused Deputy",
    "63.1": "分错",
    "63.2": "当路由",
}


def asked_text(question: interview.Question) -> str:
    zh = question.zh
    return " ".join([zh.question, zh.model_answer, *zh.follow_ups, *zh.follow_up_answers])


def test_each_follow_up_of_the_notes_maps_to_a_drill_that_takes_it_up(data):
    notes = reference_questions()
    assert set(ASKED_AS) == {key for key in notes if "." in key}
    bank = {q.id: q for q in interview.load_bank()}
    for key, word in ASKED_AS.items():
        assert word in notes[key], f"{key}: {word!r} is not in the notes' follow-up"
        drills = data["reference_map"][key]
        assert any(word in asked_text(bank[qid]) for qid in drills), f"{key}: no drill of {drills} asks it"


def test_missing_notes_skip_outside_ci_and_name_the_file(tmp_path, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    missing = tmp_path / "shared" / "reference" / QUESTIONS.name
    with pytest.raises(pytest.skip.Exception, match=str(missing)):
        read_note(missing)


def test_missing_notes_fail_on_ci(tmp_path, monkeypatch):
    monkeypatch.setenv("CI", "true")
    missing = tmp_path / "shared" / "reference" / QUESTIONS.name
    with pytest.raises(pytest.fail.Exception, match="shared/reference/ must sit beside the clone"):
        read_note(missing)
