"""The lessons' example MCP server: a small library of course notes.

Run it on stdio, for any MCP host (Claude Desktop, MCP Inspector, the SDK):

    python -m wirelab.mcp.example

What it offers (each note has a slug such as `json-rpc`):

- tools: `search_notes` (text), `add_note` (changes a resource),
  `note_stats` (`outputSchema` + `structuredContent`), `rebuild_index`
  (reports progress, takes a while, can be cancelled);
- resources: `notes://index` (static), `notes://note/{slug}` (a template);
- prompts: `summarize_note` (its `slug` completes) and `quiz_me`.

The notes live in memory: each `build_server()` starts from the same few.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from dataclasses import dataclass, field
from typing import TypedDict

from wirelab.errors import ToolError
from wirelab.mcp.server import Context, Server
from wirelab.mcp.transports.stdio import run_stdio

MAX_PASSES = 50  # about 5 s of work


@dataclass
class Note:
    title: str
    body: str
    tags: list[str] = field(default_factory=list)


def starter_notes() -> dict[str, Note]:
    return {
        "json-rpc": Note(
            "JSON-RPC 2.0",
            "A request has an id and gets exactly one response; "
            "a notification has no id and is never answered.",
            ["protocol"],
        ),
        "stdio": Note(
            "The stdio transport",
            "One JSON message per line on stdin and stdout; logs go to stderr, never stdout.",
            ["transport"],
        ),
        "lifecycle": Note(
            "The MCP lifecycle",
            "initialize, then notifications/initialized, "
            "then normal operation; EOF on stdin ends a stdio server.",
            ["protocol"],
        ),
        "tool-errors": Note(
            "Errors are results",
            "A tool that fails answers isError: true so the model can read the error and correct its call.",
            ["tools"],
        ),
    }


class NoteStats(TypedDict):
    """Counts over the whole library.

    Args:
        notes: How many notes there are.
        words: How many words their bodies hold.
        tags: Every tag in use, sorted.
    """

    notes: int
    words: int
    tags: list[str]


def build_server() -> Server:
    """A fresh notes server with the starter notes."""
    notes = starter_notes()
    server = Server(
        "wirelab-notes",
        "0.1.0",
        title="Course notes",
        instructions="Search the course notes before answering questions about MCP.",
    )
    _add_tools(server, notes)
    _add_resources(server, notes)
    _add_prompts(server, notes)
    return server


def _add_tools(server: Server, notes: dict[str, Note]) -> None:
    @server.tool()
    def search_notes(query: str, limit: int = 3) -> str:
        """Find course notes whose title or text contains every word of the query.

        Args:
            query: Words to look for, e.g. "stdio logs".
            limit: The most notes to return.
        """
        words = query.lower().split()
        found = [
            f"{slug}: {note.title}"
            for slug, note in notes.items()
            if all(w in f"{note.title} {note.body}".lower() for w in words)
        ]
        return "\n".join(found[:limit]) or f"No note matches {query!r}."

    @server.tool()
    def add_note(slug: str, title: str, body: str, tags: list[str] | None = None) -> str:
        """Add a note to the library (subscribers of notes://index are told).

        Args:
            slug: Short lowercase id with dashes, e.g. "progress-tokens".
            title: The note's title.
            body: The note's text.
            tags: Topics, e.g. ["protocol"].
        """
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug):
            raise ToolError(
                "invalid_slug",
                f"{slug!r} is not a slug",
                suggestion="Use lowercase letters, digits and dashes, e.g. 'my-note'.",
            )
        if slug in notes:
            raise ToolError(
                "duplicate_slug", f"a note {slug!r} exists already", suggestion="Choose another slug."
            )
        notes[slug] = Note(title, body, tags or [])
        server.resource_updated("notes://index")
        return f"Added notes://note/{slug}"

    @server.tool()
    def note_stats() -> NoteStats:
        """Count the notes, their words and their tags."""
        tags = sorted({tag for note in notes.values() for tag in note.tags})
        words = sum(len(note.body.split()) for note in notes.values())
        return NoteStats(notes=len(notes), words=words, tags=tags)

    @server.tool()
    async def rebuild_index(ctx: Context, passes: int = 3) -> str:
        """Rebuild the search index, reporting progress after each pass (about 0.1 s a pass).

        Args:
            passes: How many passes to make.
        """
        for done in range(1, passes + 1):
            await asyncio.sleep(0.1)
            ctx.report_progress(done, passes, f"pass {done} of {passes}")
        ctx.log("info", f"index rebuilt over {len(notes)} notes", logger="notes")
        return f"Index rebuilt in {passes} passes."

    # a bound in the schema: a call for 10**9 passes is an isError result, not hours of work
    server.tools["rebuild_index"].input_schema["properties"]["passes"].update(minimum=1, maximum=MAX_PASSES)


def _add_resources(server: Server, notes: dict[str, Note]) -> None:
    @server.resource("notes://index", name="index", mime_type="text/markdown")
    def index() -> str:
        """Every note: its slug and its title."""
        return "\n".join(f"- {slug}: {note.title}" for slug, note in notes.items())

    @server.resource_template("notes://note/{slug}", name="note", mime_type="text/markdown")
    def note(slug: str) -> str:
        """One note as Markdown."""
        found = notes[slug]  # KeyError (a LookupError) means: no such resource
        return f"# {found.title}\n\n{found.body}\n\nTags: {', '.join(found.tags) or 'none'}"

    @server.completion("notes://note/{slug}", "slug")
    def complete_template_slug(prefix: str) -> list[str]:
        return [slug for slug in notes if slug.startswith(prefix)]


def _add_prompts(server: Server, notes: dict[str, Note]) -> None:
    @server.prompt()
    def summarize_note(slug: str) -> str:
        """Ask for a two-sentence summary of one note.

        Args:
            slug: The note to summarize, e.g. "stdio".
        """
        found = notes[slug]
        return f"Summarize this course note in two sentences.\n\n# {found.title}\n\n{found.body}"

    @server.completion("summarize_note", "slug")
    def complete_prompt_slug(prefix: str) -> list[str]:
        return [slug for slug in notes if slug.startswith(prefix)]

    @server.prompt()
    def quiz_me(topic: str, questions: str = "3") -> list[tuple[str, str]]:
        """Start a short quiz on a topic of the course.

        Args:
            topic: What to be quizzed on, e.g. "JSON-RPC ids".
            questions: How many questions to ask.
        """
        return [
            ("user", f"Quiz me on {topic}: ask {questions} questions, one at a time."),
            ("assistant", f"Question 1 on {topic}, coming up. Ready?"),
        ]


def main() -> None:
    """Serve the notes on stdio; logs go to stderr."""
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    run_stdio(build_server())


if __name__ == "__main__":
    main()
