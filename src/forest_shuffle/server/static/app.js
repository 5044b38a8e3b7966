// Forest Shuffle in the browser: the lobby at "/", a game at "/game/{id}?token=...".
// The page draws one viewer's payload (docs/web.md) and turns clicks into action texts.
import { Live, api, loadSeats, rememberCreated, saveSeats } from "./api.js";
import { ARROWS, Catalog, SIDES, cardDetail, cardTile, fitNames, lineWords, pointsWords, shortName, sideWord, symbolWord, symClass } from "./cards.js";
import { fill, h, patch } from "./dom.js";
import { _, lang, format, listWords, ngettext, pgettext } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { Animator } from "./anim.js";
import { Coach } from "./coach.js";
import { reviewSection } from "./review.js";
import { showReplay } from "./replay.js";
import { soloPanel } from "./solo.js";

const root = document.getElementById("root");
const bannerEl = document.getElementById("banner");
const statusEl = document.getElementById("status");
const handoverEl = document.getElementById("handover");
const detailEl = document.getElementById("detail");
const titleEl = document.getElementById("game-title");
const announceEl = document.getElementById("announce"); // the polite live region of turns

const LINES = ["trees", "top_bottom", "left_right", "cave"].map((key) => [key, lineWords(key)]);
/** The game's limits come with each payload (hand_limit, clearing_limit, winter_to_end). */
/** Where to click for the decisions whose cards lie on the table (the question is the server's). */
const CLICK_HINTS = {
  take: _("Click a lit card of the clearing to take it into your hand."),
  "clearing cave": _("Click the lit cards of the clearing in any order, then confirm: they go under your cave."),
  saplings: _("Click the cards of your hand to play them face down as saplings, then Done."),
  "winter reprieve": _("Yes puts the third winter card back into the deck and the game goes on; No ends the game now."),
};
/** Decisions whose Yes and No buttons say what each does (the server's words for them). */
const WORDED_ANSWERS = new Set(["winter reprieve"]);
const TREE_ICON = '<svg viewBox="0 0 20 24" width="44" height="53" aria-hidden="true"><path d="M10 0 3 9h4l-5 7h5l-5 6h16l-5-6h5l-5-7h4z"/><rect x="8.5" y="21" width="3" height="3"/></svg>';

// ------------------------------------------------------------------ banner and detail

/** The layer of a log line's card preview (made once, outside the game's drawing). */
function logPreviewEl() {
  let el = document.getElementById("log-preview");
  if (!el) {
    el = h("div", { id: "log-preview", class: "log-preview", role: "tooltip", dataset: { testid: "log-preview" } });
    el.hidden = true;
    document.body.append(el);
  }
  return el;
}

let bannerTimer = null;
function banner(message, kind = "error") {
  bannerEl.textContent = message;
  bannerEl.className = `banner ${kind}`;
  bannerEl.hidden = false;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { bannerEl.hidden = true; }, kind === "error" ? 7000 : 3500);
}
bannerEl.addEventListener("click", () => { bannerEl.hidden = true; });

/** The server's points of a forest card now, for the detail of that card (null: none). */
function pointsLine(pts) {
  return pts ? h("p", { class: "points-now", dataset: { testid: "points-now" } }, h("b", {}, ngettext("{n} point now:", "{n} points now:", pts.points)), " ", pts.why) : null;
}

function openDetail(cat, id, pts = null) {
  fill(detailEl, h("button", { class: "close", "aria-label": _("close"), onclick: () => { detailEl.hidden = true; } }, "✕"),
    pointsLine(pts), cardDetail(cat, id));
  detailEl.hidden = false;
}

const ui = { banner, go: (url) => location.assign(url) };

// ------------------------------------------------------------------ the running score switch

const RUNNING_KEY = "forest-shuffle:running-score";

/** Whether this browser shows the running score (on unless switched off). */
function loadRunning() {
  try {
    return localStorage.getItem(RUNNING_KEY) !== "off";
  } catch (err) {
    return true;
  }
}

function saveRunning(on) {
  try {
    localStorage.setItem(RUNNING_KEY, on ? "on" : "off");
  } catch (err) {
    /* private mode: the switch lasts for this page only */
  }
}

// ------------------------------------------------------------------ the catalogs

const catalogs = new Map(); // game id -> Promise of its Catalog (GET /api/cards?game=...)

/** The card catalog of one game of the family, fetched once. */
function loadCatalog(game) {
  if (!catalogs.has(game)) {
    const loading = api("GET", `/api/cards?game=${encodeURIComponent(game)}&lang=${lang}`).then((data) => new Catalog(data));
    loading.catch(() => catalogs.delete(game)); // a failed fetch may be tried again
    catalogs.set(game, loading);
  }
  return catalogs.get(game);
}

/** The game's title in the header (the lobby shows none; nor does the base game, whose
 * title the brand beside it already reads). */
function showTitle(title) {
  if (!titleEl) return;
  const brand = document.querySelector("header .brand");
  titleEl.textContent = title || "";
  titleEl.hidden = !title || (!!brand && brand.textContent.trim() === title);
}

// ------------------------------------------------------------------ actions in words

/** A sentence of the server's with its first letter small, to follow a name or a colon. */
function lowerFirst(text) {
  return text.replace(/^./, (c) => c.toLowerCase());
}

function parseAction(text) {
  const w = text.split(" ");
  const a = { text, kind: w[0], card: null, side: "", tree: null };
  if (w.length >= 2) a.card = Number(w[1]);
  if (w.length >= 4) {
    a.side = w[2];
    a.tree = Number(w[3]);
  }
  return a;
}

// ------------------------------------------------------------------ the game page

