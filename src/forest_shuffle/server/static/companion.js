// The solo companion (docs/pad.md, "The solo companion"): Dartmoor alone against Anna with
// the physical cards. The server holds Anna's automa deck and says, step by step, what she
// does (GET/POST /api/companion); this page only words those steps and asks the player to
// confirm each. Scores, goals and medals are the server's (the engine's), never counted here.

import { h, fill } from "/static/dom.js";

// Every word of the page, in one table (to move into the catalogs with the other pages').
const cards = (n) => `${n} ${n === 1 ? "card" : "cards"}`;
const WORDS = {
  title: "Solo companion",
  startHeading: "Dartmoor solo at the table",
  startIntro: (automa) => `Play Dartmoor alone with your own cards against ${automa}. This page keeps ${automa}'s automa deck and tells you, step by step, what to do on the table.`,
  challenge: "Challenge",
  medal: "Medal aimed at",
  noMedal: "none in particular",
  name: "Your name",
  namePlaceholder: "Player",
  start: "Start the game",
  resume: "Continue the game in progress",
  padLink: "Score pad",
  browserLink: "Play in the browser",
  thresholds: (t) => Object.entries(t).map(([m, pts]) => `${m} ${pts}`).join(" · "),
  status: (g) => g.phase === "setup" ? `Challenge ${g.challenge.number} · setup`
    : `Challenge ${g.challenge.number} · turn ${g.turn} · ${g.automa}: ${cards(g.automa_left)} left`,
  setupHeading: (i, n) => `Setup, step ${i} of ${n}`,
  playerHeading: (turn) => `Your turn ${turn}`,
  annaHeading: (automa, turn) => `${automa}'s turn ${turn}`,
  overHeading: "The game is over",
  done: "Done",
  turnDone: "My turn is done",
  winter: "The winter card came up",
  winterSure: "Yes: the winter card came up, the game ends",
  back: "Back one step",
  cancel: "Cancel",
  reshuffled: (automa) => `${automa}'s deck ran out: her cards were shuffled into a new deck.`,
  card: (automa, c) => `${automa}'s card ${c.number}`,
  cardParts: (c) => [c.add ? `+${c.add} to the clearing` : "", c.remove ? `−${c.remove} from the ${c.side}` : "",
    c.burn ? `${c.burn} to the box` : ""].filter(Boolean),
  steps: {
    winter_aside: (s) => `Take the winter cards out of the deck. Keep ${s.name} aside for now and put the other ${s.cards} back into the box.`,
    box: (s) => `Shuffle the deck and put ${cards(s.cards)} into the box, face down and unseen.`,
    deal: (s) => `Draw ${cards(s.cards)}: your hand.`,
    start_card: (s) => `Look through the deck for the ${s.name} cards, take one of them at random into your hand (if the deck has none, take one from the box and put the deck's top card into the box instead), then shuffle the deck.`,
    winter_bottom: (s) => `Take the bottom ${cards(s.cards)} of the deck, shuffle the winter card into them and put them back under the deck.`,
    cave: (s) => `Take cave ${s.cards} (no other cave) and resolve it now: ${s.name}`,
    start: () => "You always start. Tap Done to begin your first turn.",
    player: (s) => `Play your turn on the table as usual, with any extra turn (a Barn Owl's). If the clearing then holds ${s.cards} or more cards, put them all on the discard pile. Then tap "My turn is done".`,
    add: (s) => `Turn ${s.cards === 1 ? "the top card" : `the top ${s.cards} cards`} of the deck face up, one at a time, and lay ${s.cards === 1 ? "it" : "them"} at the ${s.side} end of the clearing, after the newest card.`,
    remove: (s) => `Put the ${s.cards === 1 ? "card" : `${s.cards} cards`} at the ${s.side} end of the clearing (${s.side === "left" ? "the oldest" : "the newest"}) face up on the discard pile; if it holds fewer, all of them.`,
    burn: (s) => `Put the top ${s.cards === 1 ? "card" : `${s.cards} cards`} of the deck into the box face down, unseen; check only whether the winter card is among them.`,
    clearing: (s) => `If the clearing now holds ${s.cards} or more cards, put them all on the discard pile.`,
  },
  stepShort: {
    add: (s) => `Add ${s.cards} to the ${s.side}`, remove: (s) => `Remove ${s.cards} from the ${s.side}`,
    burn: (s) => `${s.cards} to the box`, clearing: () => "Clearing check",
  },
  winterHint: "If the winter card comes up in this step, the game ends at once.",
  overWinter: "The winter card came up: the game ends at once.",
  enterForest: "Enter your forest in the score pad",
  enterFirst: "Enter your forest in the score pad, then come back here: the score, the goal and the medal show here.",
  refresh: "Show the result again",
  turned: (automa, list) => `${automa}'s cards so far: ${list.join(", ")}`,
  noGame: "No game in progress on this phone.",
};

