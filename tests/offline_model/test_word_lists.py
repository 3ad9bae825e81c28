"""The offline model keeps its word lists in data files, not in code (issue 22: no list of more
than five words stays in code).

A literal set, list or tuple of more than five strings in `wirelab/offline_model/` may hold only
punctuation, JSON Schema's own vocabulary (keywords, types, formats) or the model's names for the
kinds of value it reads; words of English or Chinese belong in `data/lexicon.txt` or
`data/verbs.txt`, where a reader finds every list in one place. A regular expression is code
too: an alternation of more than five words in one (`today|tonight|tomorrow|...`) is a word list.
"""

from __future__ import annotations

import ast
import re
import re._constants as sre
import re._parser as sre_parse
import unicodedata
from pathlib import Path

from jsonschema import Draft202012Validator, FormatChecker

from wirelab.offline_model.fit import ACCEPTS

PACKAGE = Path(__file__).resolve().parents[2] / "wirelab" / "offline_model"
LONGEST = 5
SCHEMA_WORDS = (
    set(Draft202012Validator.VALIDATORS)
    | {"type", "properties", "items", "description", "title", "default", "definitions"}
    | {"$defs", "$ref", "$schema", "array", "boolean", "integer", "null", "number", "object", "string"}
    | set(FormatChecker.checkers)
    | {"url"}
)
VALUE_KINDS = set(ACCEPTS) | {kind for kinds in ACCEPTS.values() for kind in kinds} | {"enum", "unit"}


def _punctuation(text: str) -> bool:
    return all(unicodedata.category(ch).startswith("P") or ch in "=&" for ch in text)


def _word_lists(path: Path) -> list[tuple[int, list[str]]]:
    """Every literal collection of more than `LONGEST` strings in `path` that holds a word."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exports = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["__all__"]
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Set | ast.List | ast.Tuple) or id(node) in exports:
            continue
        strings = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        words = [s for s in strings if not _punctuation(s) and s not in SCHEMA_WORDS | VALUE_KINDS]
        if len(strings) > LONGEST and words:
            found.append((node.lineno, words))
    return found


def _literal(items: list) -> str | None:
    """The text an alternative of a parsed pattern spells (optional parts included), or None
    when it matches a class of characters, a wildcard or a repetition."""
    text = []
    for op, arg in items:
        if op is sre.LITERAL:
            text.append(chr(arg))
        elif op is sre.SUBPATTERN:
            text.append(_literal(arg[-1]))
        elif op is sre.MAX_REPEAT and arg[1] == 1:  # an optional part: "jan(?:uary)?"
            text.append(_literal(arg[2]))
        elif op is sre.BRANCH:
            text.append(_literal(arg[1][0]))
        elif op is not sre.AT:
            return None
    return None if None in text else "".join(text)


def _alternations(items: list) -> list[list[str]]:
    """The words of each alternation in a parsed pattern that holds more than `LONGEST` of them."""
    found = []
    for op, arg in items:
        if op is sre.BRANCH:
            words = [w for w in map(_literal, arg[1]) if w and any(ch.isalpha() for ch in w)]
            found += [words] if len(words) > LONGEST else []
            found += [w for branch in arg[1] for w in _alternations(branch)]
        elif op is sre.SUBPATTERN:
            found += _alternations(arg[-1])
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            found += _alternations(arg[2])
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            found += _alternations(arg[1])
    return found


def _regex_word_lists(path: Path) -> list[tuple[int, list[str]]]:
    """Every alternation of more than `LONGEST` words in a string of `path` that is a pattern."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "|" in node.value:
            try:
                pattern = sre_parse.parse(node.value)
            except re.error:
                continue
            found += [(node.lineno, words) for words in _alternations(list(pattern))]
    return found


def test_no_word_list_of_more_than_five_words_stays_in_code() -> None:
    lists = [
        f"{path.relative_to(PACKAGE)}:{line}: {words[:6]}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, words in _word_lists(path) + _regex_word_lists(path)
    ]
    assert not lists, "word lists in code; move them to a section of data/lexicon.txt:\n" + "\n".join(lists)


def test_the_check_finds_a_word_list(tmp_path: Path) -> None:
    hedges = ["around", "about", "roughly", "nearly", "almost", "exactly"]
    code = tmp_path / "m.py"
    code.write_text(f"HEDGES = {set(hedges)!r}\n", encoding="utf-8")
    assert sorted(_word_lists(code)[0][1]) == sorted(hedges)
    marks = 'MARKS = {",", ";", "?", "!", "，", "。"}\n'
    kinds = 'KINDS = ("enum", "array", "object", "boolean", "integer", "number")\n'
    exports = '__all__ = ["FAULTS", "MODEL_ID", "complete", "explain", "serve", "stream"]\n'
    code.write_text(marks + kinds + exports, encoding="utf-8")
    assert _word_lists(code) == []


def test_the_check_finds_a_word_list_in_a_pattern(tmp_path: Path) -> None:
    code = tmp_path / "m.py"
    code.write_text(
        'DAYS = re.compile(r"\\b(?:today|tonight|tomorrow|now|yesterday|soon)\\b")\n', encoding="utf-8"
    )
    assert _regex_word_lists(code) == [(1, ["today", "tonight", "tomorrow", "now", "yesterday", "soon"])]
    code.write_text(
        'M = r"(?P<m>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?)"\n', encoding="utf-8"
    )
    assert _regex_word_lists(code)[0][1] == ["january", "february", "march", "april", "may", "june"]
    marks = 'SPLIT = r",|;|、|，|\\band\\b|\\bor\\b"\nKIND = r"\\d+|[a-z]+|[A-Z]{2}|\\w+@\\w+|x|y"\n'
    code.write_text(marks, encoding="utf-8")
    assert _regex_word_lists(code) == []
