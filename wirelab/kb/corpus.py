"""Load the knowledge-base documents and cut them into chunks with stable ids.

A document is a Markdown file that opens with a small header between `---` lines::

    ---
    id: mcp-tools
    title: Tools in MCP
    tags: [mcp, tools]
    ---

Only `key: value` lines are understood (this is not YAML). Chunks follow the document's
`## ` headings: the text before the first heading is chunk 0, each section the next number,
and a section longer than `max_words` is split between paragraphs. Ids look like
`mcp-tools#3` and stay the same as long as the file does.

There are two corpora: English (`assets/kb`) and Chinese (`assets/kb/zh`), each with its eval
set. Without a folder, `load_documents()` reads the one in the notebook's language
(`wirelab.edition.language`): the Chinese corpus in notebooks/zh, solutions/zh and labs/zh,
or with WIRELAB_LANG=zh; the English one everywhere else.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from pathlib import Path

from wirelab import edition

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "assets" / "kb"
CORPORA = {"en": DEFAULT_CORPUS, "zh": DEFAULT_CORPUS / "zh"}  # each folder holds its eval.json
REQUIRED_FIELDS = ("id", "title")
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class CorpusError(ValueError):
    """A document cannot be read: bad header, missing field, duplicate id."""


@dataclass(frozen=True)
class Document:
    """One source document: its header fields and its Markdown body."""

    id: str
    title: str
    tags: tuple[str, ...]
    body: str
    source: str


@dataclass(frozen=True)
class Chunk:
    """A passage of a document, the unit that is indexed, ranked and cited."""

    id: str
    doc_id: str
    index: int
    heading: str
    text: str

    def search_text(self, title: str) -> str:
        """The text the indexes see: document title and heading give the passage context."""
        return f"{title}. {self.heading}. {self.text}"


def parse_header(text: str, source: str) -> tuple[dict[str, str], str]:
    """Split `text` into its header fields and body; `source` names the file in errors."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise CorpusError(f"{source}: a document must open with a '---' header line")
    try:
        end = next(i for i, line in enumerate(lines[1:], 1) if line.strip() == "---")
    except StopIteration:
        raise CorpusError(f"{source}: the header has no closing '---' line") from None
    fields = {}
    for line in lines[1:end]:
        key, colon, value = line.partition(":")
        if not colon:
            raise CorpusError(f"{source}: header line {line!r} is not 'key: value'")
        fields[key.strip()] = value.strip()
    return fields, "\n".join(lines[end + 1 :]).strip()


def parse_tags(value: str) -> tuple[str, ...]:
    """`'[a, b]'` or `'a, b'` -> `('a', 'b')`."""
    return tuple(tag.strip() for tag in value.strip("[]").split(",") if tag.strip())


def parse_document(text: str, source: str = "<string>") -> Document:
    """Read one document; raise `CorpusError` naming `source` if the header is wrong."""
    fields, body = parse_header(text, source)
    missing = [name for name in REQUIRED_FIELDS if not fields.get(name)]
    if missing:
        raise CorpusError(f"{source}: the header lacks {', '.join(missing)}")
    if not ID_PATTERN.match(fields["id"]):
        raise CorpusError(f"{source}: id {fields['id']!r} must be lowercase letters, digits, '-'")
    tags = parse_tags(fields.get("tags", ""))
    return Document(fields["id"], fields["title"], tags, body, source)


def load_documents(folder: Path | None = None) -> list[Document]:
    """Every `*.md` file in `folder` (default: `default_corpus()`), sorted by id; ids must be unique."""
    folder = default_corpus() if folder is None else Path(folder)
    paths = sorted(folder.glob("*.md"))
    if not paths:
        raise CorpusError(f"{folder}: no *.md documents found")
    documents = [parse_document(path.read_text(encoding="utf-8"), str(path)) for path in paths]
    seen: dict[str, str] = {}
    for doc in documents:
        if doc.id in seen:
            raise CorpusError(f"duplicate id {doc.id!r} in {seen[doc.id]} and {doc.source}")
        seen[doc.id] = doc.source
    return sorted(documents, key=lambda doc: doc.id)


def corpus_folder(language: str) -> Path:
    """The folder of the corpus in `language`: `corpus_folder("zh")` -> assets/kb/zh."""
    if language not in CORPORA:
        raise CorpusError(f"no corpus in {language!r}; languages: {', '.join(CORPORA)}")
    return CORPORA[language]


def default_corpus() -> Path:
    """The corpus in the notebook's language: assets/kb/zh in the Chinese edition, else assets/kb."""
    return corpus_folder(edition.language())


def sections(body: str) -> list[tuple[str, str]]:
    """`(heading, text)` pairs; the text before the first `## ` heading gets the `# ` title."""
    found: list[tuple[str, list[str]]] = [("", [])]
    for line in body.splitlines():
        if line.startswith("## "):
            found.append((line[3:].strip(), []))
        elif line.startswith("# ") and not found[0][0]:
            found[0] = (line[2:].strip(), found[0][1])
        else:
            found[-1][1].append(line)
    pairs = [(heading, "\n".join(lines).strip()) for heading, lines in found]
    return [(heading, text) for heading, text in pairs if text]


def split_paragraphs(text: str, max_words: int) -> list[str]:
    """Group whole paragraphs into pieces of at most `max_words` words (a longer one stays whole)."""
    pieces: list[list[str]] = [[]]
    for paragraph in re.split(r"\n\s*\n", text):
        size = sum(len(p.split()) for p in pieces[-1])
        if pieces[-1] and size + len(paragraph.split()) > max_words:
            pieces.append([])
        pieces[-1].append(" ".join(paragraph.split()))
    return ["\n\n".join(piece) for piece in pieces]


def chunk_document(doc: Document, max_words: int = 160) -> list[Chunk]:
    """Cut `doc` into chunks numbered from 0 in reading order."""
    texts = [
        (heading, piece)
        for heading, text in sections(doc.body)
        for piece in split_paragraphs(text, max_words)
    ]
    return [Chunk(f"{doc.id}#{i}", doc.id, i, heading, text) for i, (heading, text) in enumerate(texts)]


@dataclass(frozen=True)
class SearchHit:
    """One ranked chunk; `score` is the method's own (BM25, cosine, RRF or rerank)."""

    rank: int
    chunk_id: str
    doc_id: str
    title: str
    heading: str
    text: str
    score: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)
