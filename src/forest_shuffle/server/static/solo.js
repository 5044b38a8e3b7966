// Dartmoor's solo mode: the lobby's form (GET /api/solo, POST /api/solo) and the game page's
// panel of the payload's `solo` (the challenge, Anna's status and last turn, the result).
// Every word and number comes from the server (text/narration.py, solo.json): none here.
import { api, rememberCreated } from "./api.js";
import { h, fill } from "./dom.js";
import { _ } from "./i18n.js";

/**
 * The lobby's "Dartmoor solo" section: the challenges (title and medal thresholds from
 * GET /api/solo), a medal to play for and a name; creating one opens its 1-seat game.
 * Hidden when the server offers no solo challenges.
 */
export function soloLobby(ui) {
  const box = h("section", { class: "panel lobby solo-lobby", dataset: { testid: "solo-lobby" }, hidden: true });
  loadChallenges(box, ui);
  return box;
}

async function loadChallenges(box, ui) {
  let data;
  try {
    data = await api("GET", "/api/solo");
  } catch (err) {
    return; // the other forms still work
  }
  const list = (data && data.challenges) || [];
  if (!list.length) return;
  const medals = data.medals || [];
  const automa = data.automa || _("the automa");
  const goal = h("p", { class: "solo-goal", dataset: { testid: "solo-goal" } });
  const marks = h("ul", { class: "solo-marks", dataset: { testid: "solo-thresholds" } });
  const pick = h("select", { id: "solo-challenge", dataset: { testid: "solo-challenge" }, onchange: () => show() },
    list.map((c, i) => h("option", { value: String(c.number), selected: i === 0 }, `${c.number}. ${c.title}`)));
  const medal = h("select", { id: "solo-medal", dataset: { testid: "solo-medal" } },
    h("option", { value: "" }, _("none in particular")),
    medals.map((m) => h("option", { value: m }, m)));
  const name = h("input", { type: "text", id: "solo-name", maxlength: "24", placeholder: _("Player {n}", { n: 1 }), dataset: { testid: "solo-name" } });
  const submit = h("button", { type: "submit", class: "primary", dataset: { testid: "create-solo" } }, _("Play this challenge"));

  function chosen() {
    return list.find((c) => String(c.number) === pick.value) || list[0];
  }
  function show() {
    const c = chosen();
    goal.textContent = c.words;
    fill(marks, Object.entries(c.thresholds || {}).map(([m, pts]) =>
      h("li", { class: `medal ${m}`, dataset: { medal: m, points: String(pts) } }, _("{medal}: {n} points", { medal: m, n: pts }))));
  }

  async function create() {
    submit.disabled = true;
    const body = { challenge: chosen().number };
    if (medal.value) body.medal = medal.value;
    if (name.value.trim()) body.name = name.value.trim();
    try {
      const created = await api("POST", "/api/solo", { body });
      rememberCreated(created, false);
      const seat = (created.seats || []).find((s) => s.token);
      ui.go(`/game/${created.game_id}` + (seat ? `?token=${encodeURIComponent(seat.token)}` : ""));
    } catch (err) {
      ui.banner(err.message);
      submit.disabled = false;
    }
  }

  show();
  const provisional = Object.keys(data.provisional || {}).length;
  fill(box, h("h2", {}, _("Dartmoor solo")),
    h("p", { class: "hint" }, _("You alone against {automa}, who takes cards out of the clearing after each of your turns.", { automa }), " ",
      _("Meet the challenge's goal, then score enough for a medal.")),
    h("form", { class: "lobby-form", onsubmit: (e) => { e.preventDefault(); create(); } },
      h("div", { class: "form-row" }, h("label", { for: "solo-challenge" }, _("Challenge"), " "), pick),
      goal, marks,
      h("div", { class: "form-row" }, h("label", { for: "solo-medal" }, _("Play for the medal"), " "), medal),
      h("div", { class: "form-row" }, h("label", { for: "solo-name" }, _("Your name"), " "), name),
      provisional ? h("p", { class: "hint", title: Object.values(data.provisional).join(" ") },
        _("≈ Some rules of the solo mode are readings of ours (hover for them).")) : null,
      submit));
  box.hidden = false;
}

/** The game page's solo panel, or null for any other game (`p` is the payload). */
export function soloPanel(p) {
  const s = p && p.solo;
  if (!s) return null;
  const result = s.result;
  const marks = h("ul", { class: "solo-marks", dataset: { testid: "solo-thresholds" } },
    Object.entries(s.thresholds || {}).map(([m, pts]) => h("li", {
      class: `medal ${m} ${m === s.medal ? "chosen" : ""} ${result && result.medal === m ? "won" : ""}`,
      dataset: { medal: m, points: String(pts) },
    }, `${m}: ${pts}`)));
  const body = result
    ? h("div", { class: "solo-result", dataset: { testid: "solo-result", medal: result.medal || "", met: result.goal_met ? "1" : "0" } },
      result.words.map((line) => h("p", {}, line)))
    : h("div", { class: "solo-now" },
      h("p", { class: "solo-progress", dataset: { testid: "solo-progress", have: String(s.progress.have), need: String(s.progress.need) } }, s.progress.words),
      h("p", { class: "solo-anna", dataset: { testid: "anna-status", left: String(s.automa_left) } }, s.status),
      s.last ? h("p", { class: "solo-last", dataset: { testid: "anna-last" } }, s.last) : null);
  return h("section", { class: `solo-panel ${result ? "over" : ""}`, dataset: { testid: "solo" } },
    h("p", { class: "solo-goal", dataset: { testid: "solo-goal" } }, s.words), marks, body);
}
