"""The model's work grows linearly with a message's pieces, counted, not timed: the characters its
value extraction reads for a message of 80 sentences are about twice those for 40. Reading a
growing text again for every piece (as 69cf860's merge of a tool's neighbouring pieces did) makes
it four times, and a 4,000-character message cost 2.4 s of CPU instead of 0.1."""

from __future__ import annotations

import sys

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete, extraction
from wirelab.offline_model.evidence import Words

WEATHER = tool("get_weather", "Weather for a city.", {"city": {"type": "string"}}, ("city",))


def characters_read(monkeypatch, sentences: int) -> int:
    """What `extraction.extract` reads, summed over every call, for one request (no piece of it
    read before: the cache of pieces' values is emptied)."""
    read: list[int] = []
    Words.of.cache_clear()
    original = extraction.extract

    def counted(text, tokens=None):
        read.append(len(text))
        return original(text, tokens)

    for name, module in list(sys.modules.items()):
        if name.startswith("wirelab.offline_model") and getattr(module, "extract", None) is original:
            monkeypatch.setattr(module, "extract", counted)
    text = "What is the weather in Paris? " * sentences
    complete(
        {"model": "wirelab-offline", "messages": [{"role": "user", "content": text}], "tools": [WEATHER]}
    )
    monkeypatch.undo()
    return sum(read)


def test_twice_the_sentences_is_about_twice_the_reading(monkeypatch):
    forty, eighty = characters_read(monkeypatch, 40), characters_read(monkeypatch, 80)
    assert forty > 0
    assert eighty / forty < 2.5, f"40 sentences read {forty} characters, 80 read {eighty}"  # linear: 2
