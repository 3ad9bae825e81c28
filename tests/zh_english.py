"""Find English sentences in text the Chinese edition shows, allowing code and identifiers.

    english_sentences("✓ ask 发送一条 user 消息")                 # []
    english_sentences("3 of 3 checks pass in the saved file")    # ['checks pass in the saved file']

What counts as code and is skipped: `backticks`, quoted strings ('…', "…", “…”), URLs, JSON
objects and lists, any token with a digit or one of _ . / ( ) = : < > # @ (get_weather,
tools/call, ask(llm, …)), hyphenated names (Mcp-Session-Id) and options (-m). What is left is
English when three or more words of letters follow one another. ALLOWED holds names that stay
English in Chinese text (Chat Completions…).
"""

from __future__ import annotations

import re

ALLOWED = (
    "Chat Completions",
    "Streamable HTTP",
    "MCP Inspector",
    "Rug Pull",
    "JSON Schema",
    "Model Studio",
    "Models & Pricing",
    "OpenAI API",
    "Python 3 (ipykernel)",
)
CODE = re.compile(
    r"`[^`\n]*`|'[^'\n]*'|\"[^\"\n]*\"|“[^”\n]*”|https?://\S+|\{[^{}\n]*\}|\[[^\[\]\n]*\]"
    r"|[!-~]*[\d_./()=:<>#@\\\\][!-~]*|[!-~]*[A-Za-z]-[A-Za-z][!-~]*|(?<![!-~])--?[A-Za-z][!-~]*"
)
SENTENCE = re.compile(r"[A-Za-z][a-z]+(?:[ ,;-]+[A-Za-z][a-z]*){2,}")


def english_sentences(text: str) -> list[str]:
    """The runs of three or more English words left once code and allowed names are removed."""
    for name in ALLOWED:
        text = text.replace(name, " ")
    previous = None
    while previous != text:  # nested quotes and brackets: peel until nothing changes
        previous, text = text, CODE.sub(" ", text)
    return [match.group(0) for match in SENTENCE.finditer(text)]
