// The start page: choose the game, set up the seats of a new game, then share the invite links.
import { api, knownGames, rememberCreated } from "./api.js";
import { h, fill } from "./dom.js";
import { _, lang, ngettext } from "./i18n.js";
import { soloLobby } from "./solo.js";


/**
 * The lobby. `offered` is GET /api/games-offered: [{id, title}], the server's default first;
 * `levels` is GET /api/levels
 * (the game a creation that names none gets).
 */
export function showLobby(root, ui, offered = [], levels = []) {
  document.body.dataset.status = "lobby";
  // The bot levels as GET /api/levels gives them: [{level, spec, words}].
  const LEVELS = Array.isArray(levels) ? levels.filter((l) => l && l.level) : [];
  const games = Array.isArray(offered) ? offered.filter((g) => g && g.id) : [];
  let game = games.length ? games[0].id : null;
  const titleOf = (id) => (games.find((g) => g.id === id) || {}).title || "Forest Shuffle";
  const heading = h("h1", {}, _("A new game of {title}", { title: titleOf(game) }));
  // what the chosen game is, in the server's words (GET /api/games-offered), never the
  // words of another game
  const wordsOf = (id) => (games.find((g) => g.id === id) || {}).words
    || _("2 to 5 seats, each a person or a bot.");
  const about = h("p", { class: "hint", dataset: { testid: "game-words" } }, wordsOf(game));
  const gameSelect = games.length ? h("select", { id: "game", dataset: { testid: "game-select" }, onchange: (e) => {
    game = e.target.value;
    heading.textContent = _("A new game of {title}", { title: titleOf(game) });
    about.textContent = wordsOf(game);
  } }, games.map((g, i) => h("option", { value: g.id, selected: i === 0 }, g.title))) : null;
  const seats = [
    { kind: "human", name: "", level: "easy" },
    { kind: "bot", name: "", level: "easy" },
  ];
  let hotseat = false;
  const list = h("ol", { class: "seat-list" });
  const form = h("form", { class: "lobby-form", onsubmit: (e) => { e.preventDefault(); create(); } });
  const addButton = h("button", { type: "button", class: "ghost", dataset: { testid: "add-seat" }, onclick: () => {
    if (seats.length < 5) seats.push({ kind: "human", name: "", level: "easy" });
    draw();
  } }, _("+ Add a seat"));
  const hotseatBox = h("input", { type: "checkbox", id: "hotseat", dataset: { testid: "hotseat" }, onchange: (e) => {
    hotseat = e.target.checked;
    draw();
  } });
  const noHelpBox = h("input", { type: "checkbox", id: "no-help", dataset: { testid: "no-help-box" } });
  const seedInput = h("input", { type: "number", id: "seed", min: "0", max: "9007199254740991", step: "1", placeholder: _("random"), dataset: { testid: "seed" } });
  const note = h("p", { class: "hint" });
  const submit = h("button", { type: "submit", class: "primary", dataset: { testid: "create-game" } }, _("Create the game"));

  function draw() {
    fill(list, seats.map((seat, i) => {
      const kind = h("select", { "aria-label": _("seat {n} kind", { n: i + 1 }), dataset: { testid: `seat-kind-${i}` }, onchange: (e) => {
        seat.kind = e.target.value;
        draw();
      } },
      h("option", { value: "human", selected: seat.kind === "human" }, _("Person")),
      h("option", { value: "bot", selected: seat.kind === "bot" }, _("Bot")));
      const name = h("input", { type: "text", maxlength: "24", value: seat.name,
        placeholder: seat.kind === "bot" ? _("Bot {n}", { n: i + 1 }) : _("Player {n}", { n: i + 1 }),
        "aria-label": _("seat {n} name", { n: i + 1 }), dataset: { testid: `seat-name-${i}` },
        oninput: (e) => { seat.name = e.target.value; } });
      const level = seat.kind === "bot" ? h("select", { "aria-label": _("seat {n} level", { n: i + 1 }), dataset: { testid: `seat-level-${i}` },
        onchange: (e) => { seat.level = e.target.value; } },
      LEVELS.map((l) => h("option", { value: l.level, selected: seat.level === l.level }, l.words))) : null;
      const remove = seats.length > 2 ? h("button", { type: "button", class: "ghost small", title: _("Remove this seat"),
        "aria-label": _("remove seat {n}", { n: i + 1 }), onclick: () => { seats.splice(i, 1); draw(); } }, "✕") : null;
      return h("li", { class: `seat-row ${seat.kind}` }, h("span", { class: "seat-num" }, i + 1), kind, name, level, remove);
    }));
    addButton.hidden = seats.length >= 5;
    const humans = seats.filter((s) => s.kind === "human").length;
    note.textContent = hotseat
      ? ngettext("Hot-seat: the {n} person plays at this screen; a hand-over screen hides each hand between turns.",
        "Hot-seat: the {n} people play at this screen; a hand-over screen hides each hand between turns.", humans)
      : humans > 1 ? _("Each person gets an invite link to open in their own browser.") : "";
  }

  async function create() {
    submit.disabled = true;
    const body = {
      seats: seats.map((s, i) => ({ kind: s.kind, name: s.name.trim() || (s.kind === "bot" ? _("Bot {n}", { n: i + 1 }) : _("Player {n}", { n: i + 1 })),
        ...(s.kind === "bot" ? { level: s.level } : {}) })),
      hotseat,
    };
    if (game) body.game = game;
    if (noHelpBox.checked) body.help = false; // the seats agreed: no Suggest in this game
    if (seedInput.value !== "") body.seed = Number(seedInput.value);
    try {
      const created = await api("POST", `/api/games?lang=${encodeURIComponent(lang)}`, { body });
      rememberCreated(created, hotseat);
      const humans = created.seats.filter((s) => s.token);
      const invited = created.seats.filter((s) => s.invite);
      if (hotseat || !invited.length) {
        ui.go(`/game/${created.game_id}` + (humans.length ? `?token=${encodeURIComponent(humans[0].token)}` : ""));
      } else {
        showInvites(root, created, ui);
      }
    } catch (err) {
      ui.banner(err.message);
      submit.disabled = false;
    }
  }

  draw();
  const mine = h("section", { class: "panel lobby known", dataset: { testid: "known-games" }, hidden: true });
  listKnown(mine);
  fill(root, mine, h("section", { class: "panel lobby" },
    heading, about, form), soloLobby(ui), h("section", { class: "panel lobby" }, h("h2", {}, _("Replays")),
    h("p", {}, h("a", { class: "button", href: "/replay", dataset: { testid: "replay-page" } }, _("▶ Replay a game")),
      " ", _("a finished game of this server, or a record file, move by move."))),
    h("section", { class: "panel lobby" }, h("h2", {}, _("At the table")),
      h("p", {}, h("a", { class: "button", href: "/pad", dataset: { testid: "pad-page" } }, _("Score pad")),
        " ", _("for a game played with the cards;"), " ",
        h("a", { class: "button", href: "/companion", dataset: { testid: "companion-page" } }, _("Solo companion")),
        " ", _("plays Anna for a Dartmoor solo game with the cards."))));
  fill(form,
    gameSelect ? h("div", { class: "form-row" }, h("label", { for: "game" }, _("Game"), " "), gameSelect) : null,
    h("h2", {}, _("Seats")), list, addButton,
    h("div", { class: "form-row" }, h("label", { for: "hotseat", class: "check" }, hotseatBox, " ", _("Hot-seat: everyone plays at this screen"))),
    h("div", { class: "form-row" }, h("label", { for: "no-help", class: "check" }, noHelpBox, " ", _("Play without help: no Suggest button for anyone in this game"))),
    h("div", { class: "form-row" }, h("label", { for: "seed" }, _("Seed (optional)"), " "), seedInput),
    h("p", { class: "hint", dataset: { testid: "seed-hint" } }, _("A chosen seed lets you know every card: every seat is told \u201cthis deal was chosen by the creator\u201d. Leave it empty for a secret deal.")),
    note, submit);
}

