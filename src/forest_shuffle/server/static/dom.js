// Small DOM helpers: h() builds elements, no framework.

/**
 * h("div", {class: "x", dataset: {action: "draw"}, onclick: f}, child, "text", [more])
 * Attributes with value null/undefined/false are left out; arrays of children are flattened.
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
      el.addEventListener(key.slice(2), value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
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
