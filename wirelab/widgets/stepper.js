// The loop stepper's view (anywidget ESM).
//
// Loop events arrive as custom messages ({type: "events"} with a JSON buffer)
// into a store shared by the widget's views. Each view replays them at
// `pace_ms` per step, lighting the step's box and growing the messages list;
// a replay after a page reload ({replay: true}) jumps straight to the end.
// Stable hooks for tests: root data-step / data-events / data-shown /
// data-messages; boxes .ls-step[data-step] (.ls-active on the current one);
// messages .ls-message[data-role].

const STEPS = ["define", "send", "decide", "execute", "append", "answer"];
const stores = new Map();

function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function storeFor(model) {
  const key = model.get("_store_key");
  if (!stores.has(key)) {
    stores.set(key, { events: [], run: 0, views: new Set() });
    model.send({ type: "sync" });
  }
  return stores.get(key);
}

function receive(store, records, replay) {
  for (const record of records) {
    if (record.run !== store.run) Object.assign(store, { events: [], run: record.run });
    if (record.seq === store.events.length) store.events.push(record);
  }
  store.views.forEach((view) => view.advance(replay));
}

function shorten(text, width = 140) {
  const flat = String(text).replace(/\s+/g, " ");
  return flat.length <= width ? flat : flat.slice(0, width - 1) + "…";
}

function describeMessage(message) {
  if (message.tool_calls?.length) {
    return "tool_calls: " + message.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`).join(", ");
  }
  const content = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
  return message.tool_call_id ? `${content}  ↩ ${message.tool_call_id}` : content;
}

// The view's words come from Python (`labels`, English or Chinese), `{name}` filled from `values`.
function t(model, key, values = {}) {
  const text = (model.get("labels") ?? {})[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
}

function describeEvent(model, record) {
  const d = record.detail;
  switch (record.step) {
    case "define": return t(model, "define", { tools: d.tools.join(", ") });
    case "send": return t(model, "send", { n: d.messages });
    case "decide": return d.tool_calls.length ? t(model, "decide_calls", { calls: d.tool_calls.join(", ") })
      : t(model, "decide_text");
    case "execute": return t(model, "execute", { name: d.name, arguments: d.arguments, result: d.result });
    case "append": return t(model, "append", { id: d.tool_call_id });
    default: return t(model, "answer", { content: d.content });
  }
}

class View {
  constructor(model, el, store) {
    Object.assign(this, { model, el, store, shown: 0, run: -1, timer: null, messages: [] });
    const names = t(model, "steps").split("|");
    this.boxes = STEPS.map((step, i) => h("div", { class: "ls-step", "data-step": step },
      h("span", { class: "ls-num" }, String(i + 1)), h("span", { class: "ls-name" }, names[i] ?? step),
      h("span", { class: "ls-times" }, "")));
    this.title = h("span", { class: "ls-title" });
    this.turn = h("span", { class: "ls-turn" });
    this.detail = h("div", { class: "ls-detail" }, t(model, "waiting"));
    this.list = h("ol", { class: "ls-messages" });
    this.root = h("div", { class: "wirelab-stepper" },
      h("div", { class: "ls-bar" }, this.title, this.turn),
      h("div", { class: "ls-steps" }, ...this.boxes, h("div", { class: "ls-back" }, t(model, "back"))),
      this.detail, h("div", { class: "ls-messages-head" }, t(model, "messages")), this.list);
    el.append(this.root);
    this.configure();
    this.advance(true);
  }

  configure() { this.title.textContent = this.model.get("title"); }

  advance(jump) {
    if (this.run !== this.store.run) this.restart();
    if (jump || this.model.get("pace_ms") === 0) {
      while (this.shown < this.store.events.length) this.show(this.store.events[this.shown]);
      return;
    }
    if (this.timer === null) this.tick();
  }

  tick() {
    if (this.shown >= this.store.events.length) { this.timer = null; return; }
    this.show(this.store.events[this.shown]);
    this.timer = setTimeout(() => this.tick(), this.model.get("pace_ms"));
  }

  restart() {
    Object.assign(this, { shown: 0, run: this.store.run, messages: [] });
    this.list.replaceChildren();
    this.boxes.forEach((box) => { box.classList.remove("ls-active", "ls-done"); box.dataset.times = "0"; box.lastChild.textContent = ""; });
  }

  show(record) {
    this.shown += 1;
    this.boxes.forEach((box) => {
      const here = box.dataset.step === record.step;
      if (box.classList.contains("ls-active") && !here) box.classList.add("ls-done");
      box.classList.toggle("ls-active", here);
      if (here) { box.dataset.times = String(Number(box.dataset.times || 0) + 1); box.lastChild.textContent = `×${box.dataset.times}`; }
    });
    this.turn.textContent = record.turn ? t(this.model, "turn", { n: record.turn }) : "";
    this.detail.textContent = shorten(describeEvent(this.model, record), 300);
    this.growMessages(record);
    Object.assign(this.root.dataset, { step: record.step, events: this.store.events.length, shown: this.shown,
      messages: this.messages.length });
  }

  growMessages(record) {
    this.messages.length = record.from;
    while (this.list.children.length > record.from) this.list.lastChild.remove();
    this.list.querySelectorAll(".ls-new").forEach((node) => node.classList.remove("ls-new"));
    for (const message of record.messages) {
      this.messages.push(message);
      this.list.append(h("li", { class: "ls-message ls-new", "data-role": message.role },
        h("span", { class: "ls-role" }, message.role), h("span", { class: "ls-text" }, shorten(describeMessage(message)))));
    }
  }

  stop() { clearTimeout(this.timer); }
}

export default {
  initialize({ model }) {
    const store = storeFor(model);
    const onMessage = (content, buffers) => {
      if (content?.type !== "events") return;
      for (const buffer of buffers) {
        const view = buffer instanceof DataView ? buffer : new DataView(buffer.buffer ?? buffer);
        receive(store, JSON.parse(new TextDecoder().decode(view)), content.replay);
      }
    };
    model.on("msg:custom", onMessage);
    return () => { model.off("msg:custom", onMessage); stores.delete(model.get("_store_key")); };
  },
  render({ model, el }) {
    const store = storeFor(model);
    const view = new View(model, el, store);
    store.views.add(view);
    const configure = () => view.configure();
    model.on("change:title", configure);
    return () => { view.stop(); store.views.delete(view); model.off("change:title", configure); };
  },
};