class Game {
  constructor(gameId, queryToken, watch = false) {
    this.cat = null; // the catalog of the payload's game, loaded with the first payload
    this.catGame = null;
    this.waiting = null; // a payload that waits for its game's catalog
    this.gameId = gameId;
    this.seats = loadSeats(gameId);
    this.queryToken = queryToken;
    this.payload = null;
    this.selected = null;
    this.payPick = new Set(); // hand cards picked for a payment
    // Cards picked for a decision that takes several (the payload's picks: the Raccoon,
    // an effect's clearing cards for the cave, Dartmoor's discards), kept here until Confirm.
    this.choicePick = new Set();
    this.focusNext = null; // a selector to focus after the next drawing (keyboard play)
    // A play chosen and not yet sent: {action, plan} (plan: the server's pay_plans entry).
    // It stays in this page until its payment is complete, so Cancel or Escape takes it back.
    this.localPlay = null;
    this.showRunning = loadRunning();
    this.showPoints = new Set(); // seats whose forests show every card's points
    this.anim = new Animator(); // what moved between two payloads (anim.js)
    this.seen = {}; // seat -> the forest cards on the table after that seat's last action
    this.handBefore = {}; // seat -> the hand before that seat's last action (new cards show)
    this.busy = false;
    this.announced = null; // the seat and turn #announce said last (null: not its turn now)
    this.revealed = null; // the hot-seat seat whose hand was last shown
    this.handoverFor = null;
    this.token = watch ? null : queryToken || this.firstToken();
    this.connected = false;
    this.newLink = null; // the creator's newest re-issued invite link, shown under the players
    this.live = null;
    this.coach = new Coach(this); // the Suggest button (coach.js)
    this.connect(this.token);
    root.addEventListener("click", (e) => this.onClick(e));
    // a card's name in the log shows the card while pointed at or focused
    const logMark = (e) => e.target.closest && e.target.closest("[data-log-card]");
    root.addEventListener("mouseover", (e) => { const m = logMark(e); if (m) this.previewCard(m); });
    root.addEventListener("focusin", (e) => { const m = logMark(e); if (m) this.previewCard(m); });
    root.addEventListener("mouseout", (e) => { if (logMark(e)) this.hidePreview(); });
    root.addEventListener("focusout", (e) => { if (logMark(e)) this.hidePreview(); });
    window.addEventListener("scroll", () => this.hidePreview(), true); // it would float away from its name
    root.addEventListener("keydown", (e) => {
      // a real control (the i button of a card, a link, a field) does its own Enter:
      // never the tile around it
      if (e.target.closest("button, a, input, select, textarea, summary")) return;
      const el = e.target.closest("[role=button]");
      if (el && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        el.click();
      }
    });
    document.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      detailEl.hidden = true;
      this.hidePreview();
      if (this.localPlay) this.cancelPlay();
      else if (this.selected !== null || this.payPick.size || this.choicePick.size) {
        const was = this.selected;
        this.selected = null;
        this.payPick.clear();
        this.choicePick.clear();
        if (was !== null) this.focusNext = `[data-testid=hand] [data-card="${was}"]`;
        this.render();
      }
    });
    window.forestShuffle = this; // for the e2e tests and the curious
  }

  firstToken() {
    const seats = Object.keys(this.seats.tokens).map(Number).sort((a, b) => a - b);
    return seats.length ? this.seats.tokens[seats[0]] : null;
  }

  connect(token) {
    if (this.live) this.live.close();
    this.token = token;
    this.live = new Live(this.gameId, token, {
      onState: (p) => this.onState(p),
      onError: (message, status) => this.refused(message, status),
      onConnection: (up) => { this.connected = up; this.drawStatus(); },
    });
    this.live.fetch().catch((err) => this.failed(err));
  }

  cannotLoad(err) {
    fill(root, h("section", { class: "panel" }, h("h1", {}, _("The cards of this game cannot be loaded")), h("p", {}, err.message)));
    document.body.dataset.status = "error";
  }

  failed(err) {
    if (err.status === 404) {
      fill(root, h("section", { class: "panel" }, h("h1", {}, _("No such game")),
        h("p", {}, _("This game does not exist (or the server forgot it)."), " "), h("a", { href: "/", class: "button primary" }, _("Start a new game"))));
      document.body.dataset.status = "error";
    } else banner(err.message);
  }

  get hotseat() {
    return !!(this.seats.hotseat || (this.payload && this.payload.hotseat));
  }

  onState(p) {
    const game = p.game || "base";
    if (!this.cat || this.catGame !== game) {
      this.waiting = p;
      loadCatalog(game).then((cat) => {
        this.cat = cat;
        this.catGame = game;
        const next = this.waiting;
        this.waiting = null;
        if (next) this.onState(next);
      }).catch((err) => {
        if (this.payload) banner(err.message);
        else this.cannotLoad(err);
      });
      return;
    }
    const old = this.payload;
    if (old && p.game_id === old.game_id && p.you === old.you && p.version < old.version) return;
    this.payload = p;
    // a card's text opened by its i belongs to the turn it was opened in: a new turn (or the
    // end, whose score pad it would cover) closes it
    if (old && (old.view.turn !== p.view.turn || (p.over && !old.over))) detailEl.hidden = true;
    // a token that holds no seat (cut short, mistyped, of another game): say so
    this.badToken = !!this.token && (p.you === null || p.you === undefined);
    if (p.you !== null && p.you !== undefined && !this.seen[p.you]) this.seen[p.you] = this.forestCards(p);
    if (p.you !== null && p.you !== undefined && this.token && this.seats.tokens[p.you] !== this.token) {
      this.seats.tokens[p.you] = this.token;
      if (p.hotseat) this.seats.hotseat = true;
      saveSeats(this.gameId, this.seats);
    }
    if (p.rematch && this.wantRematch) this.joinRematch();
    const mine = this.selected !== null && p.view.hand.includes(this.selected) && this.myDecision();
    if (!mine) this.selected = null;
    if (this.localPlay && (!this.myDecision() || !(p.legal || []).includes(this.localPlay.action)
      || (old && old.version !== p.version && !this.busy))) this.localPlay = null;
    if (this.localPlay) this.localPlay.plan = this.planOf(this.localPlay.action) || this.localPlay.plan;
    else if (!this.myDecision() || p.decision !== "pay" || (old && old.version !== p.version && !this.busy)) this.payPick.clear();
    const shape = this.choiceShape();
    if (!shape || (old && old.version !== p.version && !this.busy)) this.choicePick.clear();
    else for (const c of [...this.choicePick]) if (!shape.cards.includes(c)) this.choicePick.delete(c);
    this.checkHandover();
    this.render();
  }

  myDecision() {
    const p = this.payload;
    return !!p && !p.over && p.you !== null && p.to_move === p.you && (p.legal || []).length > 0;
  }

  // ---------------------------------------------------------------- hot-seat hand-over

  humanSeats() {
    return Object.keys(this.seats.tokens).map(Number);
  }

  checkHandover() {
    const p = this.payload;
    if (!this.hotseat || p.over) {
      this.hideHandover();
      return;
    }
    const next = p.to_move;
    const held = next !== null && this.seats.tokens[next] !== undefined;
    if (!held || next === this.revealed) {
      if (this.handoverFor !== null && next !== this.handoverFor) this.hideHandover();
      return;
    }
    if (this.handoverFor === next) return;
    this.handoverFor = next;
    this.selected = null;
    detailEl.hidden = true; // it may show a card of the hand just hidden
    bannerEl.hidden = true;
    const name = p.seats[next].name;
    fill(handoverEl, h("div", { class: "handover-card" },
      h("div", { class: "handover-leaf", html: TREE_ICON }),
      h("h2", {}, this.revealed === null ? _("{name} begins", { name }) : _("Pass the screen to {name}", { name })),
      h("p", {}, _("{name}, click when no one else is looking: your hand will show.", { name })),
      h("button", { class: "primary big", dataset: { testid: "handover-ready" }, onclick: () => this.reveal(next) },
        _("I am {name}: show my hand", { name }))));
    handoverEl.hidden = false;
    document.body.classList.add("handing-over");
  }

  hideHandover() {
    this.handoverFor = null;
    handoverEl.hidden = true;
    document.body.classList.remove("handing-over");
  }

  reveal(seat) {
    this.revealed = seat;
    this.hideHandover();
    const token = this.seats.tokens[seat];
    if (token !== this.token) {
      this.payload = null;
      fill(root, h("p", { class: "loading" }, _("Dealing your view…")));
      document.body.dataset.status = "loading";
      this.connect(token);
    } else this.render();
  }

  // ---------------------------------------------------------------- acting

  async send(action) {
    return this.sendAll([action]);
  }

  /** Send actions one after the other (a payment of several cards); stop at a refusal. */
  async sendAll(actions) {
    if (!this.payload || this.busy) return;
    this.busy = true;
    document.body.dataset.status = "busy";
    this.selected = null;
    if (this.payload.you !== null) this.handBefore[this.payload.you] = new Set(this.payload.view.hand);
    try {
      for (const [i, action] of actions.entries()) {
        const p = this.payload;
        if (i > 0 && !(p.legal || []).includes(action)) {
          banner(_("{action} is no longer possible.", { action }));
          break;
        }
        await this.live.act(action, p.version);
      }
    } catch (err) {
      this.refused(err.message, err.status);
    } finally {
      this.busy = false;
      this.remember();
      this.render();
    }
  }

  /** Every card id in the forests (trees and dwellers) of a payload. */
  forestCards(p) {
    const ids = new Set();
    for (const forest of p.view.forests) {
      for (const tree of forest) {
        if (tree.card) ids.add(tree.card);
        for (const side of SIDES) for (const id of tree.slots[side] || []) ids.add(id);
      }
    }
    return ids;
  }

  /** The table as this seat left it: what others play afterwards shows as new. */
  remember() {
    const p = this.payload;
    if (p && p.you !== null) this.seen[p.you] = this.forestCards(p);
  }

  isFresh(id) {
    const p = this.payload;
    const seen = p && p.you !== null ? this.seen[p.you] : null;
    return !!seen && !!id && !seen.has(id);
  }

  refused(message, status) {
    if (status === 409) {
      banner(_("The game moved on meanwhile: here is the table as it is now."), "info");
      this.live.fetch().catch(() => {});
    } else if (status === 403) banner(_("Not allowed: {message}", { message }));
    else banner(_("Refused: {message}", { message }));
  }

  onClick(e) {
    const info = e.target.closest("[data-info]");
    if (info) {
      e.stopPropagation();
      openDetail(this.cat, Number(info.dataset.info));
      return;
    }
    const el = e.target.closest("[data-action]");
    const p = this.payload;
    if (el && p) {
      const action = el.dataset.action;
      if ((p.legal || []).includes(action) && !this.busy) {
        e.preventDefault();
        if (this.locked()) { // a card merely chosen (its places lit) is no move yet
          this.holdOn();
          return;
        }
        if (!this.startPlay(action)) {
          this.focusNext = null;
          this.send(action);
        }
        return;
      }
    }
    const pickEl = e.target.closest("[data-pick]");
    if (pickEl && p) {
      e.preventDefault();
      if (!this.busy) this.togglePick(Number(pickEl.dataset.pick));
      return;
    }
    const ui = e.target.closest("[data-ui]");
    if (ui) {
      if (this.locked() && ["deck", "clearing-card", "slot", "hand-card"].includes(ui.dataset.ui)) {
        e.preventDefault();
        this.holdOn();
        return;
      }
      this.onUi(ui, e);
    }
  }

  /** A move is being made in this page and not yet confirmed: a play kept until its
   * payment is picked, payment cards picked, or cards picked for a choice of several.
   * Then nothing else on the table acts until Confirm or Cancel. */
  locked() {
    return !!this.localPlay || this.payPick.size > 0 || this.choicePick.size > 0;
  }

  /** Say that the move being made waits for Confirm or Cancel (a click elsewhere). */
  holdOn() {
    if (this.choicePick.size) {
      banner(_("Finish this choice first: Confirm it, or Clear the picks (Esc)."), "info");
    } else banner(_("Finish this move first: pick the cards that pay for it, or Cancel (Esc)."), "info");
  }

  onUi(el, e) {
    const p = this.payload;
    const what = el.dataset.ui;
    if (what === "hand-card") this.clickHand(Number(el.dataset.card));
    else if (what === "deck") this.wrong(_("You cannot draw from the deck now: {prompt}"));
    else if (what === "clearing-card") {
      if (this.myDecision() && ["turn", "draw"].includes(p.decision)) {
        banner(p.view.hand.length >= p.hand_limit
          ? ngettext("Your hand is full ({n} card): you may not take more.", "Your hand is full ({n} cards): you may not take more.", p.hand_limit)
          : _("You may not take that card now."));
      } else if (this.myDecision() && p.pick_from === "clearing") {
        banner(_("{card} cannot be chosen now: pick one of the lit cards of the clearing.", { card: this.cat.label(Number(el.dataset.card)) }));
      } else this.wrong(_("You cannot take a card from the clearing now: {prompt}"));
      openDetail(this.cat, Number(el.dataset.card));
    } else if (what === "slot") {
      if (!this.myDecision()) this.wrong(_("You cannot place a card now: {prompt}"));
      else if (this.selected === null) banner(_("First pick a card in your hand; the places it may go light up."));
      else banner(_("{card} cannot go there: pick one of the lit places.", { card: this.cat.label(this.selected) }));
    } else if (what === "cancel") {
      this.selected = null;
      this.render();
    } else if (what === "unpick") {
      this.payPick.clear();
      this.choicePick.clear();
      this.render();
    } else if (what === "confirm-picks") this.confirmChoice();
    else if (what === "cancel-play") this.cancelPlay();
    else if (what === "points") {
      const seat = Number(el.dataset.seat);
      if (this.showPoints.has(seat)) this.showPoints.delete(seat);
      else this.showPoints.add(seat);
      this.render();
    }
    else if (what === "running") {
      this.showRunning = !this.showRunning;
      saveRunning(this.showRunning);
      this.render();
    } else if (what === "rematch") this.rematch();
    else if (what === "reissue") this.reissue(Number(el.dataset.seat));
    else if (what === "card") openDetail(this.cat, Number(el.dataset.card), this.pointsOf(Number(el.dataset.card)));
    e.preventDefault();
  }

  /** A click that is not allowed now: say why in one line (`words`: the sentence for the
   * viewer's own turn, its {prompt} the server's question). */
  wrong(words) {
    const p = this.payload;
    if (!p) return;
    if (p.over) banner(_("The game is over."));
    else if (p.you === null) banner(_("You are watching this game: only the players can play."));
    else if (p.to_move !== p.you) banner(_("It is not your turn: {name} is to move.", { name: p.seats[p.to_move].name }));
    else banner(format(words, { prompt: lowerFirst(this.promptWords()) }));
  }

  clickHand(id) {
    const p = this.payload;
    if (!this.myDecision()) {
      this.wrong(_("You cannot play a card now: {prompt}"));
      openDetail(this.cat, id);
      return;
    }
    const plays = this.playsOf(id);
    if (!plays.length) {
      const prompt = lowerFirst(this.promptWords());
      if (p.decision === "pay") banner(_("Pay with the lit cards of your hand."));
      else if (p.decision === "raccoon") banner(_("That card cannot go under the cave now."));
      else if (p.pick_from === "clearing") banner(_("Pick a lit card of the clearing: {prompt}", { prompt }));
      else if (["free", "mole"].includes(p.decision)) banner(_("{card} cannot be placed now.", { card: this.cat.label(id) }));
      else banner(_("You cannot play a card now: {prompt}", { prompt }));
      return;
    }
    this.selected = this.selected === id ? null : id;
    // the keyboard goes on to the card's first choice (Escape comes back to the card)
    this.focusNext = this.selected === null ? `[data-testid=hand] [data-card="${id}"]` : "[data-testid=selection] button[data-action]";
    this.render();
  }

  /** The legal plays (and sapling) of a hand card. */
  playsOf(id) {
    return (this.payload.legal || []).map(parseAction)
      .filter((a) => (a.kind === "play" || a.kind === "sapling") && a.card === id);
  }

  async rematch() {
    const p = this.payload;
    if (p.rematch) return this.joinRematch();
    const token = this.token;
    try {
      const created = await api("POST", `/api/games/${this.gameId}/rematch`, { token });
      this.enterCreated(created);
    } catch (err) {
      if (err.status === 409 || err.status === 400) {
        this.wantRematch = true;
        return this.live.fetch();
      }
      banner(err.message);
    }
  }

  enterCreated(created) {
    const p = this.payload;
    if (this.hotseat) {
      rememberCreated(created, true);
    } else {
      const mine = (created.seats || []).find((s) => s.seat === p.you && s.token);
      if (mine) saveSeats(created.game_id, { tokens: { [mine.seat]: mine.token }, hotseat: false });
    }
    const seats = loadSeats(created.game_id);
    const tok = seats.tokens[p.you] || Object.values(seats.tokens)[0];
    ui.go(`/game/${created.game_id}${tok ? `?token=${encodeURIComponent(tok)}` : ""}`);
  }

  async joinRematch() {
    this.wantRematch = false;
    const p = this.payload;
    if (this.hotseat) {
      // every seat of this browser fetches its own new token
      const tokens = {};
      let gameId = p.rematch;
      for (const [seat, token] of Object.entries(this.seats.tokens)) {
        try {
          const r = await api("GET", `/api/games/${this.gameId}/rematch`, { token });
          tokens[seat] = r.token;
          gameId = r.game_id || gameId;
        } catch (err) { /* this seat has no place in the rematch */ }
      }
      saveSeats(gameId, { tokens, hotseat: true });
      ui.go(`/game/${gameId}`);
      return;
    }
    try {
      const r = await api("GET", `/api/games/${this.gameId}/rematch`, { token: this.token });
      saveSeats(r.game_id, { tokens: { [r.seat ?? p.you]: r.token }, hotseat: false });
      ui.go(r.link || `/game/${r.game_id}?token=${encodeURIComponent(r.token)}`);
    } catch (err) {
      ui.go(`/game/${p.rematch}`);
    }
  }

  // ---------------------------------------------------------------- words

  name(seat) {
    const p = this.payload;
    if (seat === null || seat === undefined) return "";
    const s = p.seats[seat];
    return s ? s.name : _("Player {n}", { n: seat + 1 });
  }

  /** The server's question for the viewer's decision (its words, not the page's). */
  promptWords() {
    return this.payload.prompt || _("choose.");
  }

  // ---------------------------------------------------------------- drawing

  drawStatus() {
    const p = this.payload;
    if (!p) return;
    showTitle(p.game_title);
    const v = p.view;
    const winter = "❄".repeat(v.winter.length) + "·".repeat(Math.max(0, p.winter_to_end - v.winter.length));
    fill(statusEl,
      h("span", { title: _("the table's turns so far, every player's counted (as in the log)"), dataset: { testid: "turn-counter" } }, this.turnWords()),
      h("span", { title: _("cards in the deck") }, _("Deck {n}", { n: v.deck_size })),
      h("span", { title: _("winter cards: the third ends the game"), class: "winter-count" }, _("Winter {flakes}", { flakes: winter })),
      p.over ? h("span", { class: "strong" }, _("Game over"))
        : h("span", { class: "strong" }, p.to_move === p.you ? _("Your move") : _("{name} to move", { name: this.name(p.to_move) })),
      h("span", { class: `conn ${this.connected ? "up" : "down"}`, title: this.connected ? _("live") : _("reconnecting") }, "●"));
  }

  /** "Turn 144: you", "Turn 145: Robin": the table's turn count, every player's turns
   * counted, as the log's "Turn 145: Robin." says it (the server's words). */
  turnWords() {
    return this.payload.turn_label || "";
  }

  render() {
    const p = this.payload;
    if (!p) return;
    this.hidePreview(); // its log line is drawn again (a focused one shows it again)
    this.drawStatus();
    const handingOver = this.handoverFor !== null;
    const moves = this.anim.capture(root, p); // where the cards were, if the game moved on
    const focus = this.focusNext || this.focusKey(document.activeElement);
    const hadFocus = !!this.focusNext || (!!document.activeElement && root.contains(document.activeElement) && document.activeElement !== root);
    this.focusNext = null;
    // the log follows its newest line unless the person scrolled it up to read
    const logBefore = root.querySelector(".log-list");
    const logAtEnd = !logBefore || logBefore.scrollTop + logBefore.clientHeight >= logBefore.scrollHeight - 4;
    const board = h("div", { class: "board" },
      h("div", { class: "main-col" },
        this.middleSection(),
        handingOver ? null : this.handSection(),
        this.forestSection(p.you, true),
        this.othersSection()),
      h("aside", { class: "side-col" }, this.playersSection(), this.runningSection(), this.sideDetail(), this.logSection()));
    // patch, not fill: the parts drawn before are updated in place, so what a person is
    // doing (typing, the focus, a scrolled log or hand) survives a live update
    patch(root, h("div", { class: `game ${this.locked() ? "locked" : ""}` },
      this.badTokenNotice(),
      p.over ? this.scoreSection() : this.promptSection(),
      p.over ? null : soloPanel(p), // a solo game: the challenge, Anna (solo.js); at the end the score section leads with its result
      p.over ? null : this.waitedSection(),
      p.over ? null : this.coach.section(),
      p.deal_chosen ? h("p", { class: "deal-chosen", dataset: { testid: "deal-chosen" },
        title: _("The creator of this game chose its seed, so the creator could know every card.") },
      _("This deal was chosen by the creator")) : null,
      board));
    const log = root.querySelector(".log-list");
    if (log && (logAtEnd || log !== logBefore)) log.scrollTop = log.scrollHeight;
    fitNames(root); // before the animation measures where the cards are
    this.anim.play(root, moves, p);
    this.coach.mark(root);
    if (hadFocus && !handingOver) this.restoreFocus(focus);
    if (this.scrollToHand) {
      // a place was chosen: the hand that pays for it comes into view (phones)
      this.scrollToHand = false;
      const hand = root.querySelector("[data-testid=paybar]") || root.querySelector("[data-testid=hand]");
      const prompt = root.querySelector("[data-testid=prompt]");
      const below = prompt ? prompt.getBoundingClientRect().height + 8 : 8; // the sticky prompt
      const r = hand ? hand.getBoundingClientRect() : null;
      if (r && (r.top < below || r.top > window.innerHeight * 0.45)) window.scrollTo(0, window.scrollY + r.top - below);
    }
    let status;
    if (handingOver) status = "handover";
    else if (this.busy) status = "busy";
    else if (p.over) status = "over";
    else if (p.you === null) status = "watching";
    else if (this.myDecision()) status = "your-turn";
    else status = "waiting";
    document.body.dataset.status = status;
    document.body.dataset.version = String(p.version);
    document.body.dataset.decision = this.localPlay ? "pay" : p.decision || "";
    document.body.dataset.paying = this.localPlay ? "1" : "";
    this.announceTurn(status);
  }

  /** Whose turn it is, said once when it begins: the polite live region `#announce` gets
   * the words when a decision of this viewer's (hot-seat: of the seat at the screen, named)
   * begins, and is not written again by the redraws that follow; the document title carries
   * a "●" and the same words until the player acts (or the game ends). */
  announceTurn(status) {
    const p = this.payload;
    const title = p.game_title || "Forest Shuffle";
    let words = null;
    if (!p.over && status === "your-turn") {
      const name = this.name(p.you);
      words = this.hotseat ? _("{name}'s turn", { name }) : p.decision === "turn" ? _("Your turn") : _("Your decision");
    } else if (!p.over && status === "handover" && this.handoverFor !== null) {
      words = _("{name}'s turn", { name: this.name(this.handoverFor) });
    }
    document.title = p.over ? _("{title} · game over", { title }) : words ? _("● {turn} — {title}", { turn: words, title }) : title;
    if (status === "busy") return; // an action on its way: the turn is still the same one
    // a turn is the seat and the table's turn count: a turn that follows at once (the bot
    // played between two payloads, an extra turn) is a new one
    const key = words && status === "your-turn" ? `${p.you}:${p.view.turn}` : null;
    if (key !== null && key !== this.announced && announceEl) announceEl.textContent = words;
    this.announced = key;
  }

  /** A selector that finds the same control after the page is drawn again (its action,
   * pick, card, test id or slot), or null for an element outside the game. */
  focusKey(el) {
    if (!el || el === document.body || !root.contains(el)) return null;
    const d = el.dataset || {};
    const q = (name, value) => `[data-${name}="${CSS.escape(String(value))}"]`;
    if (d.info) return q("info", d.info);
    if (d.logCard) return q("log-card", d.logCard);
    if (d.pick) return q("pick", d.pick);
    if (d.action) return q("action", d.action);
    if (d.testid) return q("testid", d.testid);
    if (d.ui && d.card) return `${q("ui", d.ui)}${q("card", d.card)}`;
    if (d.card) return q("card", d.card);
    if (d.slot) return q("slot", d.slot);
    if (d.ui) return q("ui", d.ui);
    return null;
  }

  /** Keep the keyboard where the player is after the page is drawn again: the same control
   * if it is still there, else the next thing to do (the first choice of a chosen card, the
   * Confirm of a choice, a prompt button, a lit card, the deck), else the prompt. */
  restoreFocus(key) {
    const visible = (el) => !!el && !el.disabled && el.getClientRects().length > 0;
    let el = key ? root.querySelector(key) : null;
    if (!visible(el)) {
      el = ["[data-testid=selection] button[data-action]", "[data-testid=confirm-picks]:not([disabled])",
        "[data-pick]:not(.picked)", "[data-testid=prompt] button",
        "[data-testid=hand] .tile.can", "[data-testid=clearing] .tile.can", "[data-testid=deck].can", "[data-testid=hand] .tile"]
        .map((sel) => root.querySelector(sel)).find(visible) || null;
    }
    if (!el) {
      el = root.querySelector("[data-testid=prompt]");
      if (el) el.setAttribute("tabindex", "-1");
    }
    if (el) el.focus({ preventScroll: true });
  }

  /** When the viewer's turn begins: what the others did meanwhile, in the server's words
   * (the payload's `waited`); null otherwise. */
  waitedSection() {
    const p = this.payload;
    const said = p.waited || [];
    if (!said.length || !this.myDecision() || this.localPlay) return null;
    return h("section", { class: "waited", dataset: { testid: "waited" }, "aria-live": "polite" },
      h("b", {}, _("Meanwhile:"), " "), said.map((line) => h("span", { class: "waited-line" }, line, " ")));
  }

  /** A token was given that holds no seat of this game: the page watches, and says why;
   * a seat this browser holds for the game is offered instead. */
  badTokenNotice() {
    if (!this.badToken) return null;
    const held = Object.entries(this.seats.tokens).filter(([, t]) => t && t !== this.token);
    return h("section", { class: "warning bad-token", dataset: { testid: "bad-token" }, role: "alert" },
      h("b", {}, _("This link's seat token is not one of this game's")),
      " ", _("(cut short or mistyped?), so you are only watching. Open the whole invite link to play."),
      held.length ? [" ", h("a", { class: "button primary small", href: `/game/${this.gameId}?token=${encodeURIComponent(held[0][1])}`,
        dataset: { testid: "held-seat" } }, _("Play the seat this browser holds"))] : null);
  }

  promptSection() {
    const p = this.payload;
    const pend = p.view.pending;
    const buttons = [];
    let text;
    let sub = null;
    if (p.you === null) text = _("You are watching this game.");
    else if (!this.myDecision()) {
      const s = p.seats[p.to_move];
      text = s && s.kind === "bot" ? _("{name} (bot) is thinking…", { name: s.name }) : _("Waiting for {name}…", { name: this.name(p.to_move) });
      const last = [...(p.log || [])].reverse().find((e) => e.seat !== null && e.seat !== undefined);
      if (last && !p.over) sub = _("Last: {words}", { words: last.words || last.text });
    } else {
      const ask = this.localPlay ? this.localPlay.plan.prompt
        : this.selected !== null
          ? _("place {card}: click a lit place, or Cancel.", { card: this.cat.label(this.selected) })
          : this.promptWords();
      text = this.hotseat ? _("{name}: {ask}", { name: this.name(p.you), ask: lowerFirst(ask) }) : ask.replace(/^./, (c) => c.toUpperCase());
      const shape = this.choiceShape();
      sub = this.localPlay ? _("Nothing is sent until the last card is picked: Cancel (or Esc) takes the play back.")
        : shape ? shape.words : this.detailWords() || CLICK_HINTS[p.decision] || null;
      const words = { yes: _("Yes"), no: _("No, skip it"), keep: _("Keep this hand"), mulligan: _("Mulligan"), done: _("Done") };
      for (const a of p.legal) {
        if (a === "done" && shape) continue; // the choice's Confirm ends it
        const said = WORDED_ANSWERS.has(p.decision) && (a === "yes" || a === "no") ? (p.legal_words || [])[p.legal.indexOf(a)] : null;
        if (words[a]) buttons.push(h("button", { class: a === "yes" || a === "keep" ? "primary" : "ghost", dataset: { action: a } }, said ? said.replace(/^./, (c) => c.toUpperCase()) : words[a]));
      }
      const words2 = p.legal_words || [];
      for (const a of this.unreachable()) {
        buttons.push(h("button", { class: "ghost", dataset: { action: a } }, words2[p.legal.indexOf(a)] || a));
      }
    }
    let pic = null;
    const paying = this.localPlay ? this.localPlay.plan : pend;
    if (this.myDecision() && paying && (this.localPlay || ["pay", "option"].includes(p.decision)) && paying.card) {
      const half = this.cat.half(paying.card, paying.side);
      if (half) {
        pic = h("div", { class: `prompt-card ${symClass(half.symbol)}`, dataset: { ui: "card", card: paying.card }, title: this.cat.text(paying.card) },
          h("span", { class: "cost" }, half.sp.cost), h("b", {}, half.name),
          !this.localPlay && p.decision === "pay" && pend.paid && pend.paid.length ? h("small", {}, " ", _("paid: {cards}", { cards: pend.paid.map((c) => this.cat.label(c)).join(", ") })) : null);
      }
    }
    return h("section", { class: `prompt ${this.myDecision() ? "mine" : ""}`, dataset: { testid: "prompt" } },
      pic,
      h("div", { class: "prompt-text" }, h("p", { class: "ask" }, text), sub ? h("p", { class: "sub" }, sub) : null,
        this.myDecision() ? this.choiceBar() : null),
      buttons.length ? h("div", { class: "prompt-buttons" }, buttons) : null);
  }

  /** The server's second line for the decision (the bonus at stake while paying, the
   * rules text of an effect offered); while paying, where the cards that keep the bonus are. */
  detailWords() {
    const p = this.payload;
    if (p.decision === "pay" && p.pay) return this.payWords();
    return p.prompt_detail || null;
  }

  /** Legal actions that no element of the table offers (so a button must). */
  unreachable() {
    const p = this.payload;
    const hand = new Set(p.view.hand);
    const clearing = new Set(p.view.clearing);
    return p.legal.filter((text) => {
      const a = parseAction(text);
      if (["yes", "no", "keep", "mulligan", "done", "draw"].includes(a.kind)) return false;
      if (["play", "sapling", "pay", "cave", "moor", "discard"].includes(a.kind) && hand.has(a.card)) return false;
      if (a.kind === "choose" && (p.view.cave_offer || []).includes(a.card)) return false;
      if (["take", "cave"].includes(a.kind) && clearing.has(a.card)) return false;
      return true;
    });
  }

  hover(id) {
    return () => {
      const box = root.querySelector(".side-detail");
      if (box) fill(box, pointsLine(this.pointsOf(id)), cardDetail(this.cat, id));
    };
  }

  /** The server's words for a legal action (legal_words), or null. */
  wordsOf(action) {
    const p = this.payload;
    const i = (p.legal || []).indexOf(action);
    return i >= 0 && p.legal_words ? p.legal_words[i] || null : null;
  }

  tile(id, opts = {}) {
    const t = cardTile(this.cat, id, { ...opts, onhover: this.hover(id) });
    const words = opts.action ? this.wordsOf(opts.action) : null;
    if (words) t.setAttribute("aria-label", words);
    t.appendChild(h("button", { class: "info", dataset: { info: id }, title: _("the card's full text"), "aria-label": _("card {id} text", { id }) }, "i"));
    return t;
  }

  othersSection() {
    const p = this.payload;
    const n = p.view.num_players;
    const others = [];
    for (let i = 1; i < n; i++) {
      const seat = p.you === null ? i - 1 : (p.you + i) % n;
      others.push(this.forestSection(seat, false));
    }
    if (p.you === null) others.push(this.forestSection(n - 1, false));
    return h("section", { class: "others" }, others);
  }

  middleSection() {
    const p = this.payload;
    const v = p.view;
    // while a move is being made the deck and the clearing wait (Confirm or Cancel first)
    const legal = new Set(this.locked() ? [] : p.legal || []);
    const shape = this.choiceShape();
    const fromClearing = shape && shape.source === "clearing" ? new Set(shape.cards) : null;
    const deck = h("div", {
      class: `deck ${legal.has("draw") ? "can" : ""}`,
      dataset: { action: legal.has("draw") ? "draw" : null, ui: "deck", testid: "deck" },
      role: "button", tabindex: "0", title: _("Draw the top card of the deck"),
    }, h("span", { class: "deck-count" }, v.deck_size), h("span", { class: "deck-word" }, legal.has("draw") ? _("Draw") : _("Deck")));
    const winter = h("div", { class: "winter-row", title: _("Winter cards: the game ends when the third appears") },
      Array.from({ length: p.winter_to_end }, (_, i) =>
        h("span", { class: `flake ${i < v.winter.length ? "on" : ""}` }, "❄")),
      h("span", { class: "winter-words" }, _("{done}/{end} winter", { done: v.winter.length, end: p.winter_to_end })));
    const clearing = v.clearing.length
      ? v.clearing.map((id) => {
        if (fromClearing && fromClearing.has(id)) {
          // a card of a choice of several: picked and taken back here, sent on Confirm
          const picked = this.choicePick.has(id);
          const t = this.tile(id, { classes: picked ? "can picked" : "can", short: true, badge: picked ? null : _("→ to your cave") });
          t.dataset.pick = id;
          t.dataset.choice = "1";
          t.setAttribute("tabindex", "0");
          t.setAttribute("role", "button");
          t.setAttribute("aria-pressed", picked ? "true" : "false");
          return t;
        }
        // a take (a draw or an effect's take) or, for an effect, a card to the cave
        const action = [`take ${id}`, `cave ${id}`].find((a) => legal.has(a)) || null;
        return this.tile(id, { action, classes: action ? "can" : "", short: true,
          badge: action && action.startsWith("cave") ? _("→ to your cave") : null });
      })
      : [h("p", { class: "empty" }, _("The clearing is empty."))];
    for (const t of clearing) if (t.dataset && t.dataset.card && !t.dataset.action && !t.dataset.pick) t.dataset.ui = "clearing-card";
    return h("section", { class: "middle" },
      h("div", { class: "pile" }, deck, winter),
      h("div", { class: "clearing" },
        h("h2", {}, _("Clearing"), " ", h("small", { dataset: { testid: "clearing-count" } }, this.clearingWords())),
        h("div", { class: "tiles", dataset: { testid: "clearing" } }, clearing),
        this.caveOffer(), this.discardPile(), this.provisionalNote()));
  }

  /** The cave draft: Dartmoor's caves dealt into the clearing, Exploration's named caves
   * (by name), each with its rule and a provisional note; a lit one to take. */
  caveOffer() {
    const p = this.payload;
    const offer = p.view.cave_offer || [];
    if (!offer.length) return null;
    const legal = new Set(p.legal || []);
    return h("div", { class: "cave-offer", dataset: { testid: "cave-offer" } },
      h("h3", {}, offer.length === 1 ? _("The cave the others left") : _("Caves to choose from")),
      h("div", { class: "caves" }, offer.map((n) => {
        const cave = this.cat.cave(n);
        const action = legal.has(`choose ${n}`) ? `choose ${n}` : null;
        return h("div", { class: `cave-tile ${action ? "can" : ""} ${cave && cave.provisional ? "provisional" : ""}`,
          dataset: { action, cave: n }, role: action ? "button" : null, tabindex: action ? "0" : null,
          title: cave && cave.provisional ? _("Provisional: {reading}", { reading: cave.provisional }) : null, "aria-label": action ? this.wordsOf(action) : null },
        h("b", {}, cave && cave.name ? cave.name : _("Cave {n}", { n })), h("span", {}, cave ? cave.text : ""),
        cave && cave.provisional ? h("span", { class: "prov" }, _("≈ provisional reading")) : null);
      })));
  }

  /** Dartmoor's discard pile, or null in a game without one (Exploration's state carries
   * an empty one: its named caves say it is not Dartmoor). */
  discardOf() {
    const pile = this.payload.view.discard;
    return pile && !(this.cat && this.cat.caves.some((c) => c.name)) ? pile : null;
  }

  /** Dartmoor's discard pile (public): its count and top cards, the top card last. */
  discardPile() {
    const pile = this.discardOf();
    if (!pile) return null; // a game without one
    const top = pile.slice(-3);
    return h("div", { class: "discard", dataset: { testid: "discard" } },
      h("h3", {}, _("Discard pile"), " ", h("small", { dataset: { testid: "discard-count" } }, ngettext("{n} card", "{n} cards", pile.length))),
      top.length ? h("div", { class: "discard-top", title: _("the top cards of the discard pile, the top one last") },
        top.map((id) => h("span", { class: `chip-card ${symClass(this.cat.half(id)?.symbol || "")}`, dataset: { ui: "card", card: id }, title: this.cat.text(id) },
          this.cat.label(id)))) : h("p", { class: "empty" }, _("Empty: a full clearing goes here.")));
  }

  /** What about the game's deck is provisional (the catalog says; null for a deck as printed). */
  provisionalNote() {
    const note = this.cat.provisionalDeck;
    return note ? h("p", { class: "prov-note deck-note", dataset: { testid: "provisional-deck" }, title: note },
      h("b", {}, _("≈ provisional deck:")), " ", _("the marked cards' pairings, sides or tree symbols are assumed, not known from the printed cards.")) : null;
  }

  /** "4/10 · full at 10: all go to the box"; past the limit (a game that ended before
   * the turn did) only the number of cards. */
  clearingWords() {
    const p = this.payload;
    const n = p.view.clearing.length;
    const limit = p.clearing_limit;
    if (n > limit || p.over) return ngettext("{n} card", "{n} cards", n);
    return this.discardOf() ? _("{n}/{limit} · full at {limit}: all go to the discard pile", { n, limit })
      : _("{n}/{limit} · full at {limit}: all go to the box", { n, limit });
  }

  forestSection(seat, mine) {
    const p = this.payload;
    const v = p.view;
    if (seat === null || seat === undefined) return null;
    const forest = v.forests[seat] || [];
    const targets = new Map(); // "tree-side" -> action
    let newTree = null;
    if (mine && this.selected !== null) {
      for (const a of this.playsOf(this.selected)) {
        if (a.kind === "play" && a.side) targets.set(`${a.tree - 1}-${a.side}`, a.text);
        else if (a.kind === "play") newTree = a.text;
      }
    }
    const s = p.seats[seat] || { name: _("Player {n}", { n: seat + 1 }) };
    const known = (v.known_hands[seat] || []);
    const showing = this.showPoints.has(seat);
    const head = h("div", { class: "forest-head" },
      h("h2", {}, mine && !this.hotseat ? _("Your forest") : _("{name}'s forest", { name: s.name })),
      h("span", { class: "facts" }, _("{hosts} · cave {cave} · hand {hand}", { hosts: this.hostsWords(forest, seat), cave: v.cave_sizes[seat], hand: v.hand_sizes[seat] })),
      this.caveChip(seat),
      p.to_move === seat && !p.over ? h("span", { class: "to-move" }, _("to move")) : null,
      forest.length ? h("button", { class: "ghost small points-toggle", dataset: { ui: "points", seat, testid: `points-toggle-${seat}` },
        "aria-pressed": showing ? "true" : "false", title: _("Show each card's points as they stand now (the server's score)") },
      showing ? _("Hide points") : _("Points")) : null);
    const trees = forest.map((tree, i) => this.treeBlock(tree, i, targets, mine, seat));
    if (newTree) {
      const shrub = this.cat.isShrub(this.selected);
      const moor = this.cat.isMoor(this.selected);
      trees.push(h("div", { class: `new-tree target ${shrub ? "new-shrub" : ""} ${moor ? "new-moor" : ""}`, dataset: { action: newTree }, role: "button", tabindex: "0" },
        h("span", { class: "plus", "aria-hidden": "true" }), h("span", {}, shrub ? _("plant {card} (a shrub) here", { card: this.cat.label(this.selected) })
          : moor ? _("plant {card} (a moor) here", { card: this.cat.label(this.selected) })
            : _("plant {card} here", { card: this.cat.label(this.selected) }))));
    }
    if (!trees.length) trees.push(h("p", { class: "empty" }, mine ? this.emptyForestWords() : _("No trees yet.")));
    // a big forest is drawn in compact columns, so that 15 trees still read at a glance
    const compact = forest.length >= (mine ? 6 : 4);
    return h("section", { class: `forest ${mine ? "mine" : "theirs"} ${compact ? "compact" : ""} ${showing ? "show-points" : ""}`,
      dataset: { seat, testid: mine ? "my-forest" : `forest-${seat}` } },
    head,
    !mine && known.length ? h("p", { class: "known" }, _("Seen in hand:"), " ", known.map((c) => this.cat.label(c)).join(" · ")) : null,
    h("div", { class: "trees" }, trees));
  }

  /** The seat's cave (Dartmoor's numbered one, Exploration's by name) and what it does (the
   * catalog's words; a reading marked provisional); null in games without drafted caves. */
  caveChip(seat) {
    const numbers = this.payload.view.cave_numbers;
    const number = numbers ? numbers[seat] : 0;
    if (!number) return null;
    const cave = this.cat.cave(number);
    const prov = cave && cave.provisional;
    return h("span", { class: `cave-chip ${prov ? "provisional" : ""}`, dataset: { testid: `cave-${seat}`, cave: number },
      title: cave ? cave.text + (prov ? "\n" + _("Provisional: {reading}", { reading: cave.provisional }) : "") : "" },
    h("b", {}, cave && cave.name ? cave.name : _("Cave {n}", { n: number })), cave ? `: ${cave.text}` : "", prov ? h("span", { class: "prov" }, _("≈ provisional")) : null);
  }

  /** "3 trees", "2 trees · 1 shrub", "4 trees · 2 moors" (a sapling counts as a tree, a
   * universal moor as a moor). */
  hostsWords(forest, seat) {
    const shrubs = forest.filter((t, i) => !t.sapling && t.card && !this.isUniversal(seat, i) && this.cat.isShrub(t.card)).length;
    const moors = forest.filter((t, i) => this.isMoorHost(t, seat, i)).length;
    const parts = [ngettext("{n} tree", "{n} trees", forest.length - shrubs - moors)];
    if (shrubs) parts.push(ngettext("{n} shrub", "{n} shrubs", shrubs));
    if (moors) parts.push(ngettext("{n} moor", "{n} moors", moors));
    return parts.join(" · ");
  }

  /** Whether host `i` of `seat`'s forest is a universal moor (a card face down; its owner
   * still sees which card). */
  /** What the viewer's empty forest says: a sapling only where the game has saplings
   * (not Dartmoor: its hosts are trees, shrubs and moors). */
  emptyForestWords() {
    const p = this.payload;
    if (p.view.universal_moors) return _("No trees yet: play a tree, shrub or moor card.");
    return _("No trees yet: play a tree card (or any card as a sapling).");
  }

  isUniversal(seat, i) {
    const um = this.payload.view.universal_moors;
    return !!um && (um[seat] || []).includes(i);
  }

  /** A moor in a forest: a moor card, or a universal moor. */
  isMoorHost(tree, seat, i) {
    return this.isUniversal(seat, i) || (!tree.sapling && !!tree.card && this.cat.isMoor(tree.card));
  }

  /** The server's points of a forest card now ({points, why}, from the scorer's
   * explanation of the running score), or null. */
  pointsOf(id) {
    for (const byCard of this.payload.card_points || []) {
      const pts = byCard[String(id)];
      if (pts) return pts;
    }
    return null;
  }

  /** The points of a forest card as a small badge (shown on hover, focus or on demand). */
  pointsBadge(id) {
    const pts = this.pointsOf(id);
    return pts ? h("span", { class: "cpts", title: pts.why, dataset: { testid: "card-points" } }, `${pts.points}`) : null;
  }

  treeBlock(tree, i, targets, mine, seat) {
    const cat = this.cat;
    const universal = this.isUniversal(seat, i);
    const moor = this.isMoorHost(tree, seat, i);
    const shrub = !universal && !tree.sapling && !!tree.card && cat.isShrub(tree.card);
    const prov = tree.card && !universal ? cat.assumed(tree.card) : "";
    let trunk;
    if (universal) {
      // its owner sees which card lies face down; the others see none
      trunk = h("div", { class: "trunk moor universal", dataset: { ui: tree.card ? "card" : null, card: tree.card || null },
        title: _("A universal moor: a card face down, a moor of no species (it counts as a moor)") },
      h("span", { class: "num" }, i + 1), h("span", { class: "host-label" }, pgettext("host", "moor")), h("span", { class: "tname" }, _("Universal moor")),
      h("span", { class: "tpoints" }, tree.card ? _("face down: {card}", { card: cat.label(tree.card) }) : _("face down")));
    } else if (tree.sapling || tree.card === null) {
      trunk = h("div", { class: "trunk sapling", dataset: { ui: tree.card ? "card" : null, card: tree.card || null },
        title: _("A sapling: a tree without a species or tree symbol") }, h("span", { class: "num" }, i + 1), h("span", { class: "tname" }, _("Sapling")));
    } else {
      const half = cat.half(tree.card, "tree");
      const pts = this.pointsOf(tree.card);
      trunk = h("div", { class: `trunk ${shrub ? "shrub" : ""} ${moor ? "moor" : ""} ${symClass(half ? half.symbol : "")} ${this.isFresh(tree.card) ? "fresh" : ""}`,
        dataset: { ui: "card", card: tree.card }, tabindex: "0",
        title: (pts ? ngettext("{n} point now: {why}", "{n} points now: {why}", pts.points, { why: pts.why }) + "\n" : "") + cat.text(tree.card), onmouseenter: this.hover(tree.card) },
      h("span", { class: "num" }, i + 1),
      shrub || moor ? h("span", { class: "host-label", title: moor ? _("a moor showing the {symbol} symbol", { symbol: half ? symbolWord(half.symbol) : "" })
        : _("a shrub showing the {symbol} symbol", { symbol: half ? symbolWord(half.symbol) : "" }) }, moor ? pgettext("host", "moor") : pgettext("host", "shrub")) : null,
      h("span", { class: "tname" }, half ? shortName(half.name) : _("Tree")),
      half ? h("span", { class: "tpoints" }, pointsWords(half.sp)) : null,
      prov ? h("span", { class: "prov dot", title: prov }, "≈") : null,
      this.pointsBadge(tree.card));
    }
    // a moor has two top and two bottom slots and none at its sides
    const sides = moor ? ["top", "bottom"] : SIDES;
    const slots = [];
    for (const side of sides) {
      const stack = tree.slots[side] || [];
      const action = targets.get(`${i}-${side}`) || null;
      const groups = [];
      for (const id of stack) {
        const half = cat.half(id, side);
        const name = half ? half.name : "?";
        const last = groups[groups.length - 1];
        if (last && last.name === name) last.ids.push(id);
        else groups.push({ name, half, ids: [id] });
      }
      const cards = groups.map((g) => {
        const id = g.ids[g.ids.length - 1];
        const pts = this.pointsOf(g.ids[0]);
        const assumed = cat.assumed(g.ids[0]);
        return h("div", {
          class: `dweller ${symClass(g.half ? g.half.symbol : "")} ${g.ids.some((x) => this.isFresh(x)) ? "fresh" : ""}`,
          dataset: { ui: action ? null : "card", card: id }, tabindex: action ? null : "0",
          title: (!pts ? "" : (g.ids.length > 1 ? ngettext("{n} point now each: {why}", "{n} points now each: {why}", pts.points, { why: pts.why })
            : ngettext("{n} point now: {why}", "{n} points now: {why}", pts.points, { why: pts.why })) + "\n") + cat.text(g.ids[0]),
          onmouseenter: this.hover(g.ids[0]),
        }, h("span", { class: "dname" }, shortName(g.name)), g.ids.length > 1 ? h("span", { class: "times" }, `×${g.ids.length}`) : null,
        assumed ? h("span", { class: "prov dot", title: assumed }, "≈") : null,
        this.pointsBadge(g.ids[0]),
        g.half ? h("span", { class: "dpoints" }, pointsWords(g.half.sp)) : null);
      });
      const here = action ? h("span", { class: "here" }, _("{card} here", { card: shortName(this.cat.half(this.selected, side)?.name || "") })) : null;
      const cell = (content, cls, act) => h("div", {
        class: `slot slot-${side} ${cls} ${act ? "target" : ""}`,
        dataset: { action: act, ui: act ? null : mine ? "slot" : null, slot: `${i + 1}-${side}` },
        role: act ? "button" : null, tabindex: act ? "0" : null,
        title: !act ? null : moor ? _("place {card}: {side} of moor {n}", { card: this.cat.label(this.selected), side: sideWord(side), n: i + 1 })
          : _("place {card}: {side} of tree {n}", { card: this.cat.label(this.selected), side: sideWord(side), n: i + 1 }),
      }, content, act ? here : null);
      if (!moor) {
        slots.push(cell(cards.length ? cards : h("span", { class: "arrow" }, ARROWS[side]), stack.length ? "full" : "open", action));
        continue;
      }
      // two cells a side: the first group in the first, the others in the second; a play
      // goes to the first open cell (or joins the second, where cards may share a slot)
      const one = cards.slice(0, 1);
      const two = cards.slice(1);
      const openCell = one.length ? 1 : 0;
      for (const [k, content] of [one, two].entries()) {
        slots.push(cell(content.length ? content : h("span", { class: "arrow" }, ARROWS[side]),
          `${content.length ? "full" : "open"} cell-${k + 1}`, k === openCell ? action : null));
      }
    }
    const bare = sides.every((side) => !(tree.slots[side] || []).length && !targets.has(`${i}-${side}`));
    const kind = moor ? "moor" : shrub ? "shrub" : tree.sapling ? "sapling" : "tree";
    return h("div", { class: `tree ${shrub ? "host-shrub" : ""} ${moor ? "host-moor" : ""} ${universal ? "host-universal" : ""} ${bare ? "bare" : ""}`,
      dataset: { tree: i + 1, host: universal ? "universal moor" : kind } }, trunk, slots);
  }

  handSection() {
    const p = this.payload;
    const v = p.view;
    if (p.you === null) return null;
    const legal = new Set(p.legal || []);
    const mine = this.myDecision();
    const info = this.payInfo();
    const lost = this.payLost();
    const keeps = (id) => !!(mine && info && !lost && info.keeps_bonus.includes(id) && !this.payPick.has(id));
    const playing = this.localPlay ? parseAction(this.localPlay.action).card : null;
    const pick = this.pickable();
    const shape = this.choiceShape();
    const choice = shape && shape.source === "hand" ? new Set(shape.cards) : null;
    const sorted = [...v.hand].sort((a, b) => (this.cat.isHost(b) - this.cat.isHost(a)) || a - b);
    const tiles = sorted.map((id) => {
      let action = null;
      let classes = "";
      let badge = null;
      if (mine && id === playing) {
        classes = "selected playing";
        badge = _("being played");
      } else if (mine && choice) {
        // a choice of several hand cards: picked and taken back here, sent on Confirm
        if (choice.has(id)) {
          const picked = this.choicePick.has(id);
          classes = picked ? "can picked" : "can";
        }
      } else if (mine) {
        if (pick) {
          // several cards to pay: pick a set, the page pays it in the engine's order
          if (pick.has(id)) {
            classes = this.payPick.has(id) ? "can picked" : "can";
            if (keeps(id)) badge = _("★ keeps bonus");
          }
        } else if (legal.has(`pay ${id}`)) {
          action = `pay ${id}`;
          classes = "can";
          if (keeps(id)) badge = _("★ keeps bonus");
        } else if (legal.has(`cave ${id}`)) {
          action = `cave ${id}`;
          classes = "can";
        } else if (legal.has(`moor ${id}`)) {
          // Dartmoor: a hand card face down into the forest as a universal moor
          action = `moor ${id}`;
          classes = "can";
          badge = _("face down as a moor");
        } else if (legal.has(`discard ${id}`)) {
          action = `discard ${id}`;
          classes = "can";
          badge = _("→ into the clearing");
        } else if (p.decision === "saplings" && legal.has(`sapling ${id}`)) {
          // the saplings of an effect: a click plants this card face down
          action = `sapling ${id}`;
          classes = "can";
          badge = _("plant as a sapling");
        } else {
          const plays = this.playsOf(id);
          if (plays.some((a) => a.kind === "play")) classes = "can";
          else if (plays.length) classes = "can-sapling";
          if (this.selected === id) classes += " selected";
        }
      }
      const before = this.handBefore[p.you];
      if (before && !before.has(id)) classes += " new-card";
      const t = this.tile(id, { action, classes, badge });
      if ((pick && pick.has(id)) || (choice && choice.has(id))) {
        t.dataset.pick = id;
        if (choice) t.dataset.choice = "1";
        t.setAttribute("aria-pressed", this.payPick.has(id) || this.choicePick.has(id) ? "true" : "false");
      }
      else if (id === playing) t.dataset.ui = "card";
      else if (!action) t.dataset.ui = "hand-card";
      if (!t.hasAttribute("tabindex")) {
        t.setAttribute("tabindex", "0");
        t.setAttribute("role", "button");
      }
      return t;
    });
    return h("section", { class: "hand", dataset: { testid: "hand" } },
      h("div", { class: "hand-head" },
        h("h2", {}, this.hotseat ? _("{name}'s hand", { name: this.name(p.you) }) : _("Your hand"), h("small", {}, ` ${v.hand.length}/${p.hand_limit}`)),
        v.own_cave.length ? h("span", { class: "facts" }, ngettext("cave: {n} card", "cave: {n} cards", v.own_cave.length)) : null),
      this.selectionBar(), this.payBar(pick),
      h("div", { class: "tiles" }, tiles.length ? tiles : h("p", { class: "empty" }, _("No cards in hand."))));
  }

  /** The pay plan (the server's pay_plans entry) of a legal play text, or null: a play
   * with nothing to pay has none and is sent at once. */
  planOf(action) {
    const a = parseAction(action);
    if (a.kind !== "play") return null;
    const plans = this.payload.pay_plans || {};
    return plans[a.side ? `${a.card} ${a.side}` : String(a.card)] || null;
  }

  /** Keep a play that asks for a payment in this page until its cards are picked; whether
   * it was (else the caller sends it). */
  startPlay(action) {
    const plan = this.planOf(action);
    if (!plan) return false;
    this.localPlay = { action, plan };
    this.selected = null;
    this.payPick.clear();
    this.scrollToHand = true;
    this.focusNext = "[data-testid=hand] [data-pick]";
    this.render();
    return true;
  }

  /** Take back a play not yet sent (Cancel, Escape). */
  cancelPlay() {
    if (!this.localPlay) return;
    const a = parseAction(this.localPlay.action);
    this.localPlay = null;
    this.payPick.clear();
    this.selected = a.card;
    this.focusNext = "[data-testid=selection] button[data-action]";
    banner(_("Play taken back: nothing was sent."), "info");
    this.render();
  }

  /** The payment in hand: the local play's plan, or the server's pay hint. */
  payInfo() {
    if (this.localPlay) return this.localPlay.plan;
    const p = this.payload;
    return p && p.decision === "pay" ? p.pay : null;
  }

  /** Whether a card picked so far loses the bonus (the server's keeps_bonus says which keep it). */
  payLost() {
    const info = this.payInfo();
    return !!info && info.bonus_possible && [...this.payPick].some((c) => !info.keeps_bonus.includes(c));
  }

  /** During a payment kept in the page, or the server's of two or more cards: the hand
   * cards that may be part of it (the server's payable). */
  pickable() {
    const p = this.payload;
    if (!this.myDecision()) return null;
    const info = this.payInfo();
    if (!info || (!this.localPlay && (p.decision !== "pay" || info.need < 2))) return null;
    return info.payable.length ? new Set(info.payable) : null;
  }

  payBar(pick) {
    if (!pick) return null;
    const info = this.payInfo();
    const need = info.need;
    const picked = [...this.payPick];
    const local = !!this.localPlay;
    return h("div", { class: "selection paybar", dataset: { testid: "paybar" } },
      h("div", { class: "selection-head" },
        h("b", {}, ngettext("Pick {n} card to pay", "Pick {n} cards to pay", need)), " ", _("({picked}/{need} picked)", { picked: picked.length, need }), " ",
        picked.length ? h("button", { class: "ghost small", dataset: { ui: "unpick" } }, _("Clear")) : null,
        local ? h("button", { class: "ghost small", dataset: { ui: "cancel-play", testid: "cancel-play" },
          title: _("Take the play back (Esc): nothing is sent until the last card is picked") }, _("Cancel")) : null),
      h("p", { class: "pay-words", dataset: { testid: "pay-words" } }, this.payWords()));
  }

  /** The server's words for the bonus at stake, as the cards picked so far leave it. */
  payWords() {
    const info = this.payInfo();
    if (!info) return null;
    if (this.payLost()) return info.lost_words;
    return info.bonus_possible && info.keeps_bonus.length ? _("★ {words} Cards marked ★ keep it.", { words: info.words }) : info.words;
  }

  /** The cards the payment in hand needs (0: none in hand). */
  payNeed() {
    const info = this.payInfo();
    return info ? info.need : 0;
  }

  /** The viewer's decision that takes several cards as one choice (the payload's picks),
   * other than a payment (which keeps its own bar), or null. */
  choiceShape() {
    const p = this.payload;
    if (!p || !this.myDecision() || !p.picks || p.picks.kind === "pay" || this.localPlay) return null;
    return p.picks;
  }

  /** Whether the cards picked so far make a whole choice. */
  choiceComplete() {
    const shape = this.choiceShape();
    const n = this.choicePick.size;
    return !!shape && n >= shape.least && n <= shape.most;
  }

  /** The engine's actions for the cards picked: ascending, then done where the decision
   * needs it (docs/actions.md, "Choices of several cards"). */
  pickActions() {
    const shape = this.choiceShape();
    const cards = [...this.choicePick].sort((a, b) => a - b);
    const out = cards.map((c) => `${shape.verb} ${c}`);
    if (shape.ends_with_done && cards.length < shape.source_size) out.push("done");
    return out;
  }

  toggleChoice(id) {
    const shape = this.choiceShape();
    if (!shape.cards.includes(id)) {
      banner(_("{card} cannot be picked now.", { card: this.cat.label(id) }));
      return;
    }
    if (this.choicePick.has(id)) this.choicePick.delete(id);
    else if (this.choicePick.size >= shape.most) {
      banner(ngettext("That makes more than {n} card: take a pick back first.", "That makes more than {n} cards: take a pick back first.", shape.most));
      return;
    } else this.choicePick.add(id);
    this.render();
  }

  confirmChoice() {
    if (!this.choiceComplete() || this.busy) return;
    const actions = this.pickActions();
    this.choicePick.clear();
    this.focusNext = null;
    this.sendAll(actions);
  }

  /** The choice of several cards: the server's words, the count picked, Clear and
   * Confirm (its words for that many cards). */
  choiceBar() {
    const shape = this.choiceShape();
    if (!shape) return null;
    const n = this.choicePick.size;
    const ok = this.choiceComplete();
    // a choice of a fixed number names that number until it is picked
    const shown = shape.least === shape.most ? shape.most : n;
    const label = shape.confirm[Math.min(shown, shape.confirm.length - 1)] || _("Confirm");
    return h("div", { class: "selection choicebar", dataset: { testid: "choicebar" } },
      h("div", { class: "selection-head" },
        h("b", { dataset: { testid: "picked-count" } }, shape.least === shape.most ? _("{n}/{most} picked", { n, most: shape.most }) : ngettext("{n} picked", "{n} picked", n)), " ",
        n ? h("button", { class: "ghost small", dataset: { ui: "unpick", testid: "clear-picks" } }, _("Clear")) : null,
        h("button", { class: "primary small", dataset: { ui: "confirm-picks", testid: "confirm-picks" }, disabled: !ok,
          title: ok ? "" : shape.least === shape.most ? ngettext("Pick {n} card first", "Pick {n} cards first", shape.most)
            : ngettext("Pick up to {n} card first", "Pick up to {n} cards first", shape.most) }, label)),
      n ? h("p", { class: "pick-words" }, _("Picked:"), " ", [...this.choicePick].map((c) => this.cat.label(c)).join(", ")) : null);
  }

  togglePick(id) {
    if (this.choiceShape()) {
      this.toggleChoice(id);
      return;
    }
    const pick = this.pickable();
    if (!pick || !pick.has(id)) {
      banner(_("That card cannot pay for this one."));
      return;
    }
    if (this.payPick.has(id)) this.payPick.delete(id);
    else this.payPick.add(id);
    const need = this.payInfo().need;
    if (this.payPick.size >= need) {
      const cards = [...this.payPick].sort((a, b) => a - b).slice(0, need);
      const first = this.localPlay ? [this.localPlay.action] : [];
      this.localPlay = null;
      this.payPick.clear();
      this.sendAll([...first, ...cards.map((c) => `pay ${c}`)]);
    } else this.render();
  }

  selectionBar() {
    if (this.selected === null) return null;
    const id = this.selected;
    const cat = this.cat;
    const plays = this.playsOf(id);
    const free = ["free"].includes(this.payload.decision);
    const rows = [];
    const tree = plays.find((a) => a.kind === "play" && !a.side);
    if (tree) {
      const half = cat.half(id, "tree");
      rows.push(h("div", { class: "choice" }, h("button", { class: "primary", dataset: { action: tree.text } },
        cat.isShrub(id)
          ? (free ? _("Plant {card} as a new shrub (free)", { card: half.name }) : _("Plant {card} as a new shrub (cost {cost})", { card: half.name, cost: half.sp.cost }))
          : (free ? _("Plant {card} as a new tree (free)", { card: half.name }) : _("Plant {card} as a new tree (cost {cost})", { card: half.name, cost: half.sp.cost })))));
    }
    for (const half of cat.halves(id)) {
      if (half.side === "tree") continue;
      const at = plays.filter((a) => a.kind === "play" && a.side === half.side);
      if (!at.length) {
        rows.push(h("div", { class: "choice off" }, _("{arrow} {card}: no place for it now", { arrow: ARROWS[half.side], card: half.name })));
        continue;
      }
      rows.push(h("div", { class: `choice ${symClass(half.symbol)}` },
        h("span", { class: "choice-name" }, free ? _("{arrow} {card} (free): tree", { arrow: ARROWS[half.side], card: half.name })
          : _("{arrow} {card} (cost {cost}): tree", { arrow: ARROWS[half.side], card: half.name, cost: half.sp.cost })),
        at.map((a) => h("button", { class: "chip", dataset: { action: a.text }, title: _("{side} of tree {n}", { side: sideWord(half.side), n: a.tree }) }, a.tree))));
    }
    const sap = plays.find((a) => a.kind === "sapling");
    if (sap) rows.push(h("div", { class: "choice" }, h("button", { class: "ghost", dataset: { action: sap.text } }, _("Play it face down as a sapling (free)"))));
    return h("div", { class: "selection", dataset: { testid: "selection" } },
      h("div", { class: "selection-head" }, h("b", {}, cat.label(id)), " ", _("— pick where (the lit places in your forest)"), " ",
        h("button", { class: "ghost small", dataset: { ui: "cancel" } }, _("Cancel"))),
      rows);
  }

  /** The creator re-issues an invited seat's link: shown under the players to pass on. */
  async reissue(seat) {
    try {
      const r = await api("POST", `/api/games/${encodeURIComponent(this.gameId)}/seats/${seat}/invite`, { token: this.token });
      const name = this.payload.seats[seat]?.name || _("seat {n}", { n: seat + 1 });
      this.newLink = { name, url: new URL(r.link, location.href).href };
      this.render();
    } catch (err) {
      banner(err.message);
    }
  }

  playersSection() {
    const p = this.payload;
    const v = p.view;
    return h("section", { class: "players" }, h("h2", {}, _("Players")),
      h("ul", {}, p.seats.map((s) => h("li", { class: `${s.seat === p.to_move && !p.over ? "moving" : ""} ${s.seat === p.you ? "you" : ""}`, dataset: { seat: s.seat } },
        h("span", { class: "pname" }, s.seat === p.you ? _("{name} (you)", { name: s.name }) : s.name),
        this.seatScore(s.seat),
        h("span", { class: "pkind" }, s.kind === "bot" ? _("bot · {level}", { level: s.level || "" }) : s.seat === p.you ? _("here")
          : this.hotseat ? _("at this screen") : s.held === false ? _("not joined yet") : s.connected === false ? _("away") : _("online")),
        h("span", { class: "pfacts" }, _("{hosts} · hand {hand}", { hosts: this.hostsWords(v.forests[s.seat] || [], s.seat), hand: v.hand_sizes[s.seat] })),
        // the creator may give an invited seat a new link (its old link and token stop working)
        p.creator === p.you && p.you !== null && s.kind === "human" && s.seat !== p.you && !p.over
          ? h("button", { class: "ghost small", dataset: { ui: "reissue", seat: s.seat, testid: `reissue-${s.seat}` },
            title: _("A new invite link for this seat: its old link stops working") }, _("New link")) : null))),
      this.newLink ? h("div", { class: "new-link", dataset: { testid: "new-link" } },
        h("p", { class: "hint" }, _("The new link of {name} (the old one no longer works):", { name: this.newLink.name })),
        h("input", { type: "text", readonly: true, value: this.newLink.url, "aria-label": _("new invite link of {name}", { name: this.newLink.name }) })) : null);
  }

  /** A seat's points now beside its name: the server's running score (the scorer on the
   * public forests; the page counts nothing), or the final total at the end. */
  seatScore(seat) {
    const p = this.payload;
    const r = (p.over && p.scores ? p.scores : p.running || []).find((x) => x.seat === seat);
    if (!r) return null;
    return h("span", { class: "pscore", dataset: { testid: "player-score", seat: String(seat) },
      title: p.over ? _("final score") : _("points if the game ended now, from what everyone sees") },
    ngettext("{n} pt", "{n} pts", r.total));
  }

  /** The score pad as it stands now (the server's running score from the public forests),
   * switchable off; the switch stays in this browser. */
  runningSection() {
    const p = this.payload;
    const running = p.running || [];
    const toggle = h("button", { class: "ghost small", dataset: { ui: "running", testid: "running-toggle" },
      "aria-pressed": this.showRunning ? "true" : "false" }, this.showRunning ? _("Hide") : _("Show"));
    const head = h("div", { class: "running-head" }, h("h2", {}, _("Score now")), toggle);
    if (!this.showRunning || !running.length) {
      return h("section", { class: "running off", dataset: { testid: "running" } }, head);
    }
    const bySeat = new Map(running.map((r) => [r.seat, r]));
    const seats = p.seats;
    const table = h("table", { class: "score-pad running-pad", dataset: { testid: "running-score" } },
      h("thead", {}, h("tr", {}, h("th", {}, ""), seats.map((s) => h("th", { title: s.name }, s.name)))),
      h("tbody", {},
        this.padLines().map(([key, word]) => h("tr", {}, h("th", {}, word), seats.map((s) => h("td", {}, bySeat.get(s.seat)?.lines?.[key] ?? 0)))),
        h("tr", { class: "total" }, h("th", {}, _("Total")), seats.map((s) => h("td", {}, bySeat.get(s.seat)?.total ?? 0)))));
    return h("section", { class: "running", dataset: { testid: "running" } }, head, table,
      h("p", { class: "hint" }, _("Points if the game ended now, from what everyone sees.")));
  }

  /** The game's score-pad lines [[key, words]] (the payload's keys in the page's words,
   * the server's words for a key the page does not know; the base game's before). */
  padLines() {
    const lines = this.payload.pad_lines;
    return lines && lines.length ? lines.map(([key, word]) => [key, lineWords(key, word)]) : LINES;
  }

  sideDetail() {
    const touch = window.matchMedia && window.matchMedia("(hover: none)").matches;
    return h("section", { class: "side-detail", dataset: { testid: "side-detail" } }, this.selected !== null ? cardDetail(this.cat, this.selected)
      : h("p", { class: "hint" }, touch ? _("Tap a card in a forest, or a card's i, to read it (and its points now).")
        : _("Point at a card to read it here (in a forest: its points now), or click its i.")));
  }

  /** A log line's words with the names of the cards it names (`cards`, in order) as marks
   * that preview the card on hover or focus (`data-log-card`); a name not found in the
   * words stays plain text. */
  logCards(text, cards) {
    const out = [];
    let at = 0;
    for (const id of cards || []) {
      const names = [this.cat.label(id), ...this.cat.halves(id).map((x) => x.name)].filter(Boolean)
        .sort((a, b) => b.length - a.length); // the whole card's name before a half's
      let found = null;
      for (const name of names) {
        const i = text.indexOf(name, at);
        if (i >= 0 && (!found || i < found[0])) found = [i, name];
      }
      if (!found) continue;
      const [i, name] = found;
      if (i > at) out.push(text.slice(at, i));
      out.push(h("span", { class: "log-card", tabindex: "0", dataset: { logCard: id }, "aria-describedby": "log-preview" }, name));
      at = i + name.length;
    }
    out.push(text.slice(at));
    return out;
  }

  /** The card of a log line's name shown beside it as the hand shows cards (cards.js), in a
   * layer above the page (`#log-preview`, fixed): nothing of the page moves. */
  previewCard(mark) {
    const el = logPreviewEl();
    const id = Number(mark.dataset.logCard);
    if (!this.cat || !this.cat.card(id)) return;
    fill(el, cardTile(this.cat, id, { classes: "preview" }));
    el.hidden = false;
    const r = mark.getBoundingClientRect();
    const w = el.offsetWidth;
    const ht = el.offsetHeight;
    let x = r.left - w - 10;
    if (x < 4) x = Math.min(Math.max(4, r.left), window.innerWidth - w - 4);
    let y = x === r.left - w - 10 ? r.top - ht / 2 + r.height / 2 : r.top - ht - 8;
    if (y < 4) y = r.bottom + 8;
    y = Math.min(y, window.innerHeight - ht - 4);
    el.style.left = `${Math.round(x)}px`;
    el.style.top = `${Math.round(Math.max(4, y))}px`;
  }

  hidePreview() {
    const el = document.getElementById("log-preview");
    if (el) el.hidden = true;
  }

  logSection() {
    const p = this.payload;
    const items = (p.log || []).slice(-80).map((e) => {
      const general = e.seat === null || e.seat === undefined;
      const name = general ? "" : this.name(e.seat);
      const text = String(e.words || e.text || ""); // words only: no card ids
      const body = name && text.startsWith(name) ? [h("b", {}, name), this.logCards(text.slice(name.length), e.cards)]
        : [name ? h("b", {}, name + " ") : null, this.logCards(text, e.cards)];
      return h("li", { class: general ? "general" : e.seat === p.you ? "own" : "" }, body);
    });
    return h("section", { class: "log" }, h("h2", {}, _("Game log")),
      h("ul", { class: "log-list", dataset: { testid: "log" } }, items.length ? items : h("li", { class: "hint" }, _("Nothing yet."))));
  }

  scoreSection() {
    const p = this.payload;
    const scores = p.scores || [];
    // a solo game has no winner: its result (goal, points, medal) leads instead
    const winners = new Set(p.solo ? [] : p.winners || []);
    const bySeat = new Map(scores.map((s) => [s.seat, s]));
    const seats = p.seats;
    const best = winners.size === 1 ? bySeat.get([...winners][0])?.total : null;
    const headline = winners.size === 1
      ? ngettext("{name} wins with {n} point", "{name} wins with {n} points", best ?? 0, { name: this.name([...winners][0]), n: best ?? "?" })
      : _("A tie: {names}", { names: listWords([...winners].map((w) => this.name(w))) });
    const pad = h("table", { class: "score-pad", dataset: { testid: "score-pad" } },
      h("thead", {}, h("tr", {}, h("th", {}, ""), seats.map((s) => h("th", { class: winners.has(s.seat) ? "winner" : "" }, s.name, winners.has(s.seat) ? " ★" : "")))),
      h("tbody", {},
        this.padLines().map(([key, word]) => h("tr", {}, h("th", {}, word), seats.map((s) => h("td", {}, bySeat.get(s.seat)?.lines?.[key] ?? 0)))),
        h("tr", { class: "total" }, h("th", {}, _("Total")), seats.map((s) => h("td", { class: winners.has(s.seat) ? "winner" : "" }, bySeat.get(s.seat)?.total ?? "?")))));
    const details = seats.map((s) => {
      const sc = bySeat.get(s.seat);
      if (!sc) return null;
      return h("details", { class: "card-points", open: s.seat === p.you || (p.you === null && s.seat === 0) },
        h("summary", {}, ngettext("{name}: {n} point, card by card", "{name}: {n} points, card by card", sc.total, { name: s.name })),
        h("table", {}, h("tbody", {}, (sc.cards || []).map((c) => h("tr", {},
          h("td", { class: "where" }, c.where), h("td", { class: "cname" }, c.name), h("td", { class: "pts" }, c.points), h("td", { class: "why" }, c.why))))));
    });
    const canRematch = p.you !== null;
    return h("section", { class: "scores", dataset: { testid: "scores" } },
      p.solo ? h("h1", {}, _("Winter has come")) : h("h1", {}, _("Winter has come: {headline}", { headline })),
      p.solo ? soloPanel(p) : null,
      h("div", { class: "score-wrap" }, pad),
      canRematch ? h("p", {}, h("button", { class: "primary big", dataset: { ui: "rematch", testid: "rematch" } }, p.rematch ? _("Join the rematch") : _("Rematch"))) : null,
      h("div", { class: "details-wrap" }, details),
      reviewSection(p.game_id, seats.map((s) => s.name)));
  }
}

