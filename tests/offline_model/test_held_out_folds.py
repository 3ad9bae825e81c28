"""scripts/train_offline_model.py --folds: each fifth of the corpus decided by weights fitted without it."""

import importlib.util
from collections import Counter
from pathlib import Path

import numpy as np

from wirelab.offline_model import meaning, training

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_offline_model.py"
spec = importlib.util.spec_from_file_location("train_offline_model", SCRIPT)
train = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train)


def test_an_offer_is_right_when_it_calls_the_wanted_tool_or_none_when_none_is_wanted():
    assert train.verdict(np.array([0.1, 0.9]), np.array([0.0, 1.0]), True) == "right"
    assert train.verdict(np.array([0.1, 0.15]), np.array([0.0, 0.0]), True) == "right"
    assert train.verdict(np.array([0.1, 0.6]), np.array([0.0, 0.0]), True) == "called where none was wanted"
    assert train.verdict(np.array([0.1, 0.15]), np.array([0.0, 1.0]), True) == "called none where one was"
    assert train.verdict(np.array([0.7, 0.4]), np.array([0.0, 1.0]), True) == "called another tool"


def test_each_fold_is_decided_by_weights_fitted_without_it(monkeypatch):
    """Ten requests, each offered one tool, two to a fold; a feature per fold says which fold a row
    is in, and only the first fold's requests want the tool. Fitted without a fold, the weights know
    nothing of its feature: the first fold's two offers call none, the other eight are right. A fit
    that saw the fold it decides would get all ten right."""
    requests = [{"text": f"request {k}", "tool": "lamp" if k % 5 == 0 else None} for k in range(10)]
    offered = [(item["text"], (object(),), item["tool"]) for item in requests]
    monkeypatch.setattr(training, "offers", lambda corpus: iter(offered))
    monkeypatch.setattr(meaning, "NAMES", ("cosine", "margin", "lexical", "negated", "chatter"))
    x = np.eye(5)[[k % 5 for k in range(10)]]
    y = np.array([float(k % 5 == 0) for k in range(10)])
    decided = train.held_out({"requests": requests}, x, y)
    assert Counter(train.verdict(*offer) for offer in decided) == {
        "right": 8,
        "called none where one was": 2,
    }
    assert train.report(decided).startswith("held out, 5 folds: 8 of 10 offers right; 0 called where")


def test_among_several_tools_the_lower_bar_chooses_for_a_request_wanting_one():
    """A tool offered alone needs `meaning.CHOOSE`; among several, `meaning.AMONG` is enough when
    the `chatter` probe reads the request as wanting a tool."""
    assert meaning.AMONG < 0.3 < meaning.CHOOSE
    assert train.verdict(np.array([0.3]), np.array([1.0]), True) == "called none where one was"
    assert train.verdict(np.array([0.3, 0.01]), np.array([1.0, 0.0]), True) == "right"
    assert train.verdict(np.array([0.3, 0.01]), np.array([1.0, 0.0]), False) == "called none where one was"
    assert (
        train.verdict(np.array([0.3, 0.01]), np.array([1.0, 0.0]), True, 0.5) == "called none where one was"
    )
