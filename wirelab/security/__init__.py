"""Defences for a tool-calling host (lesson 13), each small enough to read in one sitting.

- `approval`: what an approval screen shows vs what the model reads; a
  tripwire for instructions hidden in descriptions and results (tool
  poisoning), reading text as `normalize` and `decode` bring it out;
- `pinning`: a hash of each approved description; changed tools are
  withheld and refused until approved again (rug pulls);
- `outbound`: per-tool permissions, an egress allowlist of hosts, and a
  filter that keeps secrets from leaving through tools not allowed to
  receive them (the confused deputy);
- `roots`: paths resolved inside the shared folders; traversal refused;
- `sampling`: the host's gate for a server's `sampling/createMessage`;
- `audit`: a log of every call, chained by a keyed MAC, with a sealed head and a
  `Witness` outside the host that sees a rollback;
- `executor`: checks composed into one executor for `run_tool_loop(execute=...)`.

    execute = audited(guarded(pins.check_call, policy.check_call), log)
    run_tool_loop(llm, messages, pins.offered(tools), model=model_name(), execute=execute)

None of them makes a model trustworthy: they limit what a fooled model can do.
The filters (`approval`, `outbound`) are tripwires an attacker who paraphrases
gets past; least privilege, egress allowlists and human review are what hold.
Importing this package starts nothing.
"""

from wirelab.security.approval import (
    Finding,
    approval_view,
    hidden_instructions,
    model_view,
    reveal,
    review_result,
    review_tool,
    screened,
)
from wirelab.security.audit import AuditLog, Broken, RolledBack, Witness, audited
from wirelab.security.executor import BLOCKING_CODES, guarded
from wirelab.security.normalize import plain
from wirelab.security.outbound import EgressAllowlist, OutboundPolicy, SecretHit, SecretStore, Uninspectable
from wirelab.security.pinning import ToolPins, fingerprint
from wirelab.security.roots import PathRejected, Roots
from wirelab.security.sampling import SamplingGuard, SamplingPolicy, SamplingReview, chat_sampler

__all__ = [
    "BLOCKING_CODES",
    "AuditLog",
    "EgressAllowlist",
    "Broken",
    "Finding",
    "OutboundPolicy",
    "PathRejected",
    "Roots",
    "SamplingGuard",
    "SamplingPolicy",
    "SamplingReview",
    "SecretHit",
    "SecretStore",
    "RolledBack",
    "ToolPins",
    "Uninspectable",
    "Witness",
    "approval_view",
    "audited",
    "chat_sampler",
    "fingerprint",
    "guarded",
    "hidden_instructions",
    "model_view",
    "plain",
    "reveal",
    "review_result",
    "review_tool",
    "screened",
]
