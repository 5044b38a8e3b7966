// The coach in the page: the Suggest button (POST /api/games/{id}/suggest, docs/web.md).
// It asks the server what the hard bot would do in this seat (from this seat's view only),
// highlights the suggested card and place and shows the reason in words. It never plays:
// the player still clicks (or does something else).
import { api } from "./api.js";
import { h } from "./dom.js";
import { _ } from "./i18n.js";

/** The coach of one game page. `game` is app.js's Game (its payload, token, render()). */
export class Coach {
  constructor(game) {
    this.game = game;
    this.answer = null; // the server's suggestion, for `key`
    this.key = null;
    this.asking = false;
  }

  /** "game version seat": a suggestion holds for one decision of one seat. */
  keyOf() {
    const p = this.game.payload;
    return p ? `${p.game_id} ${p.version} ${p.you}` : null;
  }

  current() {
    return this.answer && this.key === this.keyOf() ? this.answer : null;
  }

  async ask() {
    const p = this.game.payload;
    if (!p || this.asking) return;
    const key = this.keyOf();
    this.asking = true;
    this.game.render();
    try {
      const answer = await api("POST", `/api/games/${encodeURIComponent(p.game_id)}/suggest`, { token: this.game.token });
      this.answer = answer;
      this.key = key;
    } catch (err) {
      this.answer = { error: err.message }; // one line of the server's (403, 429, ...)
      this.key = key;
    } finally {
      this.asking = false;
      this.game.render();
    }
  }

  /** The coach's bar under the prompt: the button, then the reason (null when the viewer
   * has no decision). */
  section() {
    const g = this.game;
    const p = g.payload;
    if (!p || p.over || !g.myDecision()) return null;
    if (p.help === false) {
      return h("section", { class: "coach off", dataset: { testid: "coach" } },
        h("p", { class: "hint", dataset: { testid: "no-help" } }, _("This game is played without help: the seats agreed to no suggestions.")));
    }
    const answer = this.current();
    const button = h("button", { class: "ghost coach-button", dataset: { testid: "suggest" }, disabled: this.asking,
      title: _("What would the hard bot do in your place? (nothing is played)"), onclick: (e) => { e.preventDefault(); this.ask(); } },
    this.asking ? _("Thinking…") : _("Suggest a move"));
    let body = null;
    if (answer && answer.error) body = h("p", { class: "coach-words error", dataset: { testid: "suggestion-error" } }, answer.error);
    else if (answer) {
      body = h("div", { class: "coach-words", dataset: { testid: "suggestion", suggested: answer.action } },
        h("p", {}, answer.words),
        h("p", { class: "hint" }, _("The suggested card and place are outlined. Nothing was played.")));
    }
    return h("section", { class: "coach", dataset: { testid: "coach" } }, button, body);
  }

  /** After a render: outline what the suggestion names (the elements that play its action
   * texts, the hand card, its payment, the tree it goes to). */
  mark(root) {
    const answer = this.current();
    document.body.dataset.suggested = answer && !answer.error ? answer.action : "";
    if (!answer || answer.error) return;
    const texts = new Set(answer.actions || [answer.action]);
    for (const el of root.querySelectorAll("[data-action]")) {
      if (texts.has(el.dataset.action)) el.classList.add("suggested");
    }
    const hand = root.querySelector("[data-testid=hand]");
    if (hand && answer.card && ["play", "sapling", "cave", "pay"].includes(answer.kind)) {
      for (const el of hand.querySelectorAll(`.tile[data-card="${answer.card}"]`)) el.classList.add("suggested");
    }
    if (hand) {
      for (const id of answer.payment || []) {
        for (const el of hand.querySelectorAll(`.tile[data-card="${id}"]`)) el.classList.add("suggested-pay");
      }
    }
    const mine = root.querySelector("[data-testid=my-forest]");
    if (mine && answer.kind === "play" && answer.tree) {
      const tree = mine.querySelector(`.tree[data-tree="${answer.tree}"]`);
      if (tree) {
        tree.classList.add("suggested-tree");
        const slot = tree.querySelector(`.slot-${answer.side}`);
        if (slot) slot.classList.add("suggested");
      }
    }
    if (answer.kind === "draw") {
      const deck = root.querySelector("[data-testid=deck]");
      if (deck) deck.classList.add("suggested");
    }
    if (["take", "cave"].includes(answer.kind)) {
      const clearing = root.querySelector("[data-testid=clearing]");
      if (clearing) for (const el of clearing.querySelectorAll(`.tile[data-card="${answer.card}"]`)) el.classList.add("suggested");
    }
  }
}
