// The solo companion (docs/pad.md, "The solo companion"): Dartmoor alone against Anna with
// the physical cards. The server holds Anna's automa deck and says, step by step, what she
// does (GET/POST /api/companion); this page only words those steps and asks the player to
// confirm each. Scores, goals and medals are the server's (the engine's), never counted here.

import { h, fill, live, patch } from "/static/dom.js";
import { _, lang, listWords, ngettext, pgettext } from "/static/i18n.js";

// Every word of the page is a message of the `page` catalog (docs/i18n.md): whole
// sentences with named placeholders, a plural form chosen by each language, the clearing's
// ends and the medals in a context. The server sends the steps as data (kind, cards, side,
// name); Anna's name, species and the cave's text come as data and are shown as they come.

/** A medal's name in the page's language (the server's key: bronze, silver, gold). */
function medalName(m) {
  return m === "bronze" ? pgettext("medal", "bronze") : m === "silver" ? pgettext("medal", "silver")
    : m === "gold" ? pgettext("medal", "gold") : m;
}

/** The medals and their points ("bronze 200 · silver 250 · gold 300"). */
function thresholdWords(t) {
  return Object.entries(t || {}).map(([m, pts]) => _("{medal}: {n} points", { medal: medalName(m), n: pts })).join(" · ");
}

/** The challenge, its medals and the one played for, in one sentence. */
function challengeWords(c, medal) {
  const medals = thresholdWords(c.thresholds);
  return medal
    ? _("Challenge {number}: {title}. Medals: {medals}. You play for {medal} ({n} points).",
      { number: c.number, title: c.title, medals, medal: medalName(medal), n: c.thresholds[medal] })
    : _("Challenge {number}: {title}. Medals: {medals}.", { number: c.number, title: c.title, medals });
}

function status(g) {
  if (g.phase === "setup") return _("Challenge {number} · setup", { number: g.challenge.number });
  return ngettext("Challenge {number} · turn {turn} · {automa}: {n} card left",
    "Challenge {number} · turn {turn} · {automa}: {n} cards left", g.automa_left,
    { number: g.challenge.number, turn: g.turn, automa: g.automa });
}

function cardParts(c) {
  const out = [];
  if (c.add) out.push(_("+{n} to the clearing", { n: c.add }));
  if (c.remove) out.push(c.side === "left" ? _("−{n} from the left end", { n: c.remove }) : _("−{n} from the right end", { n: c.remove }));
  if (c.burn) out.push(_("{n} into the box", { n: c.burn }));
  return out;
}

/** A step of the setup or of a turn in one sentence (`s`: {kind, cards, side, name}). */
function stepWords(s) {
  const n = s.cards;
  switch (s.kind) {
    case "winter_aside":
      return ngettext("Take the winter cards out of the deck. Keep {kept} aside for now and put the other one back into the box.",
        "Take the winter cards out of the deck. Keep {kept} aside for now and put the other {n} back into the box.", n, { kept: s.name });
    case "box":
      return ngettext("Shuffle the deck and put {n} card into the box, face down and unseen.",
        "Shuffle the deck and put {n} cards into the box, face down and unseen.", n);
    case "deal":
      return ngettext("Draw {n} card: your hand.", "Draw {n} cards: your hand.", n);
    case "start_card":
      return _("Look through the deck for the {name} cards, take one of them at random into your hand (if the deck has none, take one from the box and put the deck's top card into the box instead), then shuffle the deck.", { name: s.name });
    case "winter_bottom":
      return ngettext("Take the bottom card of the deck, shuffle the winter card with it and put them back under the deck.",
        "Take the bottom {n} cards of the deck, shuffle the winter card into them and put them back under the deck.", n);
    case "cave":
      return _("Take cave {number} (no other cave) and resolve it now: {text}", { number: n, text: s.name });
    case "start":
      return _("You always start. Tap “{done}” to begin your first turn.", { done: _("Done") });
    case "player":
      return ngettext("Play your turn on the table as usual, with any extra turn it gives you. If the clearing then holds {n} or more cards, put them all on the discard pile. Then tap “{done}”.",
        "Play your turn on the table as usual, with any extra turn it gives you. If the clearing then holds {n} or more cards, put them all on the discard pile. Then tap “{done}”.", n, { done: _("My turn is done") });
    case "add":
      return s.side === "left"
        ? ngettext("Turn the top card of the deck face up and lay it at the left end of the clearing, before the oldest card.",
          "Turn the top {n} cards of the deck face up, one at a time, and lay them at the left end of the clearing, before the oldest card.", n)
        : ngettext("Turn the top card of the deck face up and lay it at the right end of the clearing, after the newest card.",
          "Turn the top {n} cards of the deck face up, one at a time, and lay them at the right end of the clearing, after the newest card.", n);
    case "remove":
      return s.side === "left"
        ? ngettext("Put the card at the left end of the clearing (the oldest) face up on the discard pile.",
          "Put the {n} cards at the left end of the clearing (the oldest) face up on the discard pile; if it holds fewer, all of them.", n)
        : ngettext("Put the card at the right end of the clearing (the newest) face up on the discard pile.",
          "Put the {n} cards at the right end of the clearing (the newest) face up on the discard pile; if it holds fewer, all of them.", n);
    case "burn":
      return ngettext("Put the top card of the deck into the box face down, unseen; check only whether it is the winter card.",
        "Put the top {n} cards of the deck into the box face down, unseen; check only whether the winter card is among them.", n);
    case "clearing":
      return ngettext("If the clearing now holds {n} or more cards, put them all on the discard pile.",
        "If the clearing now holds {n} or more cards, put them all on the discard pile.", n);
    default:
      return s.kind;
  }
}

