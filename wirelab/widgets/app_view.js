// The host side of an MCP App in the notebook: the view in a sandboxed iframe, its
// postMessage traffic relayed to and from the kernel (wirelab.widgets.app_view).
//
// The iframe is sandbox="allow-scripts" without allow-same-origin: the view gets an opaque
// origin, so it cannot touch this page. Only messages whose source is that iframe's window
// are relayed; the kernel's answers go back with postMessage.

function render({ model, el }) {
  const frame = document.createElement("iframe");
  frame.className = "wirelab-app-frame";
  frame.setAttribute("sandbox", model.get("sandbox"));
  frame.setAttribute("title", model.get("title"));
  frame.style.cssText = "width: 100%; border: 1px solid #ccc; border-radius: 4px; background: white;";
  frame.style.height = `${model.get("height")}px`;
  frame.srcdoc = model.get("srcdoc");

  const fromView = (event) => {
    if (event.source !== frame.contentWindow) return; // another window's message: not ours
    model.send({ kind: "from_view", message: event.data });
  };
  const toView = (content) => {
    if (content?.kind === "to_view" && frame.contentWindow) {
      frame.contentWindow.postMessage(content.message, "*"); // an opaque origin: "*" is the only target
    }
  };
  window.addEventListener("message", fromView);
  model.on("msg:custom", toView);
  model.on("change:height", () => {
    frame.style.height = `${model.get("height")}px`;
  });
  el.append(frame);
  return () => {
    window.removeEventListener("message", fromView);
    model.off("msg:custom", toView);
  };
}

export default { render };
