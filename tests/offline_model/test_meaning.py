"""The meaning stage: encoder features, weights fitted on the course's own corpus, and explain()."""

import json
from pathlib import Path

import numpy as np
import pytest

from tests.offline_model.conftest import model_tool, tool
from tests.offline_model.test_no_benchmark_leak import bfcl_cases, phrases, user_texts
from wirelab import bilingual_eval
from wirelab.offline_model import complete, explain, meaning, selection, training
from wirelab.offline_model.calls import bind_calls

ROOT = Path(__file__).resolve().parents[2]


CLIPS = tool(
    "find_clips", "Search a stock footage library for video clips.", {"topic": {"type": "string"}}, ("topic",)
)
TRACKS = tool(
    "find_tracks", "Find royalty-free background music for a mood.", {"mood": {"type": "string"}}, ("mood",)
)
LAMP = tool(
    "lamp_level", "Change how bright the lamps in a room are.", {"level": {"type": "integer"}}, ("level",)
)


def called(text, tools):
    body = {"model": "wirelab-offline", "messages": [{"role": "user", "content": text}], "tools": tools}
    return [c["function"]["name"] for c in complete(body)["choices"][0]["message"].get("tool_calls") or []]


def test_the_weights_are_fitted_on_the_current_corpus():
    """Stale weights fail: the stamp is the hash of the corpus, its catalogues and the encoder."""
    data = json.loads(meaning.WEIGHTS.read_text())
    assert data["corpus_sha256"] == training.corpus_hash(), "run scripts/train_offline_model.py"
    assert set(data["weights"]) == set(meaning.NAMES) and len(data["probe"]) == 513


def test_refitting_gives_the_weights_in_the_file():
    corpus = training.load_corpus()
    x, y = training.examples(corpus)
    fitted = training.fit(x, y, training.chatter_probe(corpus), training.corpus_hash())
    refit = training.as_json(fitted, len(y), training.accuracy(fitted, x, y))
    assert training.same_fit(refit, meaning.WEIGHTS.read_text()), "run scripts/train_offline_model.py"


def test_weights_are_the_same_fit_up_to_the_last_digit_a_cpu_rounds():
    written = meaning.WEIGHTS.read_text()
    data = json.loads(written)
    data["weights"]["cosine"] += 2e-6  # a last digit another CPU's floating point rounds otherwise
    assert training.same_fit(json.dumps(data), written)
    data["weights"]["cosine"] += 1e-3
    assert not training.same_fit(json.dumps(data), written)
    data = json.loads(written) | {"corpus_sha256": "0" * 64}
    assert not training.same_fit(json.dumps(data), written)


def test_a_changed_corpus_makes_the_stamp_stale(tmp_path):
    corpus = json.loads(training.CORPUS.read_text())
    corpus["requests"].append({"text": "One more request.", "language": "en", "tool": None})
    changed = tmp_path / "corpus.json"
    changed.write_text(json.dumps(corpus))
    assert training.corpus_hash(changed) != training.corpus_hash()


def test_the_corpus_shares_no_four_word_phrase_with_bfcl_or_the_eval_set():
    ours = set().union(*(phrases(item["text"]) for item in training.load_corpus()["requests"]))
    assert ours
    assert not ours & set().union(*(phrases(t) for t in user_texts(bfcl_cases())))
    assert not ours & set().union(*(phrases(t) for t in user_texts(bilingual_eval.load())))


def test_the_fit_is_a_logistic_regression_that_separates_what_it_can():
    x = np.array([[0.9, 0.3, 0, 0, -0.1, 0, 1], [0.1, -0.3, 0, 0, 0.2, 0, 0]] * 5)
    y = np.array([1.0, 0.0] * 5)
    fitted = training.fit(x, y, np.zeros(513))
    assert training.accuracy(fitted, x, y) == 1.0
    with pytest.raises(ValueError, match="as many labels"):
        training.fit(x, y[:3], np.zeros(513))


def test_a_chinese_request_finds_a_tool_described_in_english():
    assert called("找几个关于咖啡的视频素材", [CLIPS, TRACKS]) == ["find_clips"]
    assert called("给视频配一段轻松的背景音乐", [CLIPS, TRACKS]) == ["find_tracks"]


