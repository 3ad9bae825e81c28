// The wire inspector's view (anywidget ESM).
//
// Rows arrive from Python as append-only custom messages, {type: "rows"} with
// one JSON buffer per batch, into a store shared by every view of the widget.
// The store asks Python for the rows it missed ({type: "sync"}) when it is
// created (a page reload, a late view), so nothing is lost; rows are kept in
// `seq` order and duplicates dropped. A view draws only the rows in its
// scrolled window (virtual list, fixed row height), so ten thousand rows cost
// the page no more than thirty. The store keeps the last MAX_ROWS rows (the
// same bound as Python's TrafficLog) and forgets older ones. Stable hooks for tests: the root has
// data-count / data-shown / data-errors; each row .wi-row has data-seq,
// data-kind, data-method, data-direction and, for errors, .wi-alert.

const ROW_HEIGHT = 24;
const OVERSCAN = 8;
const MAX_ROWS = 10000;
const KINDS = ["request", "response", "notification", "error", "invalid"];
const FIELDS = ["seq", "channel", "direction", "kind", "method", "id", "status", "t",
  "latency_ms", "pair", "alert", "payload"];
const stores = new Map();

function createStore(model) {
  const store = {
    rows: [], seen: new Set(), base: 0, version: 0, alerts: 0,
    methods: new Set(), channels: new Set(), pairs: new Map(), views: new Set(),
  };
  store.add = (batch) => addRows(store, batch);
  store.reset = (next) => {
    Object.assign(store, { rows: [], seen: new Set(), base: next, alerts: 0, pairs: new Map() });
    store.version += 1;
    store.views.forEach((view) => view.schedule());
  };
  store.find = (seq) => store.rows[lowerBound(store.rows, seq)];
  model.send({ type: "sync", next: 0 });
  return store;
}

function addRows(store, batch) {
  const fresh = batch.filter((row) => row.seq >= store.base && !store.seen.has(row.seq));
  if (!fresh.length) return;
  const last = store.rows.length ? store.rows[store.rows.length - 1].seq : -1;
  for (const row of fresh) {
    store.seen.add(row.seq);
    store.alerts += row.alert ? 1 : 0;
    if (row.method) store.methods.add(row.method);
    store.channels.add(row.channel);
    if (row.pair !== null) { store.pairs.set(row.pair, row.seq); store.pairs.set(row.seq, row.pair); }
  }
  if (fresh[0].seq > last && isSorted(fresh)) {
    store.rows.push(...fresh);
  } else {
    store.rows = store.rows.concat(fresh).sort((a, b) => a.seq - b.seq);
    store.version += 1;
  }
  if (store.rows.length > MAX_ROWS) forgetOldest(store, store.rows.length - MAX_ROWS);
  store.views.forEach((view) => view.schedule());
}

function forgetOldest(store, count) {
  for (const row of store.rows.splice(0, count)) {
    store.seen.delete(row.seq);
    store.alerts -= row.alert ? 1 : 0;
    const partner = store.pairs.get(row.seq);  // a kept response must not jump to a forgotten request
    if (partner !== undefined) store.pairs.delete(partner);
    store.pairs.delete(row.seq);
  }
  store.base = store.rows[0].seq;
  store.version += 1;
}

function isSorted(rows) {
  return rows.every((row, i) => i === 0 || rows[i - 1].seq < row.seq);
}

function lowerBound(rows, seq) {
  let lo = 0, hi = rows.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (rows[mid].seq < seq) lo = mid + 1; else hi = mid; }
  return lo;
}

function decode(buffer) {
  const view = buffer instanceof DataView ? buffer : new DataView(buffer.buffer ?? buffer);
  return JSON.parse(new TextDecoder().decode(view));
}

// ---- small DOM helpers ----------------------------------------------------------------------
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

