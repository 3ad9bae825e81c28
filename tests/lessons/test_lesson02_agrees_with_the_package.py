"""The loop lesson 02 builds by hand and the package's `run_tool_loop` agree."""

from pathlib import Path

import pytest

from tests.notebook_code import load_references
from wirelab.check.lesson01 import TOOLS
from wirelab.check.lesson02 import FUNCTIONS, REGISTRY
from wirelab.llm import client, model_name
from wirelab.loop import accumulate_stream, run_tool_loop

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "02_the_six_step_loop.ipynb"


def lesson_function(name: str, reference: str):
    """The lesson's function `name`, from its cells marked `# @reference <reference>`."""
    return load_references(NOTEBOOK, reference)[name]


@pytest.mark.parametrize(
    "question",
    [
        "What is the weather in Paris and the time in Tokyo?",
        "What time is it in Lima?",
        "Tell me a joke",
    ],
)
def test_the_lessons_loop_and_the_packages_loop_give_the_same_conversation(question):
    llm = client()
    messages = [{"role": "user", "content": question}]
    answer, history = lesson_function("run_loop", "wirelab.loop.run_tool_loop")(
        llm, messages, TOOLS, FUNCTIONS, model=model_name()
    )
    reference = run_tool_loop(llm, messages, REGISTRY, model=model_name())
    assert answer == reference.answer
    assert history == reference.messages


def test_the_lessons_stream_accumulator_and_the_packages_agree():
    llm = client()
    chunks = list(
        llm.chat.completions.create(
            model=model_name(),
            tools=TOOLS,
            stream=True,
            messages=[{"role": "user", "content": "What is the weather in Paris and the time in Tokyo?"}],
        )
    )
    mine = lesson_function("accumulate", "wirelab.loop.accumulate_stream")(chunks)
    reference = accumulate_stream(chunks)["tool_calls"]
    assert [(c["id"], c["name"], c["arguments"]) for c in mine] == [
        (c["id"], c["function"]["name"], c["function"]["arguments"]) for c in reference
    ]