// ------------------------------------------------------------------ start

/** An invite link: claim the seat (once), keep its token, and open the game as that seat;
 * a link used already or replaced says so and offers to watch. */
async function claimInvite(gameId, invite) {
  const path = `/game/${encodeURIComponent(gameId)}`;
  try {
    const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/claim`, { body: { invite } });
    saveSeats(gameId, { tokens: { [r.seat]: r.token }, hotseat: false });
    location.replace(`${path}?token=${encodeURIComponent(r.token)}`);
  } catch (err) {
    document.body.dataset.status = "error";
    fill(root, h("section", { class: "panel", dataset: { testid: "invite-used" } },
      h("h1", {}, _("This invite link cannot be used")),
      h("p", {}, err.message),
      h("p", {}, h("a", { class: "button", href: path }, _("Watch the game")))));
  }
}

async function main() {
  const replay = location.pathname.match(/^\/replay(?:\/([^/]+))?\/?$/);
  if (replay) {
    showReplay(root, ui, replay[1] ? decodeURIComponent(replay[1]) : null);
    return;
  }
  const match = location.pathname.match(/^\/game\/([^/]+)\/?$/);
  if (!match) {
    let offered, levels;
    try {
      [offered, levels] = await Promise.all([api("GET", `/api/games-offered?lang=${encodeURIComponent(lang)}`), api("GET", "/api/levels")]);
    } catch (err) {
      fill(root, h("section", { class: "panel" }, h("h1", {}, _("The server cannot be reached")), h("p", {}, err.message)));
      document.body.dataset.status = "error";
      return;
    }
    showLobby(root, ui, offered, levels);
    return;
  }
  const params = new URLSearchParams(location.search);
  if (params.has("invite")) {
    claimInvite(decodeURIComponent(match[1]), params.get("invite"));
    return;
  }
  new Game(decodeURIComponent(match[1]), params.get("token"), params.has("watch"));
}

main();
