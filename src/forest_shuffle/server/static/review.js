// After the game: the review (GET /api/games/{id}/review, docs/web.md). Each player's points
// over the game as an inline SVG chart drawn here (no library), where the final points came
// from (species and score-pad lines), and the moves the hard bot would have made
// differently. Everything is computed by the server; the page only draws it.
import { api } from "./api.js";
import { lineWords } from "./cards.js";
import { h } from "./dom.js";
import { _, ngettext } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
/** One colour per seat (also told apart by the legend and the points' titles). */
export const SEAT_COLOURS = ["#2f6b37", "#c8453b", "#3f7cc4", "#d99a1e", "#6f4f86"];

export { lineWords };

/** An SVG element (h() makes HTML ones). */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const sections = new Map(); // game id -> the review's section (drawn once, kept over renders)

/** The review of a finished game, as one element that fills itself when the server's
 * review arrives (the same element on every render of the page). */
export function reviewSection(gameId, seatNames) {
  if (sections.has(gameId)) return sections.get(gameId);
  // keyed: a redraw's patch (dom.js) keeps this very element, which fills itself later
  const box = h("section", { class: "review", dataset: { key: `review-${gameId}`, testid: "review", state: "loading" } },
    h("h2", {}, _("Review of the game")),
    h("p", { class: "hint", dataset: { testid: "review-loading" } }, _("The hard bot is looking back over the game…")));
  sections.set(gameId, box);
  api("GET", `/api/games/${encodeURIComponent(gameId)}/review`).then((rv) => {
    box.replaceChildren(h("h2", {}, _("Review of the game")), ...drawReview(rv, gameId, seatNames));
    box.dataset.state = "ready";
  }).catch((err) => {
    sections.delete(gameId); // asked again on the next render
    box.replaceChildren(h("h2", {}, _("Review of the game")), h("p", { class: "error", dataset: { testid: "review-error" } }, err.message));
    box.dataset.state = "error";
  });
  return box;
}

function drawReview(rv, gameId, seatNames) {
  const names = seatNames && seatNames.length ? seatNames : rv.names;
  return [
    h("h3", {}, _("Points over the game")),
    chart(rv, names),
    h("h3", {}, _("Where the points came from")),
    h("div", { class: "review-sources" }, rv.final.map((f) => sources(f, rv.lines, names))),
    h("h3", {}, _("Moves the hard bot would have made differently")),
    moves(rv, gameId),
    h("p", {}, h("a", { class: "button", href: `/replay/${encodeURIComponent(gameId)}`, dataset: { testid: "replay-link" } }, _("▶ Replay this game move by move"))),
  ];
}