const state = { challenges: null, game: null, error: "", askWinter: false, busy: false };

async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new Error("The server cannot be reached.");
  }
  let data = null;
  try { data = await r.json(); } catch (err) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || `The server answered ${r.status}.`);
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
  if (!data) return h("p", {}, "Loading…");
  const pick = h("select", { "aria-label": WORDS.challenge, "data-testid": "co-challenge", onchange: () => show() },
    data.challenges.map((c) => h("option", { value: String(c.number) }, `${c.number}. ${c.title}`)));
  const medal = h("select", { "aria-label": WORDS.medal, "data-testid": "co-medal" },
    h("option", { value: "" }, WORDS.noMedal), data.medals.map((m) => h("option", { value: m }, m)));
  const name = h("input", { maxlength: 40, placeholder: WORDS.namePlaceholder, "aria-label": WORDS.name, "data-testid": "co-name" });
  const goal = h("p", { class: "co-goal", "data-testid": "co-goal" });
  const show = () => {
    const c = data.challenges.find((x) => String(x.number) === pick.value) || data.challenges[0];
    fill(goal, c.words);
  };
  show();
  let last = null;
  try { last = localStorage.getItem(LAST); } catch (err) { last = null; }
  return h("section", { class: "co-start" },
    h("h1", {}, WORDS.startHeading),
    h("p", {}, WORDS.startIntro(data.automa)),
    last ? h("a", { class: "co-button co-ghost", href: `/companion/${encodeURIComponent(last)}`, "data-testid": "co-resume" }, WORDS.resume) : null,
    h("label", {}, WORDS.challenge, pick), goal,
    h("label", {}, WORDS.medal, medal),
    h("label", {}, WORDS.name, name),
    h("button", { class: "co-main", "data-testid": "co-start", disabled: state.busy,
      onclick: () => start(Number(pick.value), medal.value, name.value.trim()) }, WORDS.start),
    h("nav", { class: "co-links" }, h("a", { href: "/pad" }, WORDS.padLink), h("a", { href: "/" }, WORDS.browserLink)));
}

function AnnaCard(g) {
  const c = g.card;
  return h("div", { class: "co-card", "data-testid": "co-card", "data-number": c.number },
    h("div", { class: "co-card-name" }, WORDS.card(g.automa, c)),
    h("ul", {}, WORDS.cardParts(c).map((p) => h("li", {}, p))));
}

function Steps(g) {
  if (g.phase !== "anna") return null;
  return h("ol", { class: "co-steps", "data-testid": "co-steps" }, g.steps.map((s, i) =>
    h("li", { class: i < g.step ? "past" : i === g.step ? "now" : "" }, WORDS.stepShort[s.kind](s))));
}