function compact(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

const summaries = new WeakMap();
function summary(model, row) {
  if (!summaries.has(row)) summaries.set(row, shorten(describe(model, row.payload), 120));
  return summaries.get(row);
}

// "1 message", "2 messages": the label for one or for several, in the notebook's language.
function counted(model, noun, n) {
  return t(model, n === 1 ? noun : `${noun}s`, { n });
}

function describe(model, p) {
  if (Array.isArray(p)) return t(model, "stream", { n: p.length });
  if (p === null || typeof p !== "object") return String(p);
  if ("error" in p) return compact(p.error?.message ?? p.error);
  if (p.choices?.length) return describeReply(p.choices[0].message ?? {});
  if (Array.isArray(p.messages) && p.messages.length) {
    const last = p.messages[p.messages.length - 1];
    const text = `${last.role}: ${last.tool_calls ? describeReply(last) : compact(last.content)}`;
    return t(model, "request", { messages: counted(model, "message", p.messages.length), last: text });
  }
  if ("method" in p) return "params" in p ? compact(p.params) : "";
  return compact("result" in p ? p.result : p);
}

function describeReply(message) {
  const calls = message.tool_calls ?? [];
  return calls.length ? "tool_calls: " + calls.map((c) => c.function?.name).join(", ") : String(message.content);
}

function shorten(text, width) {
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= width ? flat : flat.slice(0, width - 1) + "…";
}

// ---- JSON tree (children built when opened) --------------------------------------------------
function jsonTree(value, key, depth) {
  const label = key === null ? "" : `${key}: `;
  if (value === null || typeof value !== "object") {
    return h("div", { class: "wi-json-leaf" }, label,
      h("span", { class: `wi-json-${value === null ? "null" : typeof value}` }, JSON.stringify(value)));
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const shape = Array.isArray(value) ? `[${entries.length} items]` : `{${entries.length} keys}`;
  const node = h("details", { class: "wi-json-node" }, h("summary", {}, label, h("span", { class: "wi-json-shape" }, shape)));
  const fill = () => {
    if (node.dataset.filled) return;
    node.dataset.filled = "1";
    node.append(...entries.map(([k, v]) => jsonTree(v, k, depth + 1)));
  };
  node.addEventListener("toggle", () => node.open && fill());
  if (depth < 2 && entries.length <= 50) { node.open = true; fill(); }
  return node;
}

// ---- the view ------------------------------------------------------------------------------
// The view's words come from Python (`labels`, English or Chinese), `{name}` filled from `values`.
function t(model, key, values = {}) {
  const text = (model.get("labels") ?? {})[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
}

function toolbar(view) {
  const m = view.model;
  const kind = h("select", { class: "wi-filter-kind", title: t(m, "show_kind") },
    h("option", { value: "" }, t(m, "all_kinds")), ...KINDS.map((k) => h("option", { value: k }, k)));
  const method = h("select", { class: "wi-filter-method", title: t(m, "show_method") },
    h("option", { value: "" }, t(m, "all_methods")));
  const channel = h("select", { class: "wi-filter-channel", title: t(m, "show_source") },
    h("option", { value: "" }, t(m, "all_sources")));
  for (const select of [kind, method, channel]) select.addEventListener("change", () => view.refilter());
  const clear = h("button", { class: "wi-clear", type: "button", textContent: t(m, "clear") });
  const exporter = h("button", { class: "wi-export", type: "button", textContent: t(m, "export") });
  clear.addEventListener("click", () => view.clear());
  exporter.addEventListener("click", () => view.exportRows());
  const count = h("span", { class: "wi-count" });
  const title = h("span", { class: "wi-title" });
  return { node: h("div", { class: "wi-bar" }, title, count, kind, method, channel, clear, exporter),
    kind, method, channel, count, title };
}

function header(model) {
  const names = t(model, "columns").split("|");
  return h("div", { class: "wi-head" }, ...names.map((n) => h("span", {}, n)));
}

function rowNode(view, row) {
  const store = view.store;
  const arrow = row.direction === "client→server" ? "→" : "←";
  const node = h("div", {
    class: `wi-row wi-kind-${row.kind}` + (row.alert ? " wi-alert" : "") +
      (view.selected === row.seq ? " wi-selected" : "") +
      (view.selected !== null && store.pairs.get(view.selected) === row.seq ? " wi-paired" : ""),
    "data-seq": row.seq, "data-kind": row.kind, "data-method": row.method ?? "",
    "data-direction": row.direction, title: row.direction,
  },
  h("span", { class: "wi-c-seq" }, String(row.seq)),
  h("span", { class: "wi-c-time" }, `+${row.t.toFixed(3)}s`),
  h("span", { class: "wi-c-dir" }, `${arrow} ${row.channel}`),
  h("span", { class: "wi-c-kind" }, h("span", { class: "wi-badge" }, row.kind)),
  h("span", { class: "wi-c-method" }, row.method ?? ""),
  h("span", { class: "wi-c-id" }, row.id === null ? "" : compact(row.id)),
  h("span", { class: "wi-c-status" }, row.status === null ? "" : String(row.status)),
  h("span", { class: "wi-c-lat" }, row.latency_ms === null ? "" : `${row.latency_ms.toFixed(1)} ms`),
  h("span", { class: "wi-c-sum" }, summary(view.model, row)));
  node.addEventListener("click", () => view.select(row.seq));
  return node;
}

function detailPane(view, row) {
  const pair = view.store.pairs.get(row.seq);
  const jump = pair === undefined ? null : h("button", { type: "button", class: "wi-jump",
    textContent: `${t(view.model, row.pair === null ? "answered_by" : "answers")} #${pair}` });
  jump?.addEventListener("click", () => view.select(pair, true));
  const close = h("button", { type: "button", class: "wi-close", textContent: "×", title: t(view.model, "close") });
  close.addEventListener("click", () => view.select(null));
  const facts = [`#${row.seq}`, row.direction, row.kind, row.method, row.id === null ? null : `id ${compact(row.id)}`,
    row.status === null ? null : `status ${row.status}`, row.latency_ms === null ? null : `${row.latency_ms.toFixed(1)} ms`];
  return [h("div", { class: "wi-detail-head" }, facts.filter(Boolean).join(" · "), jump, close),
    jsonTree(row.payload, null, 0)];
}

class View {
  constructor(model, el, store) {
    Object.assign(this, { model, el, store, visible: [], processed: 0, version: -1,
      selected: null, pending: false, drawn: "" });
    this.bar = toolbar(this);
    this.spacer = h("div", { class: "wi-spacer" });
    this.layer = h("div", { class: "wi-layer" });
    this.list = h("div", { class: "wi-list" }, this.spacer, this.layer);
    this.detail = h("div", { class: "wi-detail", hidden: true });
    this.root = h("div", { class: "wirelab-inspector" }, this.bar.node, header(model), this.list, this.detail);
    this.list.addEventListener("scroll", () => this.schedule());
    el.append(this.root);
    this.configure();
  }

  configure() {
    this.bar.title.textContent = this.model.get("title");
    this.list.style.height = `${this.model.get("height")}px`;
    this.schedule();
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  matches(row) {
    const { kind, method, channel } = this.bar;
    return (!kind.value || row.kind === kind.value) && (!method.value || row.method === method.value) &&
      (!channel.value || row.channel === channel.value);
  }

  refilter() { this.version = -1; this.schedule(); }

  catchUp() {
    const rows = this.store.rows;
    if (this.version !== this.store.version) {
      Object.assign(this, { visible: [], processed: 0, version: this.store.version });
    }
    for (let i = this.processed; i < rows.length; i++) if (this.matches(rows[i])) this.visible.push(rows[i]);
    this.processed = rows.length;
  }

  draw() {
    const atBottom = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - ROW_HEIGHT;
    this.catchUp();
    this.syncOptions();
    this.spacer.style.height = `${this.visible.length * ROW_HEIGHT}px`;
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
    const first = Math.max(0, Math.floor(this.list.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.visible.length, first + Math.ceil(this.list.clientHeight / ROW_HEIGHT) + 2 * OVERSCAN);
    const key = `${first}:${last}:${this.visible.length}:${this.version}:${this.selected}`;
    if (key !== this.drawn) {
      this.drawn = key;
      this.layer.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
      this.layer.replaceChildren(...this.visible.slice(first, last).map((row) => rowNode(this, row)));
    }
    this.showCounts();
  }

  showCounts() {
    const { rows, alerts } = this.store;
    const shown = this.visible.length === rows.length ? "" : t(this.model, "shown", { n: this.visible.length });
    const count = { messages: counted(this.model, "message", rows.length), errors: counted(this.model, "error", alerts) };
    this.bar.count.textContent = t(this.model, "count", count) + shown;
    Object.assign(this.root.dataset, { count: rows.length, shown: this.visible.length, errors: alerts });
  }

  syncOptions() {
    for (const [select, values] of [[this.bar.method, this.store.methods], [this.bar.channel, this.store.channels]]) {
      if (select.options.length - 1 === values.size) continue;
      const have = new Set([...select.options].map((o) => o.value));
      for (const value of [...values].sort()) if (!have.has(value)) select.append(h("option", { value }, value));
    }
    this.bar.channel.hidden = this.store.channels.size < 2;
  }

  select(seq, scroll = false) {
    this.selected = this.selected === seq && !scroll ? null : seq;
    const row = this.selected === null ? undefined : this.store.find(this.selected);
    this.detail.hidden = row === undefined || row.seq !== this.selected;
    if (!this.detail.hidden) this.detail.replaceChildren(...detailPane(this, row));
    if (scroll && !this.detail.hidden) {
      const index = this.visible.indexOf(row);
      if (index >= 0) this.list.scrollTop = Math.max(0, index * ROW_HEIGHT - this.list.clientHeight / 2);
    }
    this.drawn = "";
    this.schedule();
  }

  clear() {
    const rows = this.store.rows;
    this.store.reset(rows.length ? rows[rows.length - 1].seq + 1 : this.store.base);
    this.select(null);
    this.model.send({ type: "clear" });
  }

  exportRows() {
    const lines = this.visible.map((row) => JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, row[f]]))) + "\n");
    const link = h("a", { href: URL.createObjectURL(new Blob(lines, { type: "application/jsonl" })),
      download: "wire-log.jsonl" });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
}

function storeFor(model) {
  const key = model.get("_store_key");
  if (!stores.has(key)) stores.set(key, createStore(model));
  return stores.get(key);
}

export default {
  initialize({ model }) {
    const store = storeFor(model);
    const onMessage = (content, buffers) => {
      if (content?.type === "rows") buffers.forEach((buffer) => store.add(decode(buffer)));
      else if (content?.type === "reset") store.reset(content.next);
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
    model.on("change:height", configure);
    return () => { store.views.delete(view); model.off("change:title", configure); model.off("change:height", configure); };
  },
};
