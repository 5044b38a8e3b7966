// The score pad (docs/pad.md): forests entered by tapping, scored by the server.
// One state object; render() draws every component from it. The page never counts
// points: totals, lines, each card's points and reasons are the server's (the scorer's).

import { h, fill, live, patch } from "/static/dom.js";
import { _, listWords, ngettext, pgettext } from "/static/i18n.js";

const SIDES = ["top", "bottom", "left", "right"];
const MOOR_SIDES = ["top", "bottom"];
const LINE_WORDS = {
  trees: _("Trees"), top_bottom: _("Top & bottom"), left_right: _("Left & right"), cave: _("Cave"),
  top: _("Top"), bottom: _("Bottom"), moors: _("Moors"),
};

const state = {
  games: [], catalog: null, history: null, stats: null,
  tableId: null, keys: null, table: null, seat: 0,
  picking: null, tapped: null, error: "", status: "", offline: false,
};

// ------------------------------------------------------------------ talking to the server

async function call(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Pad-Token"] = token;
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    const e = new Error(_("The server cannot be reached."));
    e.status = 0;
    throw e;
  }
  let data = null;
  try { data = await r.json(); } catch (err) { data = null; }
  if (!r.ok) {
    const e = new Error((data && data.error) || _("The server answered {status}.", { status: r.status }));
    e.status = r.status;
    throw e;
  }
  return data;
}

const keyOf = (tid) => `pad:${tid}`;
const queueOf = (tid) => `pad:${tid}:queue`;
function load(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch (err) { return fallback; }
}
function save(key, value) { localStorage.setItem(key, JSON.stringify(value)); }