/** The games this browser holds seats of (asked of the server: POST /api/known-games):
 * those still being played, each with a link back in, and the finished ones, each with its
 * end screen and its replay; hidden when there are none. */
async function listKnown(box) {
  const known = knownGames().slice(0, 30);
  if (!known.length) return;
  let answers;
  try {
    answers = await api("POST", "/api/known-games", {
      body: { games: known.map((g) => ({ game_id: g.gameId, token: firstToken(g.tokens) })) },
    });
  } catch (err) {
    return; // the new-game form still works
  }
  const byId = new Map(known.map((g) => [g.gameId, g]));
  const mine = (answers || []).filter((a) => a.found && a.token_ok);
  const ongoing = mine.filter((a) => !a.over);
  const finished = mine.filter((a) => a.over);
  if (!ongoing.length && !finished.length) return;
  const href = (a) => {
    const g = byId.get(a.game_id) || { hotseat: false };
    return g.hotseat ? `/game/${a.game_id}` : a.link || `/game/${a.game_id}`;
  };
  fill(box, ongoing.length ? h("h1", {}, _("Your games")) : null,
    ongoing.length ? h("ul", { class: "known-list" }, ongoing.map((a) => {
      const who = (a.names || []).join(" · ");
      const state = a.your_move ? _("your move") : a.to_move === null ? _("opening hands") : _("{name} to move", { name: a.names[a.to_move] });
      return h("li", { class: `known-game ${a.your_move ? "your-move" : ""}`, dataset: { game: a.game_id } },
        h("span", { class: "known-names" }, who),
        h("span", { class: "known-title" }, a.title || ""),
        h("span", { class: "known-state" }, state),
        h("a", { class: "button primary small", href: href(a), dataset: { testid: `continue-${a.game_id}` } }, _("Continue")));
    })) : null,
    finished.length ? h("h2", {}, _("Your finished games")) : null,
    finished.length ? h("ul", { class: "known-list finished", dataset: { testid: "finished-games" } }, finished.map((a) =>
      h("li", { class: "known-game over", dataset: { game: a.game_id } },
        h("span", { class: "known-names" }, (a.names || []).join(" · ")),
        h("span", { class: "known-title" }, a.title || ""),
        h("a", { class: "button ghost small", href: href(a), dataset: { testid: `result-${a.game_id}` } }, _("Result")),
        h("a", { class: "button small", href: `/replay/${encodeURIComponent(a.game_id)}`, dataset: { testid: `replay-${a.game_id}` } }, _("▶ Replay"))))) : null);
  box.hidden = false;
}