/** Each seat's points after every turn: one polyline per seat, turns across. */
export function chart(rv, names) {
  const W = 640;
  const H = 260;
  const pad = { l: 40, r: 12, t: 12, b: 30 };
  const turns = rv.turns;
  const maxTurn = Math.max(1, ...turns.map((t) => t.turn));
  const maxPts = Math.max(10, ...turns.flatMap((t) => t.totals));
  const x = (t) => pad.l + ((W - pad.l - pad.r) * t) / maxTurn;
  const y = (v) => H - pad.b - ((H - pad.t - pad.b) * v) / maxPts;
  const step = maxPts > 150 ? 50 : maxPts > 60 ? 20 : 10;
  const grid = [];
  for (let v = 0; v <= maxPts; v += step) {
    grid.push(svg("line", { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: "grid" }),
      svg("text", { x: pad.l - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, v));
  }
  const tstep = maxTurn > 60 ? 20 : maxTurn > 24 ? 10 : 5;
  for (let t = 0; t <= maxTurn; t += tstep) {
    grid.push(svg("text", { x: x(t), y: H - pad.b + 16, "text-anchor": "middle", class: "tick" }, t));
  }
  grid.push(svg("text", { x: (W + pad.l) / 2, y: H - 2, "text-anchor": "middle", class: "axis" }, _("turns (every player's counted)")));
  const lines = names.map((name, seat) => {
    const pts = turns.map((t) => `${x(t.turn).toFixed(1)},${y(t.totals[seat]).toFixed(1)}`).join(" ");
    const last = turns[turns.length - 1];
    return svg("g", { class: "seat-line", "data-seat": seat },
      svg("polyline", { points: pts, fill: "none", stroke: SEAT_COLOURS[seat % SEAT_COLOURS.length], "stroke-width": 2.5 }),
      turns.map((t) => svg("circle", { cx: x(t.turn), cy: y(t.totals[seat]), r: 2.5, fill: SEAT_COLOURS[seat % SEAT_COLOURS.length],
        "data-turn": t.turn, "data-step": t.step, "data-points": t.totals[seat] }, svg("title", {}, ngettext("{name}, turn {turn}: {n} point", "{name}, turn {turn}: {n} points", t.totals[seat], { name, turn: t.turn })))),
      svg("text", { x: x(last.turn) - 4, y: y(last.totals[seat]) - 6, "text-anchor": "end", class: "end-label",
        fill: SEAT_COLOURS[seat % SEAT_COLOURS.length] }, last.totals[seat]));
  });
  const figure = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-chart", role: "img",
    "aria-label": _("Points after each turn: {list}", { list: names.map((n, s) => `${n} ${turns[turns.length - 1].totals[s]}`).join(", ") }) },
  svg("line", { x1: pad.l, x2: pad.l, y1: pad.t, y2: H - pad.b, class: "axis-line" }),
  svg("line", { x1: pad.l, x2: W - pad.r, y1: H - pad.b, y2: H - pad.b, class: "axis-line" }),
  grid, lines);
  figure.dataset.testid = "review-chart";
  const legend = h("ul", { class: "legend" }, names.map((n, s) => h("li", {},
    h("span", { class: "swatch", style: { background: SEAT_COLOURS[s % SEAT_COLOURS.length] } }), n)));
  return h("figure", { class: "chart-box" }, figure, legend,
    h("figcaption", { class: "hint" }, _("Points if the game had ended after each turn, from the public forests (the game's scorer, computed by the server).")));
}

function sources(f, lineKeys, names) {
  return h("div", { class: "review-source", dataset: { testid: `review-species-${f.seat}` } },
    h("h4", {}, ngettext("{name}: {n} point", "{name}: {n} points", f.total, { name: names[f.seat] })),
    h("table", { class: "review-lines" }, h("tbody", {},
      lineKeys.map((k) => h("tr", { dataset: { line: k } }, h("th", {}, lineWords(k)), h("td", {}, f.lines[k] ?? 0))))),
    h("table", { class: "review-species" }, h("tbody", {},
      f.species.filter((s) => s.points !== 0).map((s) => h("tr", { dataset: { species: s.name, points: s.points } },
        h("th", {}, s.name.replace(/^./, (c) => c.toUpperCase())), h("td", { class: "n" }, `×${s.cards}`), h("td", {}, s.points))))));
}

function moves(rv, gameId) {
  if (!rv.moves.length) {
    return h("p", { class: "hint", dataset: { testid: "review-moves" } },
      ngettext("Among the {n} move checked, the hard bot found none it would have made differently with a clear gain.",
        "Among the {n} moves checked, the hard bot found none it would have made differently with a clear gain.", rv.checked));
  }
  return h("div", {},
    h("ol", { class: "review-moves", dataset: { testid: "review-moves" } }, rv.moves.map((m) => h("li", {
      dataset: { step: m.step, seat: m.seat, played: m.played, chosen: m.chosen, gain: m.gain } },
    h("b", {}, _("{name}'s turn {turn}:", { name: m.name, turn: m.own_turn })), " ", `${m.played_words}. `,
    h("span", { class: "better" }, _("The hard bot would rather {move}", { move: m.chosen_words })),
    " ", ngettext("(about {n} point more expected).", "(about {n} points more expected).", m.gain), " ",
    h("a", { href: `/replay/${encodeURIComponent(gameId)}?step=${m.step}&seat=${m.seat}` }, _("see it"))))),
    h("p", { class: "hint" }, ngettext("{n} move checked, each from the player's own view at that moment, by {bot}.",
      "{n} moves checked, each from the player's own view at that moment, by {bot}.", rv.checked, { bot: rv.bot })));
}
