// Small DOM helpers, no framework: h() builds elements, fill() replaces children, patch()
// brings a drawn subtree up to a newly built one in place (docs/architecture.md, "The pages").

/**
 * h("div", {class: "x", dataset: {action: "draw"}, onclick: f}, child, "text", [more])
 * Attributes with value null/undefined/false are left out; arrays of children are flattened.
 * An `on<type>` handler is kept on the element (one listener per type calls it), so patch()
 * can swap it for the handler of a newer build.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "html") el.innerHTML = value; // only for constant markup of this page
    else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) el.dataset[k] = v;
    } else if (key.startsWith("on") && typeof value === "function") {
      on(el, key.slice(2), value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/** The handler of each event type an element listens to through h(): `el[HANDLERS][type]`. */
const HANDLERS = Symbol("handlers");

function dispatch(event) {
  const handler = this[HANDLERS] && this[HANDLERS][event.type];
  if (handler) return handler.call(this, event);
  return undefined;
}

/** Let `el` call `handler` on `type` events: one listener per type, the handler swappable. */
function on(el, type, handler) {
  if (!el[HANDLERS]) el[HANDLERS] = {};
  if (!(type in el[HANDLERS])) el.addEventListener(type, dispatch);
  el[HANDLERS][type] = handler;
}

function nodes(children, out = []) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) nodes(child, out);
    else if (child instanceof Node) out.push(child);
    else out.push(document.createTextNode(String(child)));
  }
  return out;
}

function append(el, children) {
  for (const node of nodes(children)) el.appendChild(node);
}

/**
 * Replace every child of `el`. When the new children are the very nodes already there, in
 * order, nothing moves: a redraw that keeps a node (a form made once) keeps its focus, its
 * caret and what is being typed into it.
 */
export function fill(el, ...children) {
  const next = nodes(children);
  const now = el.childNodes;
  if (next.length === now.length && next.every((node, i) => node === now[i])) return el;
  el.replaceChildren(...next);
  return el;
}

// ------------------------------------------------------------------ the patch

/** Built node -> the node of the page that stands for it after patch() kept an older one. */
const KEPT = new WeakMap();
/** The value (or checked, or open) a form control or <details> was last drawn with. */
const DRAWN = Symbol("drawn");
/** Set on every element patch() put into the page: such a node given again (a part made
 * once and kept over renders) is the very node, moved into place and never patched. */
const PLACED = Symbol("placed");

/**
 * The node of the page that stands for `node`, built for a redraw: the older node patch()
 * kept in its place, or `node` itself if it went into the page. Handlers that read another
 * control (a Set button reading its input) read `live(input).value`.
 */
export function live(node) {
  let n = node;
  while (KEPT.has(n)) n = KEPT.get(n);
  return n;
}

/** The key two siblings are matched by: `data-key`, else the card an element stands for. */
function keyOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  return node.getAttribute("data-key") ?? node.getAttribute("data-card");
}

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName
    && (a.nodeType !== Node.ELEMENT_NODE || a.namespaceURI === b.namespaceURI);
}

/** What an element without a key does: a control that says what it is (its test id, the
 * action it sends, the card it picks) is kept only for the same one, never turned into
 * another under the pointer (a "+ right" button into the card drawn before it). */
const ROLES = ["data-testid", "data-action", "data-pick", "data-ui"];

function sameRole(a, b) {
  return sameKind(a, b) && (a.nodeType !== Node.ELEMENT_NODE
    || ROLES.every((name) => a.getAttribute(name) === b.getAttribute(name)));
}

const CONTROLS = new Set(["INPUT", "TEXTAREA", "SELECT"]);

/** What a control's person may change: its value, or checked for boxes and radios. */
function prop(el) {
  return el.nodeName === "INPUT" && (el.type === "checkbox" || el.type === "radio") ? "checked" : "value";
}

/** Mark what `el` and its subtree are drawn with now (a control's value, a <details>'
 * open), for drafts, and that they are in the page. */
function drawn(el) {
  el[PLACED] = true;
  if (CONTROLS.has(el.nodeName)) el[DRAWN] = el[prop(el)];
  else if (el.nodeName === "DETAILS") el[DRAWN] = el.open;
  for (const child of el.children) drawn(child);
}