function firstToken(tokens) {
  const seats = Object.keys(tokens || {}).map(Number).sort((a, b) => a - b);
  return seats.length ? tokens[seats[0]] : null;
}

/** Whether this page was opened at an address only this computer reaches. */
function localOnly() {
  return ["127.0.0.1", "localhost", "::1", "[::1]"].includes(location.hostname);
}

function showInvites(root, created, ui) {
  const link = (seat) => new URL(seat.link || `/game/${created.game_id}?token=${seat.token}`, location.href).href;
  const rows = created.seats.map((seat) => {
    if (seat.kind === "bot") return h("li", { class: "invite bot" }, h("b", {}, seat.name), " · ", _("bot ({level})", { level: seat.level }));
    const url = link(seat);
    const input = h("input", { type: "text", readonly: true, value: url, "aria-label": _("invite link of {name}", { name: seat.name }),
      onfocus: (e) => e.target.select() });
    const copy = h("button", { type: "button", class: "ghost", dataset: { testid: `copy-${seat.seat}` }, onclick: async () => {
      try {
        await navigator.clipboard.writeText(url);
        ui.banner(_("Copied the link of {name}.", { name: seat.name }), "info");
      } catch (err) {
        input.select();
        ui.banner(_("Copy it by hand: the link is selected."), "info");
      }
    } }, _("Copy"));
    return h("li", { class: "invite" }, h("b", {}, seat.name), h("div", { class: "invite-row" }, input, copy,
      h("a", { class: "button ghost", href: url, dataset: { testid: `open-${seat.seat}` } }, _("Open"))));
  });
  fill(root, h("section", { class: "panel lobby" },
    h("h1", {}, _("Invite the players")),
    h("p", { class: "hint" }, _("Send each person their own link: it takes their seat once (then it no longer works, and you keep only your own seat's link). If a link goes astray, give that seat a new one from the game's list of players. Anyone with a link of no seat only watches.")),
    localOnly() ? h("p", { class: "warning", dataset: { testid: "local-only" } },
      _("These links name {host}, which means this computer: a friend on another machine cannot open them.", { host: location.hostname }), " ",
      _("Start the server with {command} and open this page at this computer's address on your network (such as {example}); the links then name that address.",
        { command: "forest-shuffle serve --host 0.0.0.0", example: `http://192.168.1.20:${location.port || "8000"}` })) : null,
    h("ul", { class: "invites" }, rows)));
}