/** A step of Anna's turn in a few words (the row of her steps). */
function stepShort(s) {
  switch (s.kind) {
    case "add": return s.side === "left" ? _("Add {n} on the left", { n: s.cards }) : _("Add {n} on the right", { n: s.cards });
    case "remove": return s.side === "left" ? _("Remove {n} on the left", { n: s.cards }) : _("Remove {n} on the right", { n: s.cards });
    case "burn": return _("{n} into the box", { n: s.cards });
    case "clearing": return _("Clearing check");
    default: return s.kind;
  }
}

/** The end of the game in sentences, from the result's facts (the server's counts). */
function resultWords(r, aimed) {
  const out = [r.goal_met ? _("Goal: {have} of {need}, met.", { have: r.have, need: r.need })
    : _("Goal: {have} of {need}, not met.", { have: r.have, need: r.need }),
  ngettext("Score: {n} point.", "Score: {n} points.", r.score)];
  if (r.medal) out.push(_("Medal: {medal}.", { medal: medalName(r.medal) }));
  else if (!r.goal_met) out.push(_("No medal: the goal is not met."));
  else {
    const [low, pts] = Object.entries(state.game.challenge.thresholds)[0] || ["", 0];
    out.push(ngettext("No medal: {medal} needs {n} point.", "No medal: {medal} needs {n} points.", pts, { medal: medalName(low) }));
  }
  if (aimed) out.push(r.won ? _("The medal you aimed at ({medal}): won.", { medal: medalName(aimed) })
    : _("The medal you aimed at ({medal}): not won.", { medal: medalName(aimed) }));
  return out;
}

// pick, medal: the start form's choices (its goal words are drawn from them)
const state = { challenges: null, game: null, error: "", askWinter: false, busy: false, pick: "", medal: "" };