def test_meaning_does_not_override_what_words_decided_or_small_talk():
    assert called("谢谢，就这样吧", [CLIPS, TRACKS]) == []
    assert called("不要找视频", [CLIPS, TRACKS]) == []
    assert called("What is the capital of Peru?", [LAMP]) == []


def test_explain_shows_the_features_and_weights_behind_the_choice():
    body = {
        "model": "wirelab-offline",
        "messages": [{"role": "user", "content": "找几个咖啡的视频"}],
        "tools": [CLIPS, TRACKS],
    }
    steps = {step["stage"]: step for step in explain(body)["stages"]}
    by_meaning = steps["select by meaning"]
    assert by_meaning["decision"] == "find_clips" and by_meaning["weights"] == meaning.weights().weights
    best = max(by_meaning["tools"], key=lambda row: row["probability"])
    assert best["tool"] == "find_clips" and set(best["features"]) == set(meaning.NAMES)
    assert [call["name"] for call in steps["calls"]["decision"]] == ["find_clips"]


def test_a_yes_no_question_that_asks_a_or_not_a_is_no_negation():
    """要不要 (want or not), 是不是, 有没有 ask a question; 不要 on its own, 先别, "don't" negate."""
    questions = ["周末要不要带外套？", "明早是不是该加油了", "楼下有没有快递柜"]
    assert not any(meaning.negates(t) for t in questions)
    assert all(meaning.negates(t) for t in ["不要带外套", "先别加油", "Don't fill the tank yet."])


KIOSK = [
    model_tool(
        f"{verb}_{thing}",
        f"{verb.title()} a {thing} in the user's account.",
        {f"{thing}_id": {"type": "string"}, "when": {"type": "string", "description": "A date."}},
        (f"{thing}_id",),
    )
    for verb, thing in [("cancel", "order"), ("renew", "licence"), ("track", "parcel"), ("rate", "driver")]
]
STORY = [
    "Yesterday I walked from the harbour to the market and bought 3 oranges for 2 euros.",
    "帮我查一下包裹 SF1234567 到哪了",
    "The last train on 2024-05-06 was 25 minutes late, as usual.",
]


def counting_binds(monkeypatch) -> list:
    """The tools `meaning` binds the request's frames for (`fills`), in order, from now on."""
    bound = []
    monkeypatch.setattr(
        meaning, "bind_calls", lambda tool, *rest: bound.append(tool) or bind_calls(tool, *rest)
    )
    return bound


@pytest.mark.parametrize("text", STORY)
def test_fills_is_bound_only_where_it_could_lift_a_tool_to_the_lowest_bar(text, monkeypatch):
    """`fills` binds the request's frames, the dearest feature: given the weights, `features` works
    it out only for a tool it could lift to `AMONG`. Every choice and every probability that could
    reach a bar stays what binding all of them gives."""
    fitted = meaning.weights()
    thorough = meaning.features(text, tuple(KIOSK), selection.own_points, fitted.probe)
    bound = counting_binds(monkeypatch)
    lazy = meaning.features(text, tuple(KIOSK), selection.own_points, fitted.probe, fitted)
    for full, row in zip(thorough, lazy, strict=True):
        if fitted.probability(full) >= meaning.AMONG or row["fills"]:
            assert row == full
        else:
            assert fitted.probability(row) <= fitted.probability(full) < meaning.AMONG
    assert len(bound) == sum(fitted.probability(row | {"fills": 1.0}) >= meaning.AMONG for row in lazy)


def test_a_paragraph_to_several_tools_binds_fewer_frames_than_pieces_times_tools(monkeypatch):
    """A paragraph that names no tool: meaning reads it piece by piece against every tool, and
    binds frames only for the tools that could reach the bar (benchmarks/offline_model_worst_case.py
    measures what that saves)."""
    bound = counting_binds(monkeypatch)
    text = " ".join(STORY[::2] * 4)
    called(text, [tool(t.name, t.description, t.parameters["properties"], ("when",)) for t in KIOSK])
    assert 0 < len(bound) < len(KIOSK) * len(STORY[::2] * 4)
