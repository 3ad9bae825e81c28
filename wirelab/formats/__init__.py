"""One tool loop, four wire formats: a small adapter per format (lesson 17).

    from wirelab.formats import ChatCompletions, Responses, Messages, Gemini, run
    result = run(Messages(), "Weather in Paris and in Tokyo?", registry)

Every adapter has the same seven methods (`start`, `tools`, `send`, `calls`,
`add_reply`, `add_results`, `text`), so `loop.run` writes the six steps once:
define, send, decide, execute, append the results (paired by id), answer.
What differs between the formats is only inside the adapters: where the calls
are, how a result names its call (`tool_call_id`, `call_id`, `tool_use_id`, the
function's name), how an error is marked, what must be passed back. The
adapters talk to the offline model by default (`clients.py`); `enable_hosted_mcp` hands it
the course's MCP client for the Responses API's hosted `mcp` tool.
"""

from wirelab.formats.chat import ChatCompletions
from wirelab.formats.common import ToolCall, ToolResult, execute
from wirelab.formats.gemini import Gemini
from wirelab.formats.hosted import enable_hosted_mcp
from wirelab.formats.loop import LoopRun, run
from wirelab.formats.messages import Messages
from wirelab.formats.responses import Responses

__all__ = [
    "ChatCompletions",
    "Gemini",
    "LoopRun",
    "Messages",
    "Responses",
    "ToolCall",
    "ToolResult",
    "enable_hosted_mcp",
    "execute",
    "run",
]
