"use strict";
// The page of one recording: everything it shows comes from the records embedded below the
// page (gzip, base64), unpacked with the browser's DecompressionStream. Nothing is fetched.
(function () {
  const ROW = 22;
  const $ = (id) => document.getElementById(id);
  const el = (tag, attributes, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child != null) node.append(child);
    }
    return node;
  };

  // MARK: - Loading

  async function load() {
    const text = $("recording-data").textContent.trim();
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  // MARK: - The model

  let data, actions, info, header;
  let first = 1; // the step number of actions[0]
  let keyframes = []; // [[step, state]], sorted
  let hasUpdates = false;
  let caseNames = [];
  let searchTexts = null;
  let children = null;
  let visible = []; // indices into actions, in the list
  let selected = -1; // index into actions
  let notesByStep = new Map();
  // A test store notes each failed assertion at its step as "✘ " and the failure's message.
  const failureMark = "✘ ";
  let failedSteps = [];
  let sharedByStep = new Map();
  let writesByStep = new Map();
  let divergentStep = null;
  let cache = null; // {step, state}: the last state computed, reused when stepping forward

  // The cases an action's value goes through (an element's id left out), and its payload.
  function descend(value) {
    const parts = [];
    let node = value;
    for (let depth = 0; depth < 64; depth++) {
      if (node === null || typeof node !== "object" || Array.isArray(node)) break;
      const keys = Object.keys(node);
      if (keys.length === 2 && "action" in node && "id" in node) {
        node = node.action;
        continue;
      }
      if (keys.length !== 1) break;
      if (!/^_\d+$/.test(keys[0])) parts.push(keys[0]);
      node = node[keys[0]];
    }
    return { parts, payload: node };
  }

  function caseName(value) {
    return descend(value).parts.join(".") || "(value)";
  }

  // An action in Swift: as the REPL prints it when the page was made with the feature's types,
  // otherwise written from its JSON (`{"todos":{"_0":…}}` as `.todos(…)`).
  const UUID_PATTERN = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
  function swiftValue(value, depth) {
    if (depth > 64) return "…";
    if (value === null || value === undefined) return "nil";
    if (typeof value === "string") return UUID_PATTERN.test(value) ? "UUID(" + value.toUpperCase() + ")" : JSON.stringify(value);
    if (typeof value !== "object") return String(value);
    if (Array.isArray(value)) return "[" + value.map((element) => swiftValue(element, depth + 1)).join(", ") + "]";
    const keys = Object.keys(value);
    const error = recordedError(value);
    if (error) return error;
    if (keys.length === 1 && value[keys[0]] !== null && typeof value[keys[0]] === "object" && !Array.isArray(value[keys[0]])) {
      const payload = value[keys[0]];
      const arguments_ = swiftArguments(payload, depth);
      return "." + keys[0] + (arguments_ === "" ? "" : "(" + arguments_ + ")");
    }
    return "(" + swiftArguments(value, depth) + ")";
  }
  // A recorded error, `{"error":"Foundation.URLError","localizedDescription":…,"code":…}`, as
  // Swift shows one: its type's name, and its values where it has a `Codable` form, else what
  // it says (`URLError("The Internet connection appears to be offline.")`).
  function recordedError(value) {
    if (typeof value.error !== "string" || typeof value.localizedDescription !== "string") return null;
    const members = ["code", "error", "localizedDescription", "value"];
    if (!Object.keys(value).every((key) => members.includes(key))) return null;
    const name = value.error.split(".").pop();
    const inner = value.value;
    if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
      return name + "(" + swiftArguments(inner, 1) + ")";
    }
    return name + "(" + JSON.stringify(value.localizedDescription) + ")";
  }
  function swiftArguments(object, depth) {
    return Object.entries(object)
      .sort(([a], [b]) => (/^_\d+$/.test(a) && /^_\d+$/.test(b)) ? Number(a.slice(1)) - Number(b.slice(1)) : 0)
      .map(([key, member]) => (/^_\d+$/.test(key) ? "" : key + ": ") + swiftValue(member, depth + 1)).join(", ");
  }
  function actionSwift(index) {
    const texts = info.actionTexts;
    const text = texts && typeof texts[index] === "string" ? texts[index] : null;
    return text !== null ? text : swiftValue(actions[index].value, 0);
  }
  // Without the action's type: `.todos(…)` for `Todos.Action.todos(…)`.
  function swiftWithoutType(index) {
    return actionSwift(index).replace(/^[A-Z][A-Za-z0-9_]*(\.[A-Z][A-Za-z0-9_]*)*(?=\.[a-z_`])/, "");
  }
  // The list's shorter form: without the type, at most 120 characters.
  function shortSwift(index) {
    const text = swiftWithoutType(index);
    return text.length > 120 ? text.slice(0, 119) + "…" : text;
  }

  function stepOf(index) { return first + index; }

  // The source line that sent the action at `index` (`Module/File.swift:80`), when the
  // recording says.
  function siteOf(index) {
    const sites = info.sites;
    const numbers = info.sitesOfActions;
    if (!sites || !Array.isArray(numbers) || typeof numbers[index] !== "number") return null;
    const site = sites[String(numbers[index])];
    return typeof site === "string" ? site : null;
  }
  function indexOf(step) { return step - first; }

  function prepare(loaded) {
    data = loaded;
    header = data.header;
    info = data.info;
    actions = data.actions;
    hasUpdates = header.updates === 1;
    first = (info.leftOut || 0) + 1;
    keyframes = [[first - 1, info.startState !== undefined ? info.startState : header.initialState]];
    for (const checkpoint of data.checkpoints) {
      if (checkpoint.seq >= first) keyframes.push([checkpoint.seq, checkpoint.value]);
    }
    keyframes.sort((a, b) => a[0] - b[0]);
    caseNames = actions.map((action) => caseName(action.value));
    for (const [step, text] of data.notes) {
      if (!notesByStep.has(step)) notesByStep.set(step, []);
      notesByStep.get(step).push(text);
      if (text.startsWith(failureMark) && !failedSteps.includes(step)) failedSteps.push(step);
    }
    failedSteps.sort((a, b) => a - b);
    for (const [step, operations] of data.writes || []) {
      if (!writesByStep.has(step)) writesByStep.set(step, []);
      writesByStep.get(step).push(operations);
    }
    for (const [step, name, source, value] of data.shared || []) {
      if (!sharedByStep.has(step)) sharedByStep.set(step, []);
      sharedByStep.get(step).push({ name, source, value });
    }
    if (info.verdict && info.verdict.step != null) divergentStep = info.verdict.step;
    visible = actions.map((_, index) => index);
    document.body.dataset.actions = String(actions.length);
  }

  function childrenOf(step) {
    if (children === null) {
      children = new Map();
      for (const action of actions) {
        if (action.trigger != null) {
          if (!children.has(action.trigger)) children.set(action.trigger, []);
          children.get(action.trigger).push(action.seq);
        }
      }
    }
    return children.get(step) || [];
  }

  // MARK: - States, from keyframes and step updates (RFC 6902)

  function unescape(token) { return token.replace(/~1/g, "/").replace(/~0/g, "~"); }
  function tokens(path) { return path === "" ? [] : path.slice(1).split("/").map(unescape); }

  function lookup(document, path) {
    let node = document;
    for (const token of tokens(path)) {
      if (node === null || typeof node !== "object") return undefined;
      node = Array.isArray(node) ? node[Number(token)] : node[token];
    }
    return node;
  }

  function apply(document, operation) {
    const path = tokens(operation.path);
    if (path.length === 0) {
      if (operation.op === "remove") return null;
      if (operation.op === "move" || operation.op === "copy") {
        return structuredClone(lookup(document, operation.from));
      }
      return structuredClone(operation.value);
    }
    let value;
    if (operation.op === "move") {
      value = lookup(document, operation.from);
      document = apply(document, { op: "remove", path: operation.from });
    } else if (operation.op === "copy") {
      value = structuredClone(lookup(document, operation.from));
    } else if (operation.op === "test") {
      return document;
    } else {
      value = structuredClone(operation.value);
    }
    let parent = document;
    for (const token of path.slice(0, -1)) {
      parent = Array.isArray(parent) ? parent[Number(token)] : parent[token];
      if (parent === null || typeof parent !== "object") throw new Error("no " + operation.path);
    }
    const last = path[path.length - 1];
    const op = operation.op === "move" || operation.op === "copy" ? "add" : operation.op;
    if (Array.isArray(parent)) {
      const index = last === "-" ? parent.length : Number(last);
      if (op === "add") parent.splice(index, 0, value);
      else if (op === "remove") parent.splice(index, 1);
      else parent[index] = value;
    } else if (op === "remove") {
      delete parent[last];
    } else {
      parent[last] = value;
    }
    return document;
  }

  function keyframeAtOrBefore(step) {
    let low = 0, high = keyframes.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (keyframes[middle][0] <= step) low = middle; else high = middle - 1;
    }
    return keyframes[low];
  }

  // The state after `step` and what the step changed: [{operation, before}]. Without step
  // updates, the state is known at checkpoints only and the changes not at all (null).
  function stateAfter(step) {
    if (!hasUpdates) {
      const [keyStep, keyState] = keyframeAtOrBefore(step);
      return { state: keyStep === step ? keyState : null, changes: null };
    }
    if (cache && cache.step === step) return cache;
    // NB: From the keyframe before the step, so that the step's own update is applied.
    const [keyStep, keyState] = keyframeAtOrBefore(step - 1);
    let fromStep, state;
    if (cache && cache.step < step && cache.step >= keyStep) {
      fromStep = cache.step;
      state = cache.state;
    } else {
      fromStep = keyStep;
      state = structuredClone(keyState);
    }
    const changes = [];
    for (let s = fromStep + 1; s <= step; s++) {
      // What the rest of the app wrote into a child's state before the step: an input.
      for (const write of writesByStep.get(s) || []) {
        for (const operation of write) state = apply(state, operation);
      }
      for (const operation of actions[indexOf(s)].update || []) {
        if (s === step) {
          // NB: What a move takes away is at `from`; what the others replace or remove, at `path`.
          const at = operation.op === "move" ? operation.from : operation.path;
          const before = operation.op === "add" || operation.op === "copy" ? undefined : lookup(state, at);
          changes.push({ operation, before: before === undefined ? undefined : structuredClone(before) });
        }
        state = apply(state, operation);
      }
    }
    cache = { step, state, changes };
    return cache;
  }

  // MARK: - Effects

  function describeEffect(effect, into) {
    if (effect === "send") {
      into.push({ text: "send: an action fed back at once", kind: "start" });
    } else if (effect === "none" || effect == null) {
      // nothing
    } else if (typeof effect === "object" && "run" in effect) {
      into.push({ text: "run, made at " + effect.run, kind: "start" });
    } else if (typeof effect === "object" && "cancel" in effect) {
      into.push({ text: "cancel " + effect.cancel, kind: "cancel" });
    } else if (typeof effect === "object" && "cancellable" in effect) {
      const c = effect.cancellable;
      if (c.cancelInFlight) into.push({ text: "cancel in flight " + c.id, kind: "cancel" });
      const inner = [];
      describeEffect(c.effect, inner);
      for (const item of inner) {
        into.push({ text: item.text + (item.kind === "start" ? "  (cancellable: " + c.id + ")" : ""), kind: item.kind });
      }
    } else if (typeof effect === "object" && ("merge" in effect || "concatenate" in effect)) {
      const list = effect.merge || effect.concatenate;
      for (const item of list) describeEffect(item, into);
    } else {
      into.push({ text: JSON.stringify(effect), kind: "start" });
    }
    return into;
  }

  function effectKinds(action) {
    if (action.yields == null) return { started: false, cancelled: false };
    const items = describeEffect(action.yields, []);
    return {
      started: items.some((item) => item.kind === "start"),
      cancelled: items.some((item) => item.kind === "cancel"),
    };
  }

  // MARK: - Formatting

  function seconds(nanoseconds) { return (nanoseconds / 1e9).toFixed(3) + "s"; }
  function duration(nanoseconds) {
    const s = nanoseconds / 1e9;
    if (s < 60) return s.toFixed(3) + "s";
    const m = Math.floor(s / 60);
    return m + "m " + (s - m * 60).toFixed(1) + "s";
  }
  function isRedacted(value) { return typeof value === "string" && /^‹redacted \d+›$/.test(value); }

  function valueNode(value) {
    if (value === null) return el("span", { class: "v-null", text: "null" });
    switch (typeof value) {
      case "string": return el("span", { class: "v-string" + (isRedacted(value) ? " redacted" : ""), text: JSON.stringify(value) });
      case "number": return el("span", { class: "v-number", text: String(value) });
      case "boolean": return el("span", { class: "v-bool", text: String(value) });
      default: return el("span", { text: JSON.stringify(value) });
    }
  }

  function inline(value) {
    if (value === undefined) return "";
    const json = JSON.stringify(value);
    return json.length > 400 ? json.slice(0, 399) + "…" : json;
  }

  // A collapsible tree of a JSON value; children are built when a node is first opened.
  // `depth` levels are open from the start.
  function tree(value, label, depth) {
    // NB: An enum's unlabelled value (`_0` in its JSON) is shown in the case's place, and
    // several as their positions: the names are the user's, not `Codable`'s.
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && keys[0] === "_0") return tree(value._0, label, depth);
    }
    if (value === null || typeof value !== "object") {
      const leaf = el("div", { class: "leaf" });
      if (label != null) leaf.append(el("span", { class: "key", text: label + ": " }));
      leaf.append(valueNode(value));
      return leaf;
    }
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value).map(([key, member]) => [/^_\d+$/.test(key) ? key.slice(1) : key, member]);
    const details = el("details", { "data-path": label == null ? "" : label });
    const summary = el("summary");
    if (label != null) summary.append(el("span", { class: "key", text: label + ": " }));
    summary.append(el("span", { class: "count", text: Array.isArray(value) ? "[" + entries.length + "]" : "{" + entries.length + "}" }));
    details.append(summary);
    let built = false;
    // NB: A long array opens 500 elements at a time.
    let shown = 0;
    const more = el("button", { class: "link more" });
    const showMore = () => {
      const end = Math.min(entries.length, shown + 500);
      const fragment = document.createDocumentFragment();
      for (; shown < end; shown++) fragment.append(tree(entries[shown][1], entries[shown][0], depth - 1));
      more.before(fragment);
      if (shown < entries.length) more.textContent = "Show " + Math.min(500, entries.length - shown) + " more of " + entries.length;
      else more.remove();
    };
    more.addEventListener("click", showMore);
    const build = () => {
      if (built) return;
      built = true;
      details.append(more);
      showMore();
    };
    details.addEventListener("toggle", () => { if (details.open) build(); });
    if (depth > 0) { details.open = true; build(); }
    return details;
  }

  // MARK: - The header

  function renderSummary() {
    const name = info.file ? info.file + " — " : "";
    $("title").textContent = name + header.feature + " recording";
    const count = info.count;
    const facts = [
      count + (count === 1 ? " action" : " actions") + " over " + duration(info.duration),
      data.checkpoints.length + " checkpoints in view",
      info.ending,
      "started " + header.startedAt,
      header.stateType,
    ];
    if (header.schemaVersion) facts.push("version " + header.schemaVersion);
    if (!hasUpdates) facts.push("states at checkpoints only (the recording predates step updates)");
    $("facts").textContent = facts.join(" · ");
    const metadata = $("metadata");
    const entries = Object.entries(header.metadata || {}).sort(([a], [b]) => a.localeCompare(b));
    const important = ["note", "description", "gap"];
    entries.sort(([a], [b]) => (important.includes(b) ? 1 : 0) - (important.includes(a) ? 1 : 0));
    for (const [key, value] of entries) {
      metadata.append(el("dt", { text: key }), el("dd", { class: important.includes(key) ? "note" : "", text: value }));
    }
    if (header.redacted) {
      const parts = [];
      if (header.redacted.state && header.redacted.state.length) parts.push("state " + header.redacted.state.join(", "));
      if (header.redacted.actions && header.redacted.actions.length) parts.push("actions " + header.redacted.actions.join(", "));
      metadata.append(el("dt", { text: "redacted" }), el("dd", { text: parts.join("; ") + " (shown as ‹redacted N›)" }));
    }
    if (info.leftOut > 0) {
      const windowNote = $("window");
      windowNote.hidden = false;
      windowNote.textContent = "This page shows the last " + actions.length + " actions (steps " + first + "–" +
        (first + actions.length - 1) + " of " + count + "), from the state after step " + (first - 1) +
        ": the recording is longer than a page holds.";
    }
    if (failedSteps.length) {
      const failures = $("failures");
      failures.hidden = false;
      const count = failedSteps.reduce((total, step) => total + notesByStep.get(step).filter((note) => note.startsWith(failureMark)).length, 0);
      failures.append(el("strong", { text: "A failing test's run: " + count + (count === 1 ? " failed assertion" : " failed assertions") }),
        " at " + (failedSteps.length === 1 ? "step " : "steps "));
      failedSteps.forEach((step, position) => {
        if (position > 0) failures.append(", ");
        failures.append(el("button", { class: "link", text: String(step), onclick: () => select(indexOf(step), true) }));
      });
      failures.append(".");
    }
    if (info.verdict) {
      const verdict = $("verdict");
      verdict.hidden = false;
      if (info.verdict.step != null) {
        verdict.className = "differs";
        verdict.append("Today's reducer differs from the recording at step " + info.verdict.step + ".",
          el("button", { class: "link", text: "Show it", onclick: () => select(indexOf(info.verdict.step), true) }));
      } else {
        verdict.className = "agrees";
        verdict.textContent = info.verdict.text;
      }
    }
  }

  // A failure's message, line by line as the test framework shows it: the lines of its diff
  // that start (after their indent) with "−" or "+" coloured as the state's changes are.
  function failureText(message) {
    const block = el("div", { class: "diff failure" });
    for (const line of message.split("\n")) {
      const marker = line.trimStart().charAt(0);
      const kind = marker === "−" ? " removed" : marker === "+" ? " added" : "";
      block.append(el("div", { class: "line" + kind, text: line === "" ? " " : line }));
    }
    return block;
  }

  // MARK: - The list

  const list = $("list"), spacer = $("list-spacer");

  function renderList() {
    spacer.style.height = visible.length * ROW + "px";
    const top = list.scrollTop, height = list.clientHeight || 600;
    const start = Math.max(0, Math.floor(top / ROW) - 10);
    const end = Math.min(visible.length, Math.ceil((top + height) / ROW) + 10);
    spacer.textContent = "";
    for (let position = start; position < end; position++) {
      const index = visible[position];
      const action = actions[index];
      const step = stepOf(index);
      const row = el("div", {
        class: "row" + (index === selected ? " selected" : "") + (step === divergentStep ? " divergent" : "") + (failedSteps.includes(step) ? " failed" : ""),
        role: "option", "data-step": String(step), "aria-selected": index === selected ? "true" : "false",
      },
        el("span", { class: "step", text: String(step) }),
        el("span", { class: "time", text: "+" + seconds(action.time) }),
        el("span", { class: "origin " + action.source, title: siteOf(index) || "", text: action.source === "effect" ? "effect" + (action.trigger != null ? " ←" + action.trigger : "") : "send" }),
        el("span", { class: "name", text: " " + shortSwift(index) }),
        failedSteps.includes(step) ? el("span", { class: "failure-mark", title: "A failed assertion", text: "  ✘" })
          : notesByStep.has(step) ? el("span", { class: "note-mark", text: "  ✎" }) : null,
        sharedByStep.has(step) ? el("span", { class: "shared-mark", title: sharedTitle(step), text: "  ⇣" }) : null,
      );
      row.style.top = position * ROW + "px";
      row.addEventListener("click", () => select(index, false));
      spacer.append(row);
    }
    const status = visible.length === actions.length
      ? actions.length + " actions"
      : visible.length + " of " + actions.length + " actions match";
    $("list-status").textContent = status;
  }

  function filter() {
    const query = $("search").value.trim().toLowerCase();
    const kind = $("case-filter").value;
    if (query && searchTexts === null) {
      searchTexts = actions.map((action, index) => (swiftWithoutType(index) + " " + caseNames[index] + " " + JSON.stringify(action.value)).toLowerCase());
    }
    visible = [];
    for (let index = 0; index < actions.length; index++) {
      if (kind && caseNames[index] !== kind && !caseNames[index].startsWith(kind + ".")) continue;
      if (query && !searchTexts[index].includes(query)) continue;
      visible.push(index);
    }
    list.scrollTop = 0;
    renderList();
    drawTimeline();
    // What the list shows now, for whoever waits on a search (a person sees it in the status).
    list.dataset.query = query;
  }

  function fillCaseFilter() {
    const counts = new Map();
    for (const name of caseNames) counts.set(name, (counts.get(name) || 0) + 1);
    const select = $("case-filter");
    for (const [name, count] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
      select.append(el("option", { value: name, text: name + " (" + count + ")" }));
    }
  }

  function scrollIntoView(index) {
    const position = visible.indexOf(index);
    if (position < 0) return;
    const top = position * ROW;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + ROW > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW - list.clientHeight;
  }

  // MARK: - The selected step

  function select(index, reveal) {
    if (index < 0 || index >= actions.length) return;
    selected = index;
    if (reveal && !visible.includes(index)) {
      $("search").value = "";
      $("case-filter").value = "";
      visible = actions.map((_, i) => i);
    }
    scrollIntoView(index);
    renderList();
    renderDetail(index);
    drawTimeline();
    history.replaceState(null, "", "#step=" + stepOf(index));
  }

  function renderDetail(index) {
    const action = actions[index];
    const step = stepOf(index);
    const detail = $("detail");
    detail.textContent = "";
    detail.dataset.step = String(step);
    detail.append(el("h2", { text: "Step " + step + " of " + (info.firstAction - 1 + info.count) + "  ·  +" + seconds(action.time) }));

    const origin = el("p", { class: "origin-line" });
    if (action.source === "effect") {
      if (action.trigger != null && action.trigger >= first) {
        origin.append("Fed back by an effect of ", el("button", { text: "step " + action.trigger, onclick: () => select(indexOf(action.trigger), true) }));
      } else {
        origin.append("Fed back by an effect of an action before this part of the recording");
      }
    } else {
      origin.append("Sent to the store");
    }
    const site = siteOf(index);
    if (site) {
      origin.append(action.source === "effect" ? ", made at " : " at ", el("code", { class: "site", title: site, text: site.replace(/^[^/]*\//, "") }));
    }
    const fed = childrenOf(step);
    if (fed.length) {
      origin.append(". Its effects fed back ");
      fed.slice(0, 20).forEach((child, i) => {
        if (i) origin.append(", ");
        origin.append(el("button", { text: "step " + child, onclick: () => select(indexOf(child), true) }));
      });
      if (fed.length > 20) origin.append(" and " + (fed.length - 20) + " more");
    }
    origin.append(".");
    detail.append(origin);

    detail.append(el("h3", { text: "Action" }));
    detail.append(el("p", { class: "action-swift" }, el("code", { text: actionSwift(index) })));
    const actionTree = el("div", { class: "tree action-tree" });
    actionTree.append(tree(action.value, null, 12));
    detail.append(actionTree);

    if (divergentStep === step && info.verdict) {
      detail.append(el("h3", { text: "Today's reducer differs here" }));
      detail.append(el("pre", { class: "verdict-text", text: info.verdict.text }));
    }

    const writes = writesByStep.get(step);
    if (writes) {
      detail.append(el("h3", { text: "Written by the app before this step" }));
      for (const write of writes) {
        for (const operation of write) {
          detail.append(el("p", { class: "shared-change app", text: operation.path + (operation.op === "remove" ? " removed" : " = " + JSON.stringify(operation.value)) }));
        }
      }
    }

    const shared = sharedByStep.get(step);
    if (shared) {
      detail.append(el("h3", { text: "Shared values changed before this step" }));
      for (const change of shared) {
        detail.append(el("p", { class: "shared-change " + change.source, text: sharedWords[change.source] + " " + change.name + " = " + JSON.stringify(change.value) }));
      }
    }

    const notes = notesByStep.get(step);
    if (notes) {
      const failures = notes.filter((note) => note.startsWith(failureMark));
      const others = notes.filter((note) => !note.startsWith(failureMark));
      if (failures.length) {
        detail.append(el("h3", { text: failures.length === 1 ? "Failed assertion" : failures.length + " failed assertions" }));
        for (const failure of failures) detail.append(failureText(failure.slice(failureMark.length)));
      }
      if (others.length) {
        detail.append(el("h3", { text: "Notes" }));
        for (const note of others) detail.append(el("p", { class: "note", text: note }));
      }
    }

    detail.append(el("h3", { text: "Effects" }));
    if (!header.ledger) {
      detail.append(el("p", { class: "muted", text: "This recording has no effect ledger." }));
    } else if (action.yields == null) {
      detail.append(el("p", { class: "muted", text: "None: the reducer returned no effect." }));
    } else {
      const items = describeEffect(action.yields, []);
      const ul = el("ul", { class: "effects" });
      for (const item of items) ul.append(el("li", { class: item.kind, text: item.text }));
      detail.append(ul);
    }

    if (action.uses && Object.keys(action.uses).length) {
      detail.append(el("h3", { text: "Dependencies read" }));
      const usesTree = el("div", { class: "tree" });
      usesTree.append(tree(action.uses, null, 3));
      detail.append(usesTree);
    }

    const { state, changes } = stateAfter(step);
    detail.append(el("h3", { text: "State changes" }));
    const diff = el("div", { class: "diff" });
    if (changes === null) {
      diff.append(el("p", { class: "empty", text: "Not recorded: this recording predates step updates, so states are known at its checkpoints only." }));
    } else if (changes.length === 0) {
      diff.append(el("p", { class: "empty", text: "No state changes." }));
    } else {
      for (const { operation, before } of changes) {
        const path = operation.path || "(the whole state)";
        if (operation.op === "move") {
          diff.append(el("div", { class: "line removed", text: "− " + operation.from + ": " + inline(before) }));
          diff.append(el("div", { class: "line added", text: "+ " + path + ": " + inline(before) + "  (moved from " + operation.from + ")" }));
          continue;
        }
        if (operation.op !== "add" && before !== undefined) {
          diff.append(el("div", { class: "line removed", text: "− " + path + ": " + inline(before) }));
        }
        if (operation.op === "add" || operation.op === "replace") {
          diff.append(el("div", { class: "line added", text: "+ " + path + ": " + inline(operation.value) }));
        } else if (operation.op === "copy") {
          diff.append(el("div", { class: "line added", text: "+ " + path + ": (a copy of " + operation.from + ")" }));
        }
      }
    }
    detail.append(diff);

    detail.append(el("h3", { text: "State after step " + step }));
    const stateTree = el("div", { class: "tree state-tree" });
    if (state === null) {
      stateTree.append(el("p", { class: "muted", text: "Known at checkpoints only; the nearest is after step " + keyframeAtOrBefore(step)[0] + "." }));
    } else {
      stateTree.append(tree(state, null, 2));
    }
    detail.append(stateTree);
  }

  // MARK: - Shared values

  const sharedWords = {
    outside: "Changed outside the app:",
    app: "Changed elsewhere in the app:",
    load: "Read from its key:",
  };

  function sharedTitle(step) {
    return sharedByStep.get(step).map((change) => sharedWords[change.source] + " " + change.name).join("\n");
  }

  // MARK: - The time axis

  const canvas = $("timeline");

  function drawTimeline() {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (!width) return;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const context = canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    const style = getComputedStyle(document.documentElement);
    const color = (name) => style.getPropertyValue(name).trim();
    context.clearRect(0, 0, width, height);
    if (!actions.length) return;
    const start = actions[0].time, end = Math.max(actions[actions.length - 1].time, start + 1);
    const x = (time) => 4 + ((time - start) / (end - start)) * (width - 8);
    const columns = Math.max(1, Math.floor(width));
    const sends = new Uint32Array(columns), effects = new Uint32Array(columns);
    const started = new Uint8Array(columns), cancelled = new Uint8Array(columns);
    const shown = visible.length === actions.length ? null : new Set(visible);
    for (let index = 0; index < actions.length; index++) {
      if (shown && !shown.has(index)) continue;
      const action = actions[index];
      const column = Math.min(columns - 1, Math.max(0, Math.floor(x(action.time))));
      if (action.source === "effect") effects[column]++; else sends[column]++;
      if (action.yields != null) {
        const kinds = effectKinds(action);
        if (kinds.started) started[column] = 1;
        if (kinds.cancelled) cancelled[column] = 1;
      }
    }
    let most = 1;
    for (let c = 0; c < columns; c++) most = Math.max(most, sends[c] + effects[c]);
    const base = height - 18, room = base - 20;
    const scale = (count) => count === 0 ? 0 : Math.max(3, (Math.log1p(count) / Math.log1p(most)) * room);
    for (let c = 0; c < columns; c++) {
      const total = sends[c] + effects[c];
      if (!total) continue;
      const h = scale(total);
      const effectHeight = h * (effects[c] / total);
      context.fillStyle = color("--send");
      context.fillRect(c, base - h, 1, h - effectHeight);
      context.fillStyle = color("--effect");
      context.fillRect(c, base - effectHeight, 1, effectHeight);
      if (started[c]) { context.fillStyle = color("--started"); context.fillRect(c, 4, 1, 5); }
      if (cancelled[c]) { context.fillStyle = color("--cancelled"); context.fillRect(c, 11, 1, 5); }
    }
    context.fillStyle = color("--muted");
    context.font = "11px " + color("--sans");
    context.fillText("+" + seconds(start), 4, height - 4);
    const endLabel = "+" + seconds(end);
    context.fillText(endLabel, width - 4 - context.measureText(endLabel).width, height - 4);
    context.fillRect(0, base, width, 1);
    // A change of a shared value from outside the store's reducers: a mark above the step it
    // came before.
    for (const [step, changes] of sharedByStep) {
      if (step < first || step >= first + actions.length) continue;
      if (shown && !shown.has(indexOf(step))) continue;
      const fromOutside = changes.some((change) => change.source !== "load");
      context.fillStyle = color(fromOutside ? "--shared" : "--muted");
      const at = x(actions[indexOf(step)].time);
      context.beginPath();
      context.moveTo(at - 4, 17);
      context.lineTo(at + 4, 17);
      context.lineTo(at, 24);
      context.closePath();
      context.fill();
    }
    canvas.dataset.sharedMarks = String([...sharedByStep.keys()].filter((step) => step >= first && step < first + actions.length).length);
    if (divergentStep !== null && divergentStep >= first && divergentStep < first + actions.length) {
      context.fillStyle = color("--cancelled");
      context.fillRect(x(actions[indexOf(divergentStep)].time) - 1, 2, 3, base - 2);
    }
    if (selected >= 0) {
      const action = actions[selected];
      const at = x(action.time);
      context.fillStyle = color("--accent");
      context.fillRect(at - 1, 0, 2, base);
      if (action.trigger != null && action.trigger >= first) {
        const from = x(actions[indexOf(action.trigger)].time);
        context.strokeStyle = color("--effect");
        context.lineWidth = 1.5;
        context.beginPath();
        context.moveTo(from, base);
        context.quadraticCurveTo((from + at) / 2, base - room - 10, at, base);
        context.stroke();
      }
    }
  }

  canvas.addEventListener("click", (event) => {
    if (!actions.length) return;
    const rect = canvas.getBoundingClientRect();
    const start = actions[0].time, end = Math.max(actions[actions.length - 1].time, start + 1);
    const time = start + ((event.clientX - rect.left - 4) / (rect.width - 8)) * (end - start);
    let best = -1, distance = Infinity;
    for (const index of visible) {
      const d = Math.abs(actions[index].time - time);
      if (d < distance) { distance = d; best = index; }
    }
    if (best >= 0) select(best, false);
  });

  // MARK: - Keyboard

  function move(by) {
    if (!visible.length) return;
    let position = visible.indexOf(selected);
    if (position < 0) position = by > 0 ? -1 : visible.length;
    position = Math.max(0, Math.min(visible.length - 1, position + by));
    select(visible[position], false);
  }

  document.addEventListener("keydown", (event) => {
    const typing = event.target === $("search");
    if (event.key === "/" && !typing) {
      event.preventDefault();
      $("search").focus();
      $("search").select();
      return;
    }
    if (typing) {
      if (event.key === "Enter") { event.preventDefault(); if (visible.length) select(visible[0], false); $("list").focus(); }
      else if (event.key === "Escape") { $("search").value = ""; filter(); $("list").focus(); }
      else if (event.key === "ArrowDown") { event.preventDefault(); $("list").focus(); move(1); }
      return;
    }
    if (event.target.tagName === "SELECT") return;
    const page = Math.max(1, Math.floor(list.clientHeight / ROW) - 1);
    const keys = { ArrowDown: 1, ArrowRight: 1, j: 1, ArrowUp: -1, ArrowLeft: -1, k: -1, PageDown: page, PageUp: -page };
    if (event.key in keys) { event.preventDefault(); move(keys[event.key]); }
    else if (event.key === "Home") { event.preventDefault(); if (visible.length) select(visible[0], false); }
    else if (event.key === "End") { event.preventDefault(); if (visible.length) select(visible[visible.length - 1], false); }
  });

  let searchTimer = null;
  $("search").addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(filter, actions.length > 20000 ? 250 : 60);
  });
  $("case-filter").addEventListener("change", filter);
  list.addEventListener("scroll", () => requestAnimationFrame(renderList));
  window.addEventListener("resize", () => { renderList(); drawTimeline(); });

  // MARK: - Start

  load().then((loaded) => {
    performance.mark("replay-loaded");
    prepare(loaded);
    renderSummary();
    fillCaseFilter();
    renderList();
    drawTimeline();
    const match = /step=(\d+)/.exec(location.hash);
    // NB: Opens where the story is: the step asked for, else the first failed assertion, else
    // where today's reducer differs.
    const wanted = match ? indexOf(Number(match[1]))
      : failedSteps.length ? indexOf(failedSteps[0])
      : divergentStep !== null ? indexOf(divergentStep) : -1;
    if (wanted >= 0 && wanted < actions.length) select(wanted, true);
    document.body.dataset.ready = "true";
    performance.mark("replay-ready");
  }).catch((error) => {
    $("title").textContent = "This page could not read its recording";
    $("facts").append(el("span", { class: "error", text: String(error) }));
    document.body.dataset.ready = "error";
  });
})();
