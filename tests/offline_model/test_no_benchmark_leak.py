"""The offline model names no benchmark: no BFCL function, id or phrase, nothing of the eval set.

The model must improve by general understanding (issue 11). This scans every
text file under wirelab/offline_model/ for
- function names of two or more words from BFCL's cases and from the course's
  eval set (as written, or with dots as `_`), matched as whole identifiers;
- BFCL case ids (`simple_python_12`, `live_multiple_3-1-0`);
- phrases of their user messages: runs of four English content words (stop
  words, JSON Schema keywords, numbers and words under three letters dropped,
  so a phrase of five words or more) and runs of six Chinese characters
  between punctuation.
What the course itself teaches with (the cells of its notebooks and solutions,
and the rest of the wirelab package: "send_email", "book a hotel room in") is
its own vocabulary, shared with BFCL by coincidence, and is not counted;
notebook outputs are not read, since lesson 03 prints BFCL cases.
"""

import json
import re
import sys
from functools import cache
from pathlib import Path

from wirelab import bfcl, bilingual_eval

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "wirelab" / "offline_model"
COURSE = (ROOT / "notebooks", ROOT / "solutions", ROOT / "wirelab")
TEXT_SUFFIXES = {".py", ".json", ".txt", ".md", ".ipynb", ".yaml", ".yml", ".csv", ".tsv"}
GENERIC_NAMES = {"chat_completions"}  # the OpenAI endpoint's own name
_GENERIC = """
    a an the of to in on at for from by with and or but not no nor is are was were be been being am do
    does did done have has had i me my mine you your yours we us our he him his she her they them their
    it its this that these those what which who whom whose how when where why can could would should
    will shall may might must please some any all each every about as into onto than then there here if
    so up down out over just also get got set let let's what's it's i'm i'd i'll i've don't doesn't
    didn't can't won't isn't aren't that's there's you're we're they're type string number integer
    boolean object array enum items properties required description name function parameters default
    null true false
"""  # stop words, contractions and JSON Schema's keywords
GENERIC_WORDS = frozenset(_GENERIC.split())
WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
IDENTIFIER = re.compile(r"[A-Za-z_][\w.]*")
CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
BFCL_ID = re.compile(
    r"\b(?:simple_python|parallel_multiple|parallel|multiple|irrelevance|live_simple|live_multiple"
    r"|live_irrelevance|live_parallel(?:_multiple)?|live_relevance)_\d+(?:-\d+-\d+)?\b"
)


def english_phrases(text: str, size: int = 4) -> set[tuple[str, ...]]:
    """Runs of `size` content words: generic words, numbers and words under three letters dropped."""
    words = [
        w for w in WORD.findall(text.lower()) if len(w) > 2 and w not in GENERIC_WORDS and not w.isdigit()
    ]
    return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}


def chinese_phrases(text: str, size: int = 6) -> set[str]:
    return {run[i : i + size] for run in CJK_RUN.findall(text) for i in range(len(run) - size + 1)}


def phrases(text: str) -> set:
    return english_phrases(text) | chinese_phrases(text)


def identifiers(text: str) -> set[str]:
    found = {token.lower().strip(".") for token in IDENTIFIER.findall(text)}
    return found | {token.replace(".", "_") for token in found}


def multiword(name: str) -> bool:
    return len([part for part in re.split(r"[._]|(?<=[a-z])(?=[A-Z])", name) if part]) >= 2


def read_texts(folder: Path, skip: Path | None = None) -> str:
    files = (p for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix in TEXT_SUFFIXES)
    return "\n".join(read_text(p) for p in files if not (skip and skip in p.parents))


def read_text(path: Path) -> str:
    """A file's text; of a notebook only what its cells say, not what they printed (BFCL cases)."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return "\n".join("".join(cell["source"]) for cell in cells)
    return path.read_text(encoding="utf-8", errors="ignore")


@cache
def model_text() -> str:
    return read_texts(MODEL)


@cache
def course_text() -> str:
    return "\n".join(read_texts(folder, skip=MODEL) for folder in COURSE)


def user_texts(cases) -> list[str]:
    return [
        m["content"]
        for case in cases
        for m in case.messages
        if m["role"] == "user" and isinstance(m["content"], str)
    ]


@cache
def bfcl_cases():
    return [case for category in bfcl.CATEGORIES for case in bfcl.load(category)]


def leaked_names(names: set[str]) -> set[str]:
    wanted = {n.lower() for n in names if multiword(n)} | {
        n.replace(".", "_").lower() for n in names if multiword(n)
    }
    return (wanted & identifiers(model_text())) - identifiers(course_text()) - GENERIC_NAMES


def leaked_phrases(texts: list[str]) -> set:
    benchmark = set().union(*(phrases(text) for text in texts))
    return (benchmark & phrases(model_text())) - phrases(course_text())


def test_the_scan_reads_the_model_source():
    assert "def " in model_text() and len(model_text()) > 10_000


def test_no_bfcl_function_name_is_in_the_model():
    names = {doc["name"] for case in bfcl_cases() for doc in case.functions}
    assert not leaked_names(names)


def test_no_bfcl_case_id_is_in_the_model():
    assert not BFCL_ID.findall(model_text())


def test_no_bfcl_phrase_is_in_the_model():
    assert not leaked_phrases(user_texts(bfcl_cases()))


def test_no_eval_set_tool_name_or_phrase_is_in_the_model():
    cases = bilingual_eval.load()
    assert not leaked_names({tool["function"]["name"] for case in cases for tool in case.tools})
    assert not leaked_phrases(user_texts(cases))


def test_the_scan_would_catch_a_leak(monkeypatch):
    """The detectors fire on planted copies (and ignore generic text), so a pass means something."""
    case = next(c for c in bilingual_eval.load() if c.id == "lists-en-03")
    bfcl_case = bfcl.load("simple_python")[0]
    planted = (
        f"# {user_texts([case])[0]}\nRULES = ['{bfcl_case.functions[0]['name']}', '{bfcl_case.id}']\n"
        f"# {user_texts([bfcl_case])[0]}\n# 帮我把苹果、香蕉和酸奶加到购物清单里\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "model_text", lambda: planted)
    assert leaked_phrases(user_texts([case]))
    assert leaked_phrases(user_texts([bfcl_case]))
    assert leaked_names({bfcl_case.functions[0]["name"]})
    assert BFCL_ID.findall(model_text())
    assert leaked_phrases(["帮我把苹果、香蕉和酸奶加到购物清单里。"])
    assert not english_phrases("What is the type of this string, and is it required? Yes, it is.")
