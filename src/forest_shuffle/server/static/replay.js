// Replays in the browser (docs/web.md): a finished game of this server (/replay/{game id})
// or a record file, uploaded or pasted (/replay), stepped move by move (first, previous,
// next, last, a slider, the arrow keys) from any seat's view or a spectator's. Every frame
// is computed by the server, which replays the record with the engine; the page draws it.
import { api } from "./api.js";
import { ARROWS, Catalog, SIDES, cardTile, symClass } from "./cards.js";
import { fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { lineWords } from "./review.js";

const catalogs = new Map(); // game id -> Promise of its Catalog

function catalogOf(game) {
  if (!catalogs.has(game)) {
    const loading = api("GET", `/api/cards?game=${encodeURIComponent(game)}`).then((data) => new Catalog(data));
    loading.catch(() => catalogs.delete(game));
    catalogs.set(game, loading);
  }
  return catalogs.get(game);
}

/** The replay page. `gameId`: a game of this server to replay (null: load a record). */
export function showReplay(root, ui, gameId) {
  document.body.dataset.status = "replay-load";
  const params = new URLSearchParams(location.search);
  const start = { step: Number(params.get("step")) || 0, seat: params.has("seat") ? Number(params.get("seat")) : null };
  if (gameId) {
    const base = `/api/games/${encodeURIComponent(gameId)}/replay`;
    new Replayer(root, ui, base, start).open();
    return;
  }
  showLoader(root, ui);
}

/** The form of /replay: a record file (uploaded or pasted) or a game id of this server. */
function showLoader(root, ui) {
  const fileInput = h("input", { type: "file", accept: ".json,application/json", dataset: { testid: "record-file" } });
  const text = h("textarea", { rows: "6", placeholder: _("…or paste a record here (a file that {command} wrote, or a replay)", { command: "forest-shuffle simulate --records DIR" }), dataset: { testid: "record-text" } });
  const gameInput = h("input", { type: "text", placeholder: _("a game id of this server"), maxlength: "32", dataset: { testid: "replay-game-id" } });
  const error = h("p", { class: "error", dataset: { testid: "replay-error" }, hidden: true });
  const say = (message) => {
    error.textContent = message;
    error.hidden = false;
  };
  async function load(recordText) {
    error.hidden = true;
    try {
      const first = await api("POST", "/api/replays", { body: { text: recordText } });
      new Replayer(root, ui, `/api/replays/${encodeURIComponent(first.replay_id)}`, { step: 0, seat: null }, first).open();
    } catch (err) {
      say(_("This record cannot be replayed: {message}", { message: err.message }));
    }
  }
  fileInput.addEventListener("change", () => {
    const file = fileInput.files && fileInput.files[0];
    if (!file) return;
    if (file.size > 60000) {
      say(_("This file is {size} bytes; a record is at most {most} characters.", { size: file.size, most: 60000 }));
      return;
    }
    file.text().then(load, () => say(_("This file cannot be read.")));
  });
  fill(root, h("section", { class: "panel replay-load" },
    h("h1", {}, _("Replay a game")),
    h("p", { class: "hint" }, _("Step through any finished game, move by move, from any seat's view or as a spectator.")),
    h("h2", {}, _("A record file")),
    h("div", { class: "form-row" }, fileInput),
    text,
    h("p", {}, h("button", { class: "primary", dataset: { testid: "load-record" }, onclick: () => load(text.value) }, _("Replay this record"))),
    h("h2", {}, _("A finished game of this server")),
    h("div", { class: "form-row" }, gameInput, " ",
      h("button", { dataset: { testid: "open-game-replay" }, onclick: () => {
        const id = gameInput.value.trim();
        if (id) ui.go(`/replay/${encodeURIComponent(id)}`);
      } }, _("Replay"))),
    error));
}

class Replayer {
  constructor(root, ui, base, start, first = null) {
    this.root = root;
    this.ui = ui;
    this.base = base; // the frame's address, without ?step=&seat=
    this.step = start.step;
    this.seat = start.seat;
    this.frame = null;
    this.cat = null;
    this.first = first; // the answer of POST /api/replays (step 0, a spectator's)
    this.cache = new Map();
    this.wanted = 0; // the newest request (older answers are dropped)
    this.aim = null; // the step last asked for: keys pressed faster than frames arrive count from it
    this.onKey = (e) => {
      if (!this.frame || e.target.closest("input, textarea, select")) return;
      const from = this.aim === null ? this.step : this.aim;
      if (e.key === "ArrowRight") this.go(from + 1);
      else if (e.key === "ArrowLeft") this.go(from - 1);
      else if (e.key === "Home") this.go(0);
      else if (e.key === "End") this.go(this.frame.steps);
      else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", this.onKey);
    window.forestReplay = this; // for the e2e tests and the curious
  }

  open() {
    if (this.first && this.step === 0 && this.seat === null) this.cache.set("0 ", this.first);
    this.go(this.step);
  }

  async fetchFrame(step, seat) {
    const key = `${step} ${seat === null ? "" : seat}`;
    if (this.cache.has(key)) return this.cache.get(key);
    const q = new URLSearchParams({ step: String(step) });
    if (seat !== null) q.set("seat", String(seat));
    const frame = await api("GET", `${this.base}?${q}`);
    if (this.cache.size > 400) this.cache.clear();
    this.cache.set(key, frame);
    return frame;
  }

  async go(step, seat = this.seat) {
    const steps = this.frame ? this.frame.steps : Infinity;
    step = Math.max(0, Math.min(steps, step));
    this.aim = step;
    const ticket = ++this.wanted;
    document.body.dataset.status = "replay-busy";
    try {
      const frame = await this.fetchFrame(step, seat);
      if (!this.cat || this.cat.game !== frame.game) {
        this.cat = await catalogOf(frame.game);
        this.cat.game = frame.game;
      }
      if (ticket !== this.wanted) return;
      this.frame = frame;
      this.step = frame.step;
      this.seat = frame.seat;
      this.aim = null;
      this.draw();
    } catch (err) {
      if (ticket !== this.wanted) return;
      this.aim = null;
      if (!this.frame) {
        fill(this.root, h("section", { class: "panel" }, h("h1", {}, _("This game cannot be replayed")),
          h("p", { dataset: { testid: "replay-error" } }, err.message), h("a", { class: "button", href: "/replay" }, _("Replay a record file"))));
        document.body.dataset.status = "error";
      } else {
        this.ui.banner(err.message);
        document.body.dataset.status = "replay";
      }
    }
  }

  draw() {
    const f = this.frame;
    const names = f.names;
    const slider = h("input", { type: "range", min: "0", max: String(f.steps), value: String(f.step), "aria-label": _("step"),
      dataset: { testid: "replay-slider" } });
    slider.addEventListener("input", () => this.go(Number(slider.value)));
    const seatSelect = h("select", { "aria-label": _("whose view"), dataset: { testid: "replay-seat" }, onchange: (e) => {
      this.go(this.step, e.target.value === "" ? null : Number(e.target.value));
    } }, h("option", { value: "", selected: f.seat === null }, _("Spectator (public table)")),
    names.map((n, i) => h("option", { value: String(i), selected: f.seat === i }, _("{name}'s view", { name: n }))));
    const button = (testid, label, to, title) => h("button", { class: "ghost", dataset: { testid }, title,
      disabled: to < 0 || to > f.steps || to === f.step, onclick: () => this.go(to) }, label);
    const controls = h("div", { class: "replay-controls" },
      button("replay-first", _("First"), 0, _("the deal (Home)")),
      button("replay-prev", _("◀ Back"), f.step - 1, _("the previous move (←)")),
      h("span", { class: "replay-step", dataset: { testid: "replay-step" } }, _("Move {step} of {steps}", { step: f.step, steps: f.steps })),
      button("replay-next", _("Next ▶"), f.step + 1, _("the next move (→)")),
      button("replay-last", _("Last"), f.steps, _("the end (End)")),
      slider, seatSelect);
    const move = f.step === 0 ? _("The deal: no move yet.")
      : f.move.map((e) => e.text).join(" ");
    const toMove = f.over ? _("Game over") : f.to_move === null ? "" : _("{name} to move ({decision})", { name: names[f.to_move], decision: f.decision });
    const from = f.source === "game" ? h("a", { href: `/game/${encodeURIComponent(f.game_id)}` }, _("the game's table")) : _("a record file");
    fill(this.root, h("div", { class: "game replay" },
      h("section", { class: "prompt replay-head" },
        h("div", { class: "prompt-text" },
          h("p", { class: "ask" }, ngettext("Replay of {title}: {n} player", "Replay of {title}: {n} players", f.players, { title: f.game_title }),
            " · ", _("from"), " ", from),
          h("p", { class: "sub", dataset: { testid: "replay-move" } }, move),
          h("p", { class: "sub" }, _("Turn {turn} · {state}", { turn: f.turn, state: toMove }))),
        controls),
      h("div", { class: "board" },
        h("div", { class: "main-col" }, this.middle(), this.hand(), this.forests()),
        h("aside", { class: "side-col" }, this.running(), this.log()))));
    document.title = _("Replay · move {step} of {steps} · {title}", { step: f.step, steps: f.steps, title: f.game_title });
    document.body.dataset.status = "replay";
    document.body.dataset.step = String(f.step);
    document.body.dataset.seat = f.seat === null ? "" : String(f.seat);
    const log = this.root.querySelector(".log-list");
    if (log) log.scrollTop = log.scrollHeight;
  }

  tile(id) {
    return cardTile(this.cat, id, { short: true });
  }

  middle() {
    const v = this.frame.view;
    return h("section", { class: "middle" },
      h("div", { class: "pile" }, h("div", { class: "deck" }, h("span", { class: "deck-count" }, v.deck_size), h("span", { class: "deck-word" }, _("Deck"))),
        h("div", { class: "winter-row" }, h("span", { class: "winter-words" }, _("{n} winter", { n: v.winter.length })))),
      h("div", { class: "clearing" }, h("h2", {}, _("Clearing"), " ", h("small", {}, ngettext("{n} card", "{n} cards", v.clearing.length))),
        h("div", { class: "tiles", dataset: { testid: "replay-clearing" } },
          v.clearing.length ? v.clearing.map((id) => this.tile(id)) : h("p", { class: "empty" }, _("The clearing is empty.")))));
  }

  hand() {
    const f = this.frame;
    if (f.seat === null) return null;
    const v = f.view;
    return h("section", { class: "hand" },
      h("div", { class: "hand-head" }, h("h2", {}, _("{name}'s hand", { name: f.names[f.seat] }), h("small", {}, ` ${v.hand.length}`)),
        v.own_cave.length ? h("span", { class: "facts" }, ngettext("cave: {n} card", "cave: {n} cards", v.own_cave.length)) : null),
      h("div", { class: "tiles", dataset: { testid: "replay-hand" } },
        v.hand.length ? v.hand.map((id) => this.tile(id)) : h("p", { class: "empty" }, _("No cards in hand."))));
  }

  forests() {
    const f = this.frame;
    const v = f.view;
    const cat = this.cat;
    return h("section", { class: "others replay-forests" }, v.forests.map((forest, seat) =>
      h("section", { class: "forest theirs", dataset: { testid: `replay-forest-${seat}`, seat } },
        h("div", { class: "forest-head" }, h("h2", {}, _("{name}'s forest", { name: f.names[seat] })),
          h("span", { class: "facts" }, _("{hosts} · cave {cave} · hand {hand}", { hosts: ngettext("{n} tree", "{n} trees", forest.length), cave: v.cave_sizes[seat], hand: v.hand_sizes[seat] })),
          f.to_move === seat && !f.over ? h("span", { class: "to-move" }, _("to move")) : null),
        h("div", { class: "trees" }, forest.length ? forest.map((tree, i) => {
          const half = tree.sapling || !tree.card ? null : cat.half(tree.card, "tree");
          // Dartmoor has no saplings: a card face down there is a universal moor
          const universal = ((v.universal_moors || [])[seat] || []).includes(i);
          const faceDown = universal ? _("Universal moor") : _("Sapling");
          return h("div", { class: "tree", dataset: { tree: i + 1, card: tree.card || null } },
            h("div", { class: `trunk ${tree.sapling ? "sapling" : symClass(half ? half.symbol : "")}`, title: universal ? _("a card face down: a universal moor") : tree.card ? cat.text(tree.card) : _("a sapling") },
              h("span", { class: "num" }, i + 1), h("span", { class: "tname" }, half ? half.name : faceDown)),
            SIDES.map((side) => h("div", { class: `slot slot-${side} ${(tree.slots[side] || []).length ? "full" : "open"}` },
              (tree.slots[side] || []).length
                ? (tree.slots[side] || []).map((id) => h("div", { class: "dweller", dataset: { card: id }, title: cat.text(id) },
                  h("span", { class: "dname" }, (cat.half(id, side) || { name: "?" }).name)))
                : h("span", { class: "arrow" }, ARROWS[side]))));
        }) : h("p", { class: "empty" }, _("No trees yet."))))));
  }

  running() {
    const f = this.frame;
    const keys = Object.keys((f.running[0] || { lines: {} }).lines);
    return h("section", { class: "running" }, h("h2", {}, _("Score at this move")),
      h("table", { class: "score-pad running-pad", dataset: { testid: "replay-score" } },
        h("thead", {}, h("tr", {}, h("th", {}, ""), f.names.map((n) => h("th", { title: n }, n)))),
        h("tbody", {},
          keys.map((k) => h("tr", {}, h("th", {}, lineWords(k)), f.running.map((r) => h("td", {}, r.lines[k])))),
          h("tr", { class: "total" }, h("th", {}, _("Total")), f.running.map((r) => h("td", {}, r.total))))));
  }

  log() {
    const f = this.frame;
    const items = f.log.slice(-80).map((e) => h("li", { class: e.seat === null || e.seat === undefined ? "general" : "" }, e.text));
    return h("section", { class: "log" }, h("h2", {}, _("Game log to this move")),
      h("ul", { class: "log-list", dataset: { testid: "replay-log" } }, items));
  }
}