function Actions(g, here) {
  if (state.askWinter) {
    return h("div", { class: "co-actions" },
      h("button", { class: "co-main co-winter", "data-testid": "co-winter-sure", onclick: () => send("winter") }, WORDS.winterSure),
      h("button", { onclick: () => { state.askWinter = false; render(); } }, WORDS.cancel));
  }
  return h("div", { class: "co-actions" },
    h("button", { class: "co-main", "data-testid": "co-next", disabled: state.busy, onclick: () => send("next") },
      g.phase === "player" ? WORDS.turnDone : WORDS.done),
    here.deck ? h("button", { class: "co-winter-ask", "data-testid": "co-winter", onclick: () => { state.askWinter = true; render(); } }, WORDS.winter) : null,
    g.can_go_back ? h("button", { class: "co-back", "data-testid": "co-back", disabled: state.busy, onclick: () => send("back") }, WORDS.back) : null);
}

function PadLink(g) {
  return h("a", { class: "co-button", href: g.pad.link, "data-testid": "co-pad", onclick: () => rememberPad(g) }, WORDS.enterForest);
}

function Result(g) {
  const r = g.result;
  return h("section", { class: "co-result", "data-testid": "co-result" },
    h("p", {}, WORDS.overWinter),
    r.entered ? h("ul", { "data-testid": "co-result-words" }, r.words.map((w) => h("li", {}, w)))
      : h("p", { "data-testid": "co-enter-first" }, WORDS.enterFirst),
    r.medal ? h("p", { class: `co-medal ${r.medal}`, "data-testid": "co-medal-won" }, r.medal) : null,
    PadLink(g),
    h("button", { "data-testid": "co-refresh", onclick: reload }, WORDS.refresh),
    g.can_go_back ? h("button", { class: "co-back", "data-testid": "co-back", onclick: () => send("back") }, WORDS.back) : null);
}

function Game() {
  const g = state.game;
  const goal = h("p", { class: "co-goal", "data-testid": "co-goal" }, g.challenge.words);
  if (g.phase === "over") {
    return h("section", {}, h("h1", {}, WORDS.overHeading), goal, Result(g), Turned(g));
  }
  const here = g.steps[g.step];
  const heading = g.phase === "setup" ? WORDS.setupHeading(g.step + 1, g.steps.length)
    : g.phase === "player" ? WORDS.playerHeading(g.turn) : WORDS.annaHeading(g.automa, g.turn);
  return h("section", { class: `co-game co-${g.phase}` },
    h("h1", { "data-testid": "co-heading" }, heading),
    g.phase === "anna" ? AnnaCard(g) : null,
    g.phase === "anna" && g.reshuffled && g.step === 0 ? h("p", { class: "co-note" }, WORDS.reshuffled(g.automa)) : null,
    Steps(g),
    h("p", { class: "co-say", "data-testid": "co-say", "data-kind": here.kind }, WORDS.steps[here.kind](here)),
    here.deck && g.phase !== "player" ? h("p", { class: "co-note" }, WORDS.winterHint) : null,
    Actions(g, here),
    goal,
    g.phase !== "setup" ? h("p", { class: "co-links" }, PadLink(g)) : null,
    Turned(g));
}

function Turned(g) {
  return g.turned.length ? h("p", { class: "co-turned", "data-testid": "co-turned" }, WORDS.turned(g.automa, g.turned)) : null;
}

function render() {
  const g = state.game;
  fill(document.getElementById("co-status"), g ? WORDS.status(g) : "");
  const err = document.getElementById("co-error");
  err.hidden = !state.error;
  fill(err, state.error);
  const root = document.getElementById("co-root");
  if (g) return fill(root, Game());
  if (location.pathname.startsWith("/companion/")) return fill(root, h("p", {}, WORDS.noGame));
  fill(root, Start());
}

async function main() {
  const m = location.pathname.match(/^\/companion\/([^/]+)$/);
  try {
    if (m) {
      state.game = await call("GET", `/api/companion/${m[1]}`);
      rememberPad(state.game);
    } else {
      state.challenges = await call("GET", "/api/solo");
    }
  } catch (err) {
    state.error = err.message;
  }
  render();
}

main();