// Entries wait in localStorage until the server has them: a reload, a sleeping phone or a
// lost connection loses nothing, and each keeps its id so a re-send is applied once.
function enqueue(op) {
  const q = load(queueOf(state.tableId), []);
  const id = (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
  q.push({ entry_id: id, seat: state.seat, op });
  save(queueOf(state.tableId), q);
  state.picking = null;
  state.tapped = null;
  flush();
}

let flushing = false;
const retries = {};
async function flush() {
  if (flushing || !state.tableId) return;
  flushing = true;
  try {
    for (;;) {
      const q = load(queueOf(state.tableId), []);
      if (!q.length) break;
      const e = q[0];
      try {
        await call("POST", `/api/pad/tables/${state.tableId}/entries`,
          { entry_id: e.entry_id, seat: e.seat, op: e.op }, state.keys.host || state.keys.token);
        state.error = "";
      } catch (err) {
        if (err.status === 0) { state.offline = true; break; }
        // another server process wrote first: the same entry again (a few times)
        retries[e.entry_id] = (retries[e.entry_id] || 0) + 1;
        if (err.status === 409 && err.message.includes("send it again") && retries[e.entry_id] < 4) continue;
        state.error = err.message; // the scorer's refusal, in its words
      }
      state.offline = false;
      save(queueOf(state.tableId), load(queueOf(state.tableId), []).filter((x) => x.entry_id !== e.entry_id));
    }
  } finally {
    flushing = false;
  }
  await refresh();
}

async function refresh() {
  if (!state.tableId) return;
  try {
    state.table = await call("GET", `/api/pad/tables/${state.tableId}`);
  } catch (err) {
    if (err.status) state.error = err.message;
  }
  render();
}

async function watch(tid) {
  // Long poll: the table comes back as soon as any phone changes it.
  while (state.tableId === tid) {
    try {
      const since = state.table ? state.table.version : 0;
      const t = await call("GET", `/api/pad/tables/${tid}/wait?since=${since}&timeout=20`);
      if (state.tableId !== tid) return;
      state.table = t;
      render();
      if (t.state === "closed") return;
    } catch (err) {
      await new Promise((ok) => setTimeout(ok, 2000));
    }
  }
}

window.addEventListener("online", () => flush());
setInterval(() => { if (state.offline) flush(); }, 4000);

// ------------------------------------------------------------------ actions

async function openTable(game, name) {
  try {
    const t = await call("POST", "/api/pad/tables", { game, players: [name] });
    save(keyOf(t.id), { seat: 0, token: t.seats[0].token, host: t.host, join: t.join });
    location.href = `/pad/${t.id}`;
  } catch (err) { state.error = err.message; render(); }
}

async function importFile(file) {
  try {
    const doc = JSON.parse(await file.text());
    const t = await call("POST", "/api/pad/import", doc);
    save(keyOf(t.id), { seat: 0, token: t.seats[0].token, host: t.host, join: t.join });
    location.href = `/pad/${t.id}`;
  } catch (err) {
    state.error = err instanceof SyntaxError ? _("The file is not JSON.") : err.message;
    render();
  }
}

async function join(name) {
  const params = new URLSearchParams(location.search);
  try {
    const j = await call("POST", `/api/pad/tables/${state.tableId}/players`, { join: params.get("join"), name });
    state.keys = { seat: j.seat, token: j.token, join: params.get("join") };
    save(keyOf(state.tableId), state.keys);
    state.seat = j.seat;
    history.replaceState(null, "", `/pad/${state.tableId}`);
    await refresh();
  } catch (err) { state.error = err.message; render(); }
}

async function closeTable() {
  try {
    state.table = await call("POST", `/api/pad/tables/${state.tableId}/close`, undefined, state.keys.host);
  } catch (err) { state.error = err.message; }
  render();
}

// ------------------------------------------------------------------ components

function Status() {
  const q = state.tableId ? load(queueOf(state.tableId), []).length : 0;
  const words = state.offline ? ngettext("Offline: {n} entry waits to be sent.", "Offline: {n} entries wait to be sent.", q)
    : q ? _("Sending {n}…", { n: q }) : state.table ? _("{title}, {state}", { title: state.table.title, state: TABLE_STATES[state.table.state] || state.table.state }) : "";
  return words;
}

const TABLE_STATES = { open: pgettext("table", "open"), closed: pgettext("table", "closed") };

function Start() {
  const game = h("select", { "aria-label": _("Game"), "data-testid": "pad-game" },
    state.games.map((g) => h("option", { value: g.id }, g.title)));
  const name = h("input", { placeholder: _("Your name"), maxlength: 40, "aria-label": _("Your name"), "data-testid": "pad-name" });
  const file = h("input", { type: "file", accept: ".json,application/json", "aria-label": _("Forest JSON file"),
    onchange: (e) => e.currentTarget.files[0] && importFile(e.currentTarget.files[0]) });
  return h("section", { class: "pad-start" },
    h("h1", {}, _("A score pad for the table")),
    h("label", {}, _("Game"), " ", game),
    h("label", {}, _("Name"), " ", name),
    h("button", { class: "pad-main", "data-testid": "pad-open",
      onclick: () => openTable(live(game).value, live(name).value.trim() || _("Player {n}", { n: 1 })) }, _("Open a table")),
    h("label", { class: "pad-file" }, _("Or open a Forest JSON file"), " ", file),
    h("p", {}, h("a", { href: "/companion", "data-testid": "pad-companion" }, _("Dartmoor solo at the table: the solo companion"))),
    History());
}

// The most species a plot by species shows (those with the most points).
const SPECIES_SHOWN = 12;

// A bar chart (SVG) of a player's average points per game, by score-pad line or (kind
// "species") by species; the figures are the server's sums over the closed tables.
function Plot(s, kind = "lines") {
  const NS = "http://www.w3.org/2000/svg";
  const rows = kind === "species"
    ? Object.entries(s.species).filter(([, pts]) => pts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, SPECIES_SHOWN).map(([name, pts]) => [name, pts / s.games])
    : Object.entries(s.lines).map(([line, pts]) => [LINE_WORDS[line] || line, pts / s.games]);
  const most = Math.max(1, ...rows.map((r) => r[1]));
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 300 ${Math.max(1, rows.length) * 18}`);
  svg.setAttribute("class", "pad-plot");
  svg.setAttribute("role", "img");
  svg.setAttribute("data-plot", kind);
  svg.setAttribute("aria-label", kind === "species"
    ? _("{name}: average points by species", { name: s.name })
    : _("{name}: average points by score-pad line", { name: s.name }));
  rows.forEach(([word, avg], i) => {
    const text = document.createElementNS(NS, "text");
    text.setAttribute("x", "0"); text.setAttribute("y", String(i * 18 + 13));
    text.textContent = word.length > 17 ? `${word.slice(0, 16)}…` : word;
    const bar = document.createElementNS(NS, "rect");
    bar.setAttribute("x", "100"); bar.setAttribute("y", String(i * 18 + 3));
    bar.setAttribute("height", "12"); bar.setAttribute("width", String((avg / most) * 160));
    const value = document.createElementNS(NS, "text");
    value.setAttribute("x", String(104 + (avg / most) * 160)); value.setAttribute("y", String(i * 18 + 13));
    value.textContent = avg.toFixed(1);
    svg.append(text, bar, value);
  });
  return svg;
}

function History() {
  if (!state.history) return null;
  return h("section", { class: "pad-history" }, h("h2", {}, _("Past tables")),
    state.history.length ? h("ul", {}, state.history.map((t) => h("li", {},
      h("a", { href: `/pad/${t.id}` }, new Date(t.closed * 1000).toLocaleDateString(), " · ",
        t.players.map((p) => `${p.name} ${p.total}`).join(", "))))) : h("p", {}, _("None yet.")),
    state.stats && state.stats.length ? h("table", { class: "pad-stats" },
      h("tr", {}, [_("Player"), _("Games"), _("Wins"), _("Average"), _("Best")].map((x) => h("th", {}, x))),
      state.stats.map((s) => h("tr", {}, [s.name, s.games, s.wins, s.average, s.best].map((x) => h("td", {}, x))))) : null,
    state.stats && state.stats.length ? h("div", { class: "pad-plots", "data-testid": "pad-plots" },
      state.stats.map((s) => [h("figure", {}, h("figcaption", {}, _("{name}: average points by line", { name: s.name })), Plot(s)),
        h("figure", {}, h("figcaption", {}, _("{name}: average points by species", { name: s.name })), Plot(s, "species"))])) : null);
}

// The join form, made once: a redraw while the table loads must not drop a name typed in.
let joinForm = null;

function Join() {
  if (joinForm) return joinForm;
  const name = h("input", { placeholder: _("Your name"), maxlength: 40, "aria-label": _("Your name"), "data-testid": "pad-join-name" });
  joinForm = h("section", { class: "pad-start", "data-key": "join" }, h("h1", {}, _("Join the table")),
    h("label", {}, _("Name"), " ", name),
    h("button", { class: "pad-main", "data-testid": "pad-join", onclick: () => join(name.value.trim()) }, _("Enter my forest")));
  return joinForm;
}

function Pad() {
  const t = state.table;
  return h("table", { class: "pad-lines", "data-testid": "pad-lines" },
    h("tr", {}, h("th", {}, ""), t.players.map((p) => h("th", {}, p.name))),
    t.lines.map((line) => h("tr", {}, h("th", {}, LINE_WORDS[line] || line),
      t.players.map((p) => h("td", {}, p.lines[line])))),
    h("tr", { class: "pad-total" }, h("th", {}, _("Total")),
      t.players.map((p) => h("td", { "data-testid": `pad-total-${p.seat}` }, p.total))),
    t.winners ? h("caption", { "data-testid": "pad-winners" },
      t.winners.length === 1 ? _("{name} wins.", { name: t.winners[0] }) : _("{names} share the victory.", { names: listWords(t.winners) })) : null);
}

function Share() {
  const k = state.keys;
  if (!k || !k.join) return null;
  const link = `${location.origin}/pad/${state.tableId}?join=${k.join}`;
  return h("details", { class: "pad-share" }, h("summary", {}, _("Table link and download")),
    h("img", { src: `/api/pad/tables/${state.tableId}/qr.svg?join=${encodeURIComponent(k.join)}`, alt: _("QR code of the table link"), width: 164, height: 164 }),
    h("p", {}, h("a", { href: link }, _("Table link"))),
    h("p", {}, h("a", { href: `/api/pad/tables/${state.tableId}/forest.json`, download: "" }, _("Download as Forest JSON"))),
    h("button", { onclick: () => window.print() }, _("Print the score sheet")),
    k.host && state.table.state === "open" ? h("button", { "data-testid": "pad-close", onclick: closeTable }, _("Close the table")) : null);
}

function Companion() {
  if (!state.keys || !state.keys.companion) return null;
  return h("p", { class: "pad-companion" }, h("a", { href: `/companion/${encodeURIComponent(state.keys.companion)}`, "data-testid": "pad-back-companion" },
    _("Back to the solo companion (your result)")));
}

function Seats() {
  if (!state.keys || !state.keys.host) return null;
  return h("nav", { class: "pad-seats" }, state.table.players.map((p) =>
    h("button", { class: p.seat === state.seat ? "on" : "", onclick: () => { state.seat = p.seat; render(); } }, p.name)));
}

function cardsAt(player, where) {
  return player.cards.filter((c) => c.where === where);
}

function label(card) {
  if (typeof card === "string") return card;
  if (card.species) return card.symbol ? `${card.species} (${card.symbol})` : card.species;
  return _("card {id}", { id: card.card });
}

function hostLabel(host, list) {
  if (list === "moors") return host.moor || pgettext("host", "moor");
  if (host.tree) return host.tree;
  return host.card !== undefined ? _("card {id}", { id: host.card }) : pgettext("host", "tree");
}

function Forest() {
  const t = state.table;
  const p = t.players[state.seat];
  const open = t.state === "open" && !!state.keys && (state.keys.host || state.keys.seat === state.seat);
  const hostList = (list) => (p.forest[list] || []).map((host, i) => {
    const word = list === "moors" ? "moor" : "tree";
    const where = `${word} ${i + 1}`;
    const own = cardsAt(p, where)[0];
    const sides = list === "moors" ? MOOR_SIDES : SIDES;
    return h("div", { class: "pad-host", "data-testid": `pad-host-${list}-${i}` },
      h("button", { class: "pad-host-name", onclick: () => { state.tapped = { list, host: i }; render(); } },
        hostLabel(host, list), own ? h("span", { class: "pts" }, own.points) : null),
      sides.map((side) => {
        const stack = host[side] || [];
        const points = cardsAt(p, `${where} ${side}`);
        return h("div", { class: `pad-slot pad-slot-${side}` },
          stack.map((card, j) => h("button", { class: "pad-card",
            onclick: () => { state.tapped = { list, host: i, side, index: j }; render(); } },
            label(card), points[j] ? h("span", { class: "pts" }, points[j].points) : null)),
          open ? h("button", { class: "pad-add", "aria-label": _("Add to the {side} of {host}", { side: pgettext("side", side), host: hostLabel(host, list) }),
            "data-testid": `pad-add-${list}-${i}-${side}`,
            onclick: () => { state.picking = { list, host: i, side, text: "", tag: "", symbol: "" }; render(); } }, `+ ${pgettext("side", side)}`) : null);
      }));
  });
  const cave = p.forest.cave;
  const caveCards = typeof cave === "object" && cave ? cave.cards || 0 : cave || 0;
  const caveInput = h("input", { type: "number", min: 0, value: caveCards, "aria-label": _("Cards in the cave"), "data-testid": "pad-cave" });
  const caveNumber = state.catalog.caves.numbered.length ? h("select", { "aria-label": _("Cave number"), "data-testid": "pad-cave-number" },
    h("option", { value: "" }, _("cave?")), state.catalog.caves.numbered.map((c) =>
      h("option", { value: c.number, selected: typeof cave === "object" && cave && cave.number === c.number }, _("cave {n}", { n: c.number })))) : null;
  // Exploration's caves are chosen by name (instead of a number of cards alone)
  const named = state.catalog.caves.named || [];
  const caveName = named.length ? h("select", { "aria-label": _("Cave"), "data-testid": "pad-cave-name" },
    h("option", { value: "" }, _("cave?")), named.map((c) =>
      h("option", { value: c.name, title: c.text, selected: typeof cave === "object" && cave && cave.name === c.name }, c.name))) : null;
  const setCave = () => {
    // the controls on the page (a redraw keeps them, and what was typed into them)
    const cards = Number(live(caveInput).value) || 0;
    const number = caveNumber ? Number(live(caveNumber).value) : 0;
    if (caveName) {
      const chosen = live(caveName);
      if (chosen.value) enqueue({ op: "set_cave", cave: { name: chosen.value, cards } });
      else chosen.focus(); // no cave chosen yet: nothing to set
      return;
    }
    enqueue({ op: "set_cave", cave: number ? { number, cards } : cards });
  };
  return h("section", { class: "pad-forest" },
    h("h2", {}, ngettext("{name}: {n} point", "{name}: {n} points", p.total, { name: p.name })),
    hostList("trees"), state.catalog.moors ? hostList("moors") : null,
    open ? h("div", { class: "pad-tools" },
      h("button", { "data-testid": "pad-add-tree", onclick: () => { state.picking = { hosts: "trees", text: "", tag: "", symbol: "" }; render(); } },
        state.catalog.moors ? _("+ tree or shrub") : _("+ tree")),
      state.catalog.moors ? h("button", { "data-testid": "pad-add-moor", onclick: () => { state.picking = { hosts: "moors", text: "", tag: "", symbol: "" }; render(); } }, _("+ moor")) : null,
      h("button", { "data-testid": "pad-undo", onclick: () => enqueue({ op: "undo" }) }, _("Undo")),
      h("button", { "data-testid": "pad-done", onclick: () => enqueue({ op: "done", done: !p.done }) }, p.done ? _("Not done") : _("Done"))) : null,
    h("div", { class: "pad-cave" }, _("Cave"), " ", caveNumber, caveName, caveInput,
      open ? h("button", { "data-testid": "pad-set-cave", onclick: setCave }, _("Set")) : null));
}

// The type icons of a card written in a slot (a name, species and symbol, or a card id).
function tagsOf(card, side) {
  const cat = state.catalog;
  const name = typeof card === "string" ? card : card.species;
  const d = name !== undefined
    ? cat.dwellers.find((x) => x.name === name || x.printed === name)
    : cat.dwellers.find((x) => x.sides.includes(side) && x.cards.includes(card.card));
  return d ? d.tags : [];
}

// The tree symbols to ask about (the catalog's `ask`: the deck's, or for Dartmoor's
// provisional deck those known or any); none: no question.
function symbolsOf(o) {
  return o.ask || [];
}

function Picker() {
  const pk = state.picking;
  if (!pk) return null;
  const cat = state.catalog;
  let options;
  if (pk.hosts) {
    const kinds = pk.hosts === "moors" ? ["moor"] : ["tree", "shrub"];
    options = cat.hosts.filter((x) => kinds.includes(x.kind));
    if (pk.hosts === "trees" && cat.saplings) options = [...options, { name: "sapling", printed: "sapling", tags: [], symbols: [] }];
    if (pk.hosts === "moors") options = [...options, { name: "universal", printed: "universal moor", tags: [], symbols: [] }];
  } else {
    const host = state.table.players[state.seat].forest[pk.list][pk.host];
    const kind = pk.list === "moors" ? "moor" : host.tree === "sapling" ? "sapling"
      : (cat.hosts.find((x) => x.name === host.tree || (host.tree === undefined && x.cards.includes(host.card))) || { kind: "tree" }).kind;
    // An occupied slot of a tree or shrub is offered only the species that can ever share
    // one (hares, toads, butterflies by a nettle...); the server decides the rest (and
    // every moor slot: what shares there depends on the cards below).
    const stack = host[pk.side] || [];
    const full = pk.list !== "moors" && stack.length >= (pk.change ? 2 : 1);
    // A card that goes only onto one of a type (the Cuckoo onto a bird) is offered where
    // the slot holds exactly one card and it has that type.
    const onto = (d) => !d.onto || (stack.length === 1 && tagsOf(stack[0], pk.side).includes(d.onto));
    options = cat.dwellers.filter((d) => d.sides.includes(pk.side) && (!d.hosts.length || d.hosts.includes(kind))
      && (!full || d.stacks) && onto(d));
  }
  const tags = [...new Set(options.flatMap((o) => o.tags))].sort();
  const symbols = [...new Set(options.flatMap((o) => o.symbols))].sort();
  const shown = options.filter((o) => (!pk.text || o.printed.toLowerCase().includes(pk.text.toLowerCase()))
    && (!pk.tag || o.tags.includes(pk.tag)) && (!pk.symbol || o.symbols.includes(pk.symbol)));
  const choose = (o, symbol) => {
    if (pk.change) { // a card or host changed in place (its place and, for a host, its cards stay)
      const spec = symbol ? (pk.hosts ? { [pk.hosts === "moors" ? "moor" : "tree"]: o.name, symbol } : { species: o.name, symbol }) : o.name;
      enqueue(pk.hosts ? { op: "change", at: pk.change, host: spec } : { op: "change", at: pk.change, card: spec });
      return;
    }
    if (pk.hosts) {
      const spec = pk.hosts === "moors" ? { moor: o.name } : { tree: o.name };
      if (symbol) spec.symbol = symbol;
      enqueue({ op: pk.hosts === "moors" ? "add_moor" : "add_host", [pk.hosts === "moors" ? "moor" : "host"]: spec });
    } else {
      enqueue({ op: "add_card", at: { list: pk.list, host: pk.host, side: pk.side },
        card: symbol ? { species: o.name, symbol } : o.name });
    }
  };
  if (pk.asking) {
    const o = pk.asking;
    return h("div", { class: "pad-picker", role: "dialog", "data-testid": "pad-symbol" },
      h("p", {}, _("Which {card} is it? Its tree symbol:", { card: o.printed })),
      symbolsOf(o).map((s) => h("button", { onclick: () => choose(o, s) }, s)),
      h("button", { onclick: () => choose(o, "") }, _("Don't know")),
      h("button", { onclick: () => { state.picking = null; render(); } }, _("Cancel")));
  }
  const search = h("input", { type: "search", placeholder: _("Search by name"), value: pk.text, "aria-label": _("Search"), "data-testid": "pad-search",
    oninput: (e) => { pk.text = e.currentTarget.value; render(); } }); // the patch keeps its focus and caret
  return h("div", { class: "pad-picker", role: "dialog", "data-testid": "pad-picker" },
    search,
    tags.length > 1 ? h("div", { class: "pad-chips", "aria-label": _("Type icons") }, h("span", {}, _("Type")), tags.map((t) =>
      h("button", { class: pk.tag === t ? "on" : "", onclick: () => { pk.tag = pk.tag === t ? "" : t; render(); } }, t))) : null,
    symbols.length > 1 ? h("div", { class: "pad-chips", "aria-label": _("Tree symbols") }, h("span", {}, _("Symbol")), symbols.map((s) =>
      h("button", { class: pk.symbol === s ? "on" : "", onclick: () => { pk.symbol = pk.symbol === s ? "" : s; render(); } }, s))) : null,
    h("div", { class: "pad-options" }, shown.map((o) => h("button", { "data-species": o.name,
      onclick: () => {
        if (symbolsOf(o).length > 1) { pk.asking = o; render(); } else choose(o, "");
      } }, o.printed))),
    h("button", { onclick: () => { state.picking = null; render(); } }, _("Cancel")));
}

function Tapped() {
  const tp = state.tapped;
  if (!tp) return null;
  const p = state.table.players[state.seat];
  const word = tp.list === "moors" ? "moor" : "tree";
  const where = tp.side ? `${word} ${tp.host + 1} ${tp.side}` : `${word} ${tp.host + 1}`;
  const scored = cardsAt(p, where)[tp.side ? tp.index : 0];
  const at = tp.side ? { list: tp.list, host: tp.host, side: tp.side, index: tp.index } : { list: tp.list, host: tp.host };
  const open = state.table.state === "open";
  return h("div", { class: "pad-picker", role: "dialog", "data-testid": "pad-why" },
    scored ? h("p", {}, h("b", {}, ngettext("{name}: {n} point", "{name}: {n} points", scored.points, { name: scored.species })), h("br"), scored.why) : null,
    open ? h("button", { onclick: () => enqueue({ op: "remove", at }) }, tp.side ? _("Remove this card")
      : tp.list === "moors" ? _("Remove this moor and its cards") : _("Remove this tree and its cards")) : null,
    open ? h("button", { "data-testid": "pad-change", onclick: () => {
      state.tapped = null;
      state.picking = tp.side ? { list: tp.list, host: tp.host, side: tp.side, change: at, text: "", tag: "", symbol: "" }
        : { hosts: tp.list, change: at, text: "", tag: "", symbol: "" };
      render();
    } }, tp.side ? _("Change this card") : tp.list === "moors" ? _("Change this moor") : _("Change this tree")) : null,
    open && tp.side ? MoveTo(p, at) : null,
    h("button", { onclick: () => { state.tapped = null; render(); } }, _("Close")));
}

// Move a card to another slot of the same forest.
function MoveTo(p, at) {
  const places = [];
  for (const list of ["trees", "moors"]) {
    (p.forest[list] || []).forEach((host, i) => {
      for (const side of list === "moors" ? MOOR_SIDES : SIDES) {
        if (list === at.list && i === at.host && side === at.side) continue;
        places.push({ list, host: i, side, word: `${hostLabel(host, list)} ${i + 1}, ${pgettext("side", side)}` });
      }
    });
  }
  const select = h("select", { "aria-label": _("Move to"), "data-testid": "pad-move-to" },
    places.map((x, n) => h("option", { value: n }, x.word)));
  return h("div", { class: "pad-move" }, select,
    h("button", { onclick: () => { const x = places[Number(live(select).value)]; if (x) enqueue({ op: "move", at, to: { list: x.list, host: x.host, side: x.side } }); } }, _("Move")));
}

function render() {
  fill(document.getElementById("pad-status"), Status());
  const err = document.getElementById("pad-error");
  err.hidden = !state.error;
  fill(err, state.error);
  const root = document.getElementById("pad-root");
  // patch, not fill: a live update keeps what a person is typing, its focus and scroll
  if (!state.tableId) return patch(root, Start());
  if (!state.keys && new URLSearchParams(location.search).get("join")) return patch(root, Join());
  if (!state.table || !state.catalog) return patch(root, h("p", {}, _("Loading…")));
  const t = state.table;
  const sheet = h("h1", { class: "pad-print-only" }, _("{title}: score sheet", { title: t.title }),
    h("small", {}, ` ${new Date((t.closed || t.created) * 1000).toLocaleDateString()}`));
  patch(root, sheet, Companion(), Pad(), Share(), Seats(), Forest(), Picker(), Tapped());
}

async function main() {
  const m = location.pathname.match(/^\/pad\/([0-9a-f]+)$/);
  try {
    if (!m) {
      [state.games, state.history, state.stats] = await Promise.all([
        call("GET", "/api/pad/games"), call("GET", "/api/pad/history"), call("GET", "/api/pad/stats")]);
      render();
      return;
    }
    state.tableId = m[1];
    state.keys = load(keyOf(state.tableId), null);
    state.seat = state.keys ? state.keys.seat : 0;
    state.table = await call("GET", `/api/pad/tables/${state.tableId}`);
    state.catalog = await call("GET", `/api/pad/catalog?game=${encodeURIComponent(state.table.game)}`);
  } catch (err) {
    state.error = err.message;
  }
  render();
  if (state.tableId) { flush(); watch(state.tableId); }
}

main();
