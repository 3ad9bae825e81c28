"""The course's offline model: a deterministic, rule-based stand-in for an LLM.

It answers in the real OpenAI Chat Completions wire format, so the real `openai` client talks to it:

    from wirelab.offline_model import serve, MODEL_ID
    with serve() as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="offline")
        client.chat.completions.create(model=MODEL_ID, messages=[...], tools=[...])

Readable rules read the request and the tools' descriptions. Where the words choose no tool, or
tie (a Chinese request for tools described in English, a verb that implies the tool without
its words), a small multilingual sentence encoder ranks the tools by meaning, and a logistic
regression fitted on the course's own corpus (`meaning`, `training`,
scripts/train_offline_model.py) decides whether to call the best one: no large network, no text
generation. Same request, same response.

`policy` runs seven stages, numbered as in the modules' docstrings, lesson 00 and its diagram:
(1) normalize and segment the text (`normalize`, Chinese by jieba); (2) find the intents (2a,
`intents`) and select a tool or none, by the tools' words (2b, `selection`) or by meaning (2c,
`meaning`); (3) extract typed values (`extraction`, `names`, `dates`, `units`, `places`); (4)
bind them to parameters by schema (`slots`, `evidence`, `fit`, `binding`, `options`); (5) make
one call per set of values and share what intents leave unsaid (`calls`, `frames`, `sharing`);
(6) keep context across turns (`context`) and correct a call once after an error (`results`,
`correction`); (7) answer in the user's language (`answer`). It asks for a required value the
request does not give instead of making one up, makes named mistakes on request (`faults`), and
`explain(body)` shows each stage's decision with the features and weights behind it. From a
terminal: `python -m wirelab.offline_model --port 8808`.
"""

from typing import TYPE_CHECKING, Any

from wirelab.offline_model.explain import explain
from wirelab.offline_model.faults import FAULTS
from wirelab.offline_model.request import MODEL_ID, RequestError
from wirelab.offline_model.wire.edge import complete, stream

if TYPE_CHECKING:
    from wirelab.offline_model.wire.server import OfflineServer, create_app, serve, shared_server

SERVER_NAMES = frozenset({"OfflineServer", "create_app", "serve", "shared_server"})  # imported on first use
__all__ = ["FAULTS", "MODEL_ID", "RequestError", "complete", "explain", "stream"]
__all__ += ["OfflineServer", "create_app", "serve", "shared_server"]


def __getattr__(name: str) -> Any:
    """The server's names, imported on first use (PEP 562): the HTTP stack (starlette, uvicorn)
    serves the model, so a process that only calls `complete` does not wait for its import."""
    if name in SERVER_NAMES:
        from wirelab.offline_model.wire import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