/**
 * Bring the children of `el` to `children` (as fill() takes them) in place, and return `el`.
 * A new child is matched with an old one of the same key (`data-key`, or `data-card`), else
 * with the next unmatched old child of the same tag, no key and the same role (`data-testid`,
 * `data-action`, `data-pick`, `data-ui`); a match is kept and patched
 * (attributes, handlers, text, children), anything else is inserted or removed. A kept
 * control that has focus, or whose value the person changed since it was drawn (a draft),
 * keeps its value, caret and focus; a <details> the person opened or closed stays so; kept
 * elements keep their scroll positions.
 */
export function patch(el, ...children) {
  patchChildren(el, nodes(children));
  return el;
}

function patchChildren(parent, next) {
  const old = [...parent.childNodes];
  const keyed = new Map();
  for (const node of old) {
    const k = keyOf(node);
    if (k !== null && !keyed.has(`${node.nodeName} ${k}`)) keyed.set(`${node.nodeName} ${k}`, node);
  }
  const used = new Set();
  let scan = 0;
  const result = next.map((node) => {
    if (node[PLACED] || old.includes(node)) { used.add(node); return node; } // the very node: kept as it is
    const k = keyOf(node);
    let match = null;
    if (k !== null) {
      const cand = keyed.get(`${node.nodeName} ${k}`);
      if (cand && !used.has(cand) && sameKind(cand, node)) match = cand;
    } else {
      while (scan < old.length && (used.has(old[scan]) || keyOf(old[scan]) !== null || next.includes(old[scan]))) scan += 1;
      if (scan < old.length && sameRole(old[scan], node)) match = old[scan];
    }
    if (!match) {
      if (node.nodeType === Node.ELEMENT_NODE) drawn(node);
      return node;
    }
    used.add(match);
    scan = Math.max(scan, old.indexOf(match) + 1);
    patchNode(match, node);
    KEPT.set(node, match);
    return match;
  });
  for (const node of old) if (!used.has(node)) node.remove();
  result.forEach((node, i) => {
    const at = parent.childNodes[i];
    if (at !== node) parent.insertBefore(node, at || null);
  });
}

function patchNode(old, node) {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    return;
  }
  const control = CONTROLS.has(old.nodeName);
  const p = control ? prop(old) : null;
  // a control being used keeps what the person made of it
  const want = control ? node[p] : null; // read before its children move (a <select>'s options)
  const keep = control && (old === document.activeElement || (DRAWN in old && old[p] !== old[DRAWN]));
  const kept = keep ? old[p] : null;
  let caret = null;
  if (keep && old === document.activeElement) {
    try { caret = [old.selectionStart, old.selectionEnd, old.selectionDirection]; } catch (err) { caret = null; }
  }
  const userOpen = old.nodeName === "DETAILS" && DRAWN in old && old.open !== old[DRAWN] ? old.open : null;
  for (const attr of [...old.attributes]) if (!node.hasAttribute(attr.name)) old.removeAttribute(attr.name);
  for (const attr of node.attributes) {
    if (old.getAttribute(attr.name) !== attr.value) old.setAttribute(attr.name, attr.value);
  }
  const handlers = node[HANDLERS] || {};
  for (const type of Object.keys(handlers)) on(old, type, handlers[type]);
  if (old[HANDLERS]) for (const type of Object.keys(old[HANDLERS])) if (!(type in handlers)) old[HANDLERS][type] = null;
  if (!(old.nodeName === "TEXTAREA" && keep)) patchChildren(old, [...node.childNodes]);
  if (control) {
    if (keep) {
      if (old[p] !== kept) old[p] = kept;
      if (caret && caret[0] !== null) {
        try { old.setSelectionRange(caret[0], caret[1], caret[2] || "none"); } catch (err) { /* no caret */ }
      }
    } else if (old[p] !== want) old[p] = want;
    old[DRAWN] = want;
  } else if (old.nodeName === "DETAILS") {
    if (userOpen !== null) old.open = userOpen;
    old[DRAWN] = node.open;
  }
}