async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    // the page's language: the names of species in the answer are as printed in its edition
    const url = `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;
    r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new Error(_("The server cannot be reached."));
  }
  let data = null;
  try { data = await r.json(); } catch (err) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || _("The server answered {status}.", { status: r.status }));
  return data;
}

const LAST = "companion:last";

// The pad page finds the seat's and host's tokens of the linked table here, as for a
// table it opened itself, and a link back to this game.
function rememberPad(g) {
  try {
    localStorage.setItem(`pad:${g.pad.table}`, JSON.stringify({
      seat: g.pad.seat, token: g.pad.token, host: g.pad.host, companion: g.token }));
    localStorage.setItem(LAST, g.token);
  } catch (err) { /* private mode: the link still works */ }
}

async function start(challenge, medal, name) {
  state.busy = true;
  render();
  try {
    const body = { challenge };
    if (medal) body.medal = medal;
    if (name) body.name = name;
    const g = await call("POST", "/api/companion", body);
    rememberPad(g);
    location.href = `/companion/${encodeURIComponent(g.token)}`;
  } catch (err) {
    state.error = err.message;
    state.busy = false;
    render();
  }
}

async function send(doIt) {
  if (state.busy) return;
  state.busy = true;
  try {
    state.game = await call("POST", `/api/companion/${encodeURIComponent(state.game.token)}/steps`,
      { seq: state.game.seq, do: doIt });
    state.error = "";
  } catch (err) {
    state.error = err.message;
    try { state.game = await call("GET", `/api/companion/${encodeURIComponent(state.game.token)}`); } catch (e) { /* keep */ }
  }
  state.busy = false;
  state.askWinter = false;
  render();
}

async function reload() {
  try {
    state.game = await call("GET", `/api/companion/${encodeURIComponent(state.game.token)}`);
    state.error = "";
  } catch (err) { state.error = err.message; }
  render();
}

// ------------------------------------------------------------------ components

function Start() {
  const data = state.challenges;
  if (!data) return h("p", {}, _("Loading…"));
  const choose = (e) => { state[e.currentTarget.dataset.choice] = e.currentTarget.value; render(); };
  const pick = h("select", { "aria-label": _("Challenge"), "data-testid": "co-challenge", "data-choice": "pick", onchange: choose },
    data.challenges.map((c) => h("option", { value: String(c.number), selected: String(c.number) === state.pick }, `${c.number}. ${c.title}`)));
  const medal = h("select", { "aria-label": _("Medal aimed at"), "data-testid": "co-medal", "data-choice": "medal", onchange: choose },
    h("option", { value: "" }, _("none in particular")), data.medals.map((m) => h("option", { value: m, selected: m === state.medal }, medalName(m))));
  const name = h("input", { maxlength: 40, placeholder: _("Player"), "aria-label": _("Your name"), "data-testid": "co-name" });
  const c = data.challenges.find((x) => String(x.number) === state.pick) || data.challenges[0];
  const goal = h("p", { class: "co-goal", "data-testid": "co-goal" }, challengeWords(c, state.medal));
  let last = null;
  try { last = localStorage.getItem(LAST); } catch (err) { last = null; }
  return h("section", { class: "co-start" },
    h("h1", {}, _("Dartmoor solo at the table")),
    h("p", {}, _("Play Dartmoor alone with your own cards against {automa}. This page keeps {automa}'s automa deck and tells you, step by step, what to do on the table.", { automa: data.automa })),
    last ? h("a", { class: "co-button co-ghost", href: `/companion/${encodeURIComponent(last)}`, "data-testid": "co-resume" }, _("Continue the game in progress")) : null,
    h("label", {}, _("Challenge"), pick), goal,
    h("label", {}, _("Medal aimed at"), medal),
    h("label", {}, _("Your name"), name),
    h("button", { class: "co-main", "data-testid": "co-start", disabled: state.busy,
      onclick: () => start(Number(live(pick).value), live(medal).value, live(name).value.trim()) }, _("Start the game")),
    h("nav", { class: "co-links" }, h("a", { href: "/pad" }, _("Score pad")), h("a", { href: "/" }, _("Play in the browser"))));
}

function AnnaCard(g) {
  const c = g.card;
  return h("div", { class: "co-card", "data-testid": "co-card", "data-number": c.number },
    h("div", { class: "co-card-name" }, _("{automa}'s card {number}", { automa: g.automa, number: c.number })),
    h("ul", {}, cardParts(c).map((p) => h("li", {}, p))));
}

function Steps(g) {
  if (g.phase !== "anna") return null;
  return h("ol", { class: "co-steps", "data-testid": "co-steps" }, g.steps.map((s, i) =>
    h("li", { class: i < g.step ? "past" : i === g.step ? "now" : "" }, stepShort(s))));
}

function Actions(g, here) {
  if (state.askWinter) {
    return h("div", { class: "co-actions" },
      h("button", { class: "co-main co-winter", "data-testid": "co-winter-sure", onclick: () => send("winter") }, _("Yes: the winter card came up, the game ends")),
      h("button", { onclick: () => { state.askWinter = false; render(); } }, _("Cancel")));
  }
  return h("div", { class: "co-actions" },
    h("button", { class: "co-main", "data-testid": "co-next", disabled: state.busy, onclick: () => send("next") },
      g.phase === "player" ? _("My turn is done") : _("Done")),
    here.deck ? h("button", { class: "co-winter-ask", "data-testid": "co-winter", onclick: () => { state.askWinter = true; render(); } }, _("The winter card came up")) : null,
    g.can_go_back ? h("button", { class: "co-back", "data-testid": "co-back", disabled: state.busy, onclick: () => send("back") }, _("Back one step")) : null);
}

function PadLink(g) {
  return h("a", { class: "co-button", href: g.pad.link, "data-testid": "co-pad", onclick: () => rememberPad(g) }, _("Enter your forest in the score pad"));
}

function Result(g) {
  const r = g.result;
  return h("section", { class: "co-result", "data-testid": "co-result" },
    h("p", {}, _("The winter card came up: the game ends at once.")),
    r.entered ? h("ul", { "data-testid": "co-result-words" }, resultWords(r, g.medal).map((w) => h("li", {}, w)))
      : h("p", { "data-testid": "co-enter-first" }, _("Enter your forest in the score pad, then come back here: the score, the goal and the medal show here.")),
    r.medal ? h("p", { class: `co-medal ${r.medal}`, "data-testid": "co-medal-won", "data-medal": r.medal }, medalName(r.medal)) : null,
    PadLink(g),
    h("button", { "data-testid": "co-refresh", onclick: reload }, _("Show the result again")),
    g.can_go_back ? h("button", { class: "co-back", "data-testid": "co-back", onclick: () => send("back") }, _("Back one step")) : null);
}

function Game() {
  const g = state.game;
  const goal = h("p", { class: "co-goal", "data-testid": "co-goal" }, challengeWords(g.challenge, g.medal));
  if (g.phase === "over") {
    return h("section", {}, h("h1", {}, _("The game is over")), goal, Result(g), Turned(g));
  }
  const here = g.steps[g.step];
  const heading = g.phase === "setup" ? _("Setup, step {i} of {n}", { i: g.step + 1, n: g.steps.length })
    : g.phase === "player" ? _("Your turn {turn}", { turn: g.turn }) : _("{automa}'s turn {turn}", { automa: g.automa, turn: g.turn });
  return h("section", { class: `co-game co-${g.phase}` },
    h("h1", { "data-testid": "co-heading" }, heading),
    g.phase === "anna" ? AnnaCard(g) : null,
    g.phase === "anna" && g.reshuffled && g.step === 0 ? h("p", { class: "co-note" }, _("{automa}'s deck ran out: her cards were shuffled into a new deck.", { automa: g.automa })) : null,
    Steps(g),
    h("p", { class: "co-say", "data-testid": "co-say", "data-kind": here.kind }, stepWords(here)),
    here.deck && g.phase !== "player" ? h("p", { class: "co-note" }, _("If the winter card comes up in this step, the game ends at once.")) : null,
    Actions(g, here),
    goal,
    g.phase !== "setup" ? h("p", { class: "co-links" }, PadLink(g)) : null,
    Turned(g));
}

function Turned(g) {
  return g.turned.length ? h("p", { class: "co-turned", "data-testid": "co-turned" }, _("{automa}'s cards so far: {cards}", { automa: g.automa, cards: listWords(g.turned) })) : null;
}

function render() {
  const g = state.game;
  fill(document.getElementById("co-status"), g ? status(g) : "");
  const err = document.getElementById("co-error");
  err.hidden = !state.error;
  fill(err, state.error);
  const root = document.getElementById("co-root");
  // patch, not fill: a redraw keeps a name being typed, the focus and the scroll
  if (g) return patch(root, Game());
  if (location.pathname.startsWith("/companion/")) return patch(root, h("p", {}, _("No game in progress on this phone.")));
  patch(root, Start());
}

async function main() {
  const m = location.pathname.match(/^\/companion\/([^/]+)$/);
  try {
    if (m) {
      state.game = await call("GET", `/api/companion/${m[1]}`);
      rememberPad(state.game);
    } else {
      state.challenges = await call("GET", "/api/companion");
    }
  } catch (err) {
    state.error = err.message;
  }
  render();
}

main();
