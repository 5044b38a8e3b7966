// What changed between two payloads, shown by movement (FLIP: the card is drawn where it
// is now, then glides there from where it was). No library: the Web Animations API.
//
// Contract: Game.render() calls capture(root, payload) before it redraws the table and
// play(root, before, payload) after. Only a new version of the same game and viewer moves
// anything (a redraw for a click moves nothing). Each card drawn in a new place gets a
// `data-anim` attribute naming the move, for tests and styles:
//   "move"       it was on the table elsewhere (clearing -> hand, hand -> forest, ...),
//   "from-deck"  it came from the deck (a draw, the card a tree turns into the clearing),
//   "from-hand"  it entered a forest from its player's hand (an opponent's play),
//   "leave"      a ghost of a card that left the table into a hidden place (taken into an
//                opponent's hand, under a cave, to the box or discard pile); it flies to
//                the player whose hand grew, else fades, and is removed.
// `last` holds the moves of the last payload: [{card, kind, from, to, version}]; `history`
// the last HISTORY of them.

/** The elements that stand for one card on the table. */
const CARDS = ".tile[data-card], .trunk[data-card], .dweller[data-card]";
const DURATION = 520;
const HISTORY = 300;

function zoneOf(el) {
  if (el.closest("[data-testid=clearing]")) return "clearing";
  if (el.closest("[data-testid=hand]")) return "hand";
  const forest = el.closest(".forest[data-seat]");
  if (forest) return `forest-${forest.dataset.seat}`;
  return null;
}

function reduced() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

export class Animator {
  constructor() {
    this.key = null; // "game viewer version" of the last payload drawn
    this.last = [];
    this.history = [];
  }

  /** Where every card of the table is drawn now, if `p` is a newer version of the payload
   * drawn last (same game and viewer); else null (nothing will move). */
  capture(root, p) {
    const key = `${p.game_id} ${p.you}`;
    const before = this.key;
    if (!before || before.key !== key || before.version === p.version) return null;
    const cards = new Map();
    for (const el of root.querySelectorAll(CARDS)) {
      const zone = zoneOf(el);
      const id = Number(el.dataset.card);
      if (!zone || cards.has(id)) continue;
      cards.set(id, { rect: el.getBoundingClientRect(), zone, node: el });
    }
    const deck = root.querySelector("[data-testid=deck]");
    const players = new Map();
    for (const li of root.querySelectorAll(".players li[data-seat]")) players.set(Number(li.dataset.seat), li.getBoundingClientRect());
    return { cards, deck: deck ? deck.getBoundingClientRect() : null, players, hands: before.hands };
  }

  /** After the redraw: move each card from where it was, and mark it (see the top). */
  play(root, before, p) {
    const moved = !!before;
    this.key = { key: `${p.game_id} ${p.you}`, version: p.version, hands: [...(p.view.hand_sizes || [])] };
    if (!moved) return;
    this.last = [];
    const still = reduced();
    const seen = new Set();
    for (const el of root.querySelectorAll(CARDS)) {
      const zone = zoneOf(el);
      const id = Number(el.dataset.card);
      if (!zone || seen.has(id)) continue;
      seen.add(id);
      const old = before.cards.get(id);
      let from = null;
      let kind = null;
      if (old && old.zone !== zone) {
        kind = "move";
        from = old.rect;
      } else if (!old && (zone === "clearing" || zone === "hand")) {
        kind = "from-deck";
        from = before.deck;
      } else if (!old && zone.startsWith("forest-")) {
        kind = "from-hand";
        from = before.players.get(Number(zone.slice(7))) || null;
      }
      if (!kind) continue;
      el.dataset.anim = kind;
      this.last.push({ card: id, kind, from: old ? old.zone : kind === "from-deck" ? "deck" : "hand", to: zone, version: p.version });
      if (from && !still) glide(el, from);
    }
    // cards that left the table for a hidden place
    const grew = (p.view.hand_sizes || []).findIndex((n, seat) => before.hands && n > (before.hands[seat] ?? n));
    for (const [id, old] of before.cards) {
      if (seen.has(id) || old.zone === "hand") continue;
      const to = grew >= 0 ? root.querySelector(`.players li[data-seat="${grew}"]`) : null;
      this.last.push({ card: id, kind: "leave", from: old.zone, to: to ? `hand-${grew}` : "gone", version: p.version });
      if (!still) ghost(old, to ? to.getBoundingClientRect() : null);
    }
    this.history.push(...this.last);
    if (this.history.length > HISTORY) this.history.splice(0, this.history.length - HISTORY);
  }
}

/** Draw `el` at `from` and let it glide to where it is. */
function glide(el, from) {
  const to = el.getBoundingClientRect();
  if (!to.width || !to.height) return;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const sx = Math.max(0.2, Math.min(4, from.width / to.width));
  const sy = Math.max(0.2, Math.min(4, from.height / to.height));
  el.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, opacity: 0.6 },
    { transform: "none", opacity: 1 },
  ], { duration: DURATION, easing: "cubic-bezier(.2, .7, .3, 1)" });
  el.classList.add("arrived");
}

/** A copy of a card that left the table, flying from where it was to `to` (or fading). */
function ghost(old, to) {
  const g = old.node.cloneNode(true);
  g.removeAttribute("data-action");
  g.removeAttribute("data-ui");
  g.classList.add("anim-ghost");
  g.dataset.anim = "leave";
  g.setAttribute("aria-hidden", "true");
  const r = old.rect;
  Object.assign(g.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`,
    height: `${r.height}px`, margin: "0", zIndex: "50", pointerEvents: "none" });
  document.body.appendChild(g);
  const end = to ? { transform: `translate(${to.left - r.left}px, ${to.top - r.top}px) scale(.3)`, opacity: 0.1 }
    : { transform: "translateY(-24px) scale(.85)", opacity: 0 };
  const a = g.animate([{ transform: "none", opacity: 1 }, end], { duration: DURATION + 180, easing: "ease-in" });
  a.onfinish = () => g.remove();
  setTimeout(() => g.remove(), DURATION + 600);
}
