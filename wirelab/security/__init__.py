"""Defences for a tool-calling host (lesson 13), each small enough to read in one sitting.

- `approval`: what an approval screen shows vs what the model reads; a
  detector of instructions hidden in descriptions (tool poisoning);
- `pinning`: a hash of each approved description; changed tools are
  withheld and refused until approved again (rug pulls);
- `outbound`: per-tool permissions and a filter that keeps secrets from
  leaving through tools not allowed to receive them (the confused deputy);
- `roots`: paths resolved inside the shared folders; traversal refused;
- `sampling`: the host's gate for a server's `sampling/createMessage`;
- `audit`: an append-only, hash-chained log of every call;
- `executor`: checks composed into one executor for `run_tool_loop(execute=...)`.

    execute = audited(guarded(pins.check_call, policy.check_call), log)
    run_tool_loop(llm, messages, pins.offered(tools), execute=execute)

None of them makes a model trustworthy: they limit what a fooled model can do.
Importing this package starts nothing.
"""

from wirelab.security.approval import (
    Finding,
    approval_view,
    hidden_instructions,
    model_view,
    reveal,
    review_tool,
)
from wirelab.security.audit import AuditLog, audited
from wirelab.security.executor import BLOCKING_CODES, guarded
from wirelab.security.outbound import OutboundPolicy, SecretHit, SecretStore
from wirelab.security.pinning import ToolPins, fingerprint
from wirelab.security.roots import PathRejected, Roots
from wirelab.security.sampling import SamplingGuard, SamplingPolicy, SamplingReview, chat_sampler

__all__ = [
    "BLOCKING_CODES",
    "AuditLog",
    "Finding",
    "OutboundPolicy",
    "PathRejected",
    "Roots",
    "SamplingGuard",
    "SamplingPolicy",
    "SamplingReview",
    "SecretHit",
    "SecretStore",
    "ToolPins",
    "approval_view",
    "audited",
    "chat_sampler",
    "fingerprint",
    "guarded",
    "hidden_instructions",
    "model_view",
    "reveal",
    "review_tool",
]
