"""Static views of the widgets' state: an HTML table and a plain-text table.

Where no widget can render (GitHub, nbconvert HTML, nbval's stored outputs)
the notebook still shows the traffic and the loop's steps through these.
Output is deterministic for the same traffic except latencies, written as
"3.2 ms" so the course's nbval sanitizer masks them; in the text table the
latency is the last column, so masking it leaves the alignment unchanged.

    print(traffic_text(log.rows()))
    #  #  direction      kind      method  id  status  summary  latency
    #  0  client→server  request   ping    1           {}
    #  1  server→client  response  ping    1           {}       0.2 ms

Both tables show the last `SHOWN_ROWS` rows at most, and the HTML table stops earlier
when its rows would pass `HTML_BUDGET` characters; a line says how many earlier
rows are not shown. Payloads are cut to `PAYLOAD_CHARS` characters.

This module leaves out everything interactive (filtering, collapsing JSON
beyond one `<details>` per row): that is the widget's job.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from wirelab.widgets.language import label
from wirelab.widgets.traffic import Row

SHOWN_ROWS = 25
SUMMARY_WIDTH = 60
PAYLOAD_CHARS = 600
HTML_BUDGET = 11_000  # characters of table rows: with the text twin, one saved output stays under 20 KB
STEPS = ("define", "send", "decide", "execute", "append", "answer")


class StaticView:
    """Something a notebook displays as HTML, with a plain-text twin for nbval and terminals."""

    def __init__(self, html_text: str, plain_text: str) -> None:
        self.html, self.text = html_text, plain_text

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.text


def summarize(payload: Any, width: int = SUMMARY_WIDTH, lang: str | None = None) -> str:
    """One short line saying what a payload is about (an error's message, a reply's tool calls…)."""
    text = " ".join(_summary(payload, lang).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _summary(payload: Any, lang: str | None = None) -> str:
    if isinstance(payload, list):
        return label("inspector.stream", lang, n=len(payload))
    if not isinstance(payload, dict):
        return str(payload)
    other = _other_format_summary(payload)  # lesson 17: the Responses, Messages and Gemini formats
    if other is not None:
        return other
    if "error" in payload:
        error = payload["error"]
        return str(error.get("message", error)) if isinstance(error, dict) else str(error)
    if payload.get("choices"):
        return _reply_summary(payload["choices"][0].get("message") or {})
    if isinstance(payload.get("messages"), list) and payload["messages"]:
        n, last = len(payload["messages"]), payload["messages"][-1]
        messages = label(_counted("inspector.message", n), lang, n=n)
        return label("inspector.request", lang, messages=messages, last=_message_summary(last))
    if "method" in payload:
        return _compact(payload["params"]) if "params" in payload else ""
    return _compact(payload.get("result", payload))


def _other_format_summary(payload: Mapping[str, Any]) -> str | None:
    """A reply of the Responses API (`output` items), Messages (`content` blocks) or Gemini
    (`candidates`): its calls by name, else its text; None for any other payload."""
    if payload.get("object") == "response" and isinstance(payload.get("output"), list):
        parts = [(i.get("type"), i.get("name"), _text_of(i.get("content"))) for i in payload["output"]]
    elif payload.get("type") == "message" and isinstance(payload.get("content"), list):
        parts = [(b.get("type"), b.get("name"), b.get("text")) for b in payload["content"]]
    elif isinstance(payload.get("candidates"), list) and payload["candidates"]:
        found = (payload["candidates"][0].get("content") or {}).get("parts") or []
        parts = [("functionCall", p["functionCall"].get("name"), None) if "functionCall" in p
                 else ("text", None, p.get("text")) for p in found]  # fmt: skip
    else:
        return None
    calls = [f"{kind} {name}" for kind, name, _ in parts if name]
    return ", ".join(calls) if calls else " ".join(str(text) for _, _, text in parts if text)


def _text_of(content: Any) -> str | None:
    if not isinstance(content, list):
        return None
    return " ".join(str(part.get("text", "")) for part in content if isinstance(part, Mapping))


def _counted(key: str, n: int) -> str:
    return key if n == 1 else f"{key}s"


def _reply_summary(message: Mapping[str, Any]) -> str:
    calls = message.get("tool_calls") or []
    if calls:
        return "tool_calls: " + ", ".join(c.get("function", {}).get("name", "?") for c in calls)
    return str(message.get("content"))


def _message_summary(message: Any) -> str:
    if not isinstance(message, Mapping):
        return _compact(message)
    if message.get("tool_calls"):
        return f"{message.get('role')}: {_reply_summary(message)}"
    return f"{message.get('role')}: {message.get('content')}"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def latency_text(row: Row) -> str:
    return "" if row["latency_ms"] is None else f"{row['latency_ms']:.1f} ms"


def _traffic_cells(row: Row, lang: str | None = None) -> list[str]:
    kind = f"⚠ {row['kind']}" if row["alert"] else row["kind"]
    return [
        str(row["seq"]),
        row["direction"],
        kind,
        row["method"] or "",
        "" if row["id"] is None else _compact(row["id"]),
        "" if row["status"] is None else str(row["status"]),
        summarize(row["payload"], lang=lang),
        latency_text(row),
    ]


def _headline(rows: Sequence[Row], title: str | None, lang: str | None) -> str:
    alerts = sum(row["alert"] for row in rows)
    channels = ", ".join(sorted({row["channel"] for row in rows})) or label("static.no_traffic", lang)
    messages, errors = _plural(len(rows), "message", lang), _plural(alerts, "error", lang)
    title = title or label("inspector.traffic", lang)
    return label("static.headline", lang, title=title, messages=messages, errors=errors, channels=channels)


def _plural(n: int, noun: str, lang: str | None) -> str:
    return f"{n} {label(f'static.{noun}' if n == 1 else f'static.{noun}s', lang)}"


def _shown(rows: Sequence[Row], limit: int, lang: str | None) -> tuple[Sequence[Row], str]:
    hidden = max(0, len(rows) - limit)
    return rows[hidden:], _hidden_note(hidden, lang)


def _hidden_note(hidden: int, lang: str | None) -> str:
    return label("static.hidden", lang, n=hidden) if hidden else ""


def traffic_text(
    rows: Sequence[Row], *, title: str | None = None, limit: int = SHOWN_ROWS, lang: str | None = None
) -> str:
    """The traffic as an aligned text table (the last `limit` rows), in `lang` (default: the notebook's)."""
    shown, note = _shown(rows, limit, lang)
    lines = [_headline(rows, title, lang), *([note] if note else [])]
    if shown:
        columns = label("static.columns", lang).split("|")
        lines += text_table(columns, [_traffic_cells(row, lang) for row in shown])
    return "\n".join(lines)


def traffic_html(
    rows: Sequence[Row], *, title: str | None = None, limit: int = SHOWN_ROWS, lang: str | None = None
) -> str:
    """The traffic as an HTML table, each row's JSON in a collapsed `<details>`."""
    shown: list[str] = []
    for row in reversed(rows[-limit:] if limit > 0 else []):
        cells = _traffic_html_row(row, lang)
        if shown and sum(map(len, shown)) + len(cells) > HTML_BUDGET:
            break
        shown.append(cells)
    note = _hidden_note(len(rows) - len(shown), lang)
    body = "".join(reversed(shown))
    head = "".join(f"<th>{html.escape(c)}</th>" for c in label("static.columns", lang).split("|"))
    note_html = f"<p><em>{html.escape(note)}</em></p>" if note else ""
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>" if shown else ""
    return (
        f'<div class="wirelab-static-traffic"><p><strong>{html.escape(_headline(rows, title, lang))}'
        f"</strong></p>{note_html}{table}</div>"
    )


def _traffic_html_row(row: Row, lang: str | None = None) -> str:
    cells = [html.escape(cell) for cell in _traffic_cells(row, lang)]
    pretty = json.dumps(row["payload"], ensure_ascii=False, indent=2, default=str)
    if len(pretty) > PAYLOAD_CHARS:
        pretty = pretty[:PAYLOAD_CHARS] + f"\n… ({len(pretty) - PAYLOAD_CHARS} more characters)"
    cells[6] = (
        f"<details><summary>{cells[6]}</summary><pre>{html.escape(pretty, quote=False)}</pre></details>"
    )
    style = ' style="background:#fde8e8"' if row["alert"] else ""
    return f"<tr{style}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells as left-aligned text lines, trailing spaces removed."""
    widths = [max(len(str(x)) for x in column) for column in zip(headers, *rows, strict=True)]
    return [
        "  ".join(str(c).ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
        for line in (headers, *rows)
    ]


def _step_names(lang: str | None) -> dict[str, str]:
    return dict(zip(STEPS, label("stepper.steps", lang).split("|"), strict=True))


def steps_text(
    counts: Mapping[str, int],
    last: str | None,
    messages: Sequence[Any],
    *,
    title: str | None = None,
    lang: str | None = None,
) -> str:
    """The six steps with how often each ran, then the messages list."""
    names = _step_names(lang)
    steps = " → ".join(
        f"[{names[s]} ×{counts.get(s, 0)}]" if s == last else f"{names[s]} ×{counts.get(s, 0)}" for s in STEPS
    )
    title = title or label("stepper.title", lang)
    headline = label("stepper.headline", lang, title=title, steps=steps)
    lines = [headline, label("stepper.count", lang, n=len(messages))]
    cells = [[str(i), *_message_cells(m)] for i, m in enumerate(messages, 1)]
    columns = label("stepper.message_columns", lang).split("|")
    return "\n".join(lines + ["  " + line for line in text_table(columns, cells)])


def steps_html(
    counts: Mapping[str, int],
    last: str | None,
    messages: Sequence[Any],
    *,
    title: str | None = None,
    lang: str | None = None,
) -> str:
    """The same as `steps_text`, as HTML: the last step in bold."""
    names = _step_names(lang)
    ran = {s: f"{names[s]} ×{counts.get(s, 0)}" for s in STEPS}
    steps = " → ".join(f"<strong>{ran[s]}</strong>" if s == last else ran[s] for s in STEPS)
    title = title or label("stepper.title", lang)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in label("stepper.message_columns", lang).split("|"))
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in [str(i), *cells]) + "</tr>"
        for i, cells in enumerate(map(_message_cells, messages), 1)
    )
    headline = label("stepper.headline", lang, title=html.escape(title), steps=steps)
    return (
        f'<div class="wirelab-static-steps"><p>{headline}</p>'
        f"<table><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table></div>"
    )


def _message_cells(message: Any) -> list[str]:
    if not isinstance(message, Mapping):
        return ["?", summarize(message)]
    if message.get("tool_calls"):
        return [str(message.get("role")), summarize({"choices": [{"message": message}]})]
    content = message.get("content")
    text = content if isinstance(content, str) else _compact(content)
    return [str(message.get("role")), summarize(text)]
