"""Widgets that let the learner watch the wire and the loop, live.

    from wirelab.widgets import inspect_wire, watch_loop
    inspector = inspect_wire(llm)        # every chat-completion request and response
    stepper = watch_loop()               # then: run_tool_loop(..., on_event=stepper.on_event)

Each widget also shows a static copy of its state (an HTML table) where no
widget can render, so saved notebooks still show the traffic. Importing this
package starts nothing: threads start with the first message.
"""

from wirelab.widgets.inspector import WireInspector, inspect_wire
from wirelab.widgets.stepper import LoopStepper, watch_loop

__all__ = ["LoopStepper", "WireInspector", "inspect_wire", "watch_loop"]
