// The start page: choose the game, set up the seats of a new game, then share the invite links.
import { api, knownGames, rememberCreated } from "./api.js";
import { h, fill } from "./dom.js";
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
  const heading = h("h1", {}, `A new game of ${titleOf(game)}`);
  // what the chosen game is, in the server's words (GET /api/games-offered), never the
  // words of another game
  const wordsOf = (id) => (games.find((g) => g.id === id) || {}).words
    || "2 to 5 seats, each a person or a bot.";
  const about = h("p", { class: "hint", dataset: { testid: "game-words" } }, wordsOf(game));
  const gameSelect = games.length ? h("select", { id: "game", dataset: { testid: "game-select" }, onchange: (e) => {
    game = e.target.value;
    heading.textContent = `A new game of ${titleOf(game)}`;
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
  } }, "+ Add a seat");
  const hotseatBox = h("input", { type: "checkbox", id: "hotseat", dataset: { testid: "hotseat" }, onchange: (e) => {
    hotseat = e.target.checked;
    draw();
  } });
  const noHelpBox = h("input", { type: "checkbox", id: "no-help", dataset: { testid: "no-help-box" } });
  const seedInput = h("input", { type: "number", id: "seed", min: "0", max: "9007199254740991", step: "1", placeholder: "random", dataset: { testid: "seed" } });
  const note = h("p", { class: "hint" });
  const submit = h("button", { type: "submit", class: "primary", dataset: { testid: "create-game" } }, "Create the game");

  function draw() {
    fill(list, seats.map((seat, i) => {
      const kind = h("select", { "aria-label": `seat ${i + 1} kind`, dataset: { testid: `seat-kind-${i}` }, onchange: (e) => {
        seat.kind = e.target.value;
        draw();
      } },
      h("option", { value: "human", selected: seat.kind === "human" }, "Person"),
      h("option", { value: "bot", selected: seat.kind === "bot" }, "Bot"));
      const name = h("input", { type: "text", maxlength: "24", value: seat.name,
        placeholder: seat.kind === "bot" ? `Bot ${i + 1}` : `Player ${i + 1}`,
        "aria-label": `seat ${i + 1} name`, dataset: { testid: `seat-name-${i}` },
        oninput: (e) => { seat.name = e.target.value; } });
      const level = seat.kind === "bot" ? h("select", { "aria-label": `seat ${i + 1} level`, dataset: { testid: `seat-level-${i}` },
        onchange: (e) => { seat.level = e.target.value; } },
      LEVELS.map((l) => h("option", { value: l.level, selected: seat.level === l.level }, l.words))) : null;
      const remove = seats.length > 2 ? h("button", { type: "button", class: "ghost small", title: "Remove this seat",
        "aria-label": `remove seat ${i + 1}`, onclick: () => { seats.splice(i, 1); draw(); } }, "✕") : null;
      return h("li", { class: `seat-row ${seat.kind}` }, h("span", { class: "seat-num" }, i + 1), kind, name, level, remove);
    }));
    addButton.hidden = seats.length >= 5;
    const humans = seats.filter((s) => s.kind === "human").length;
    note.textContent = hotseat
      ? `Hot-seat: the ${humans} ${humans === 1 ? "person plays" : "people play"} at this screen; a hand-over screen hides each hand between turns.`
      : humans > 1 ? "Each person gets an invite link to open in their own browser." : "";
  }

  async function create() {
    submit.disabled = true;
    const body = {
      seats: seats.map((s, i) => ({ kind: s.kind, name: s.name.trim() || (s.kind === "bot" ? `Bot ${i + 1}` : `Player ${i + 1}`),
        ...(s.kind === "bot" ? { level: s.level } : {}) })),
      hotseat,
    };
    if (game) body.game = game;
    if (noHelpBox.checked) body.help = false; // the seats agreed: no Suggest in this game
    if (seedInput.value !== "") body.seed = Number(seedInput.value);
    try {
      const created = await api("POST", "/api/games", { body });
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
    heading, about, form), soloLobby(ui), h("section", { class: "panel lobby" }, h("h2", {}, "Replays"),
    h("p", {}, h("a", { class: "button", href: "/replay", dataset: { testid: "replay-page" } }, "▶ Replay a game"),
      " a finished game of this server, or a record file, move by move.")),
    h("section", { class: "panel lobby" }, h("h2", {}, "At the table"),
      h("p", {}, h("a", { class: "button", href: "/pad", dataset: { testid: "pad-page" } }, "Score pad"),
        " for a game played with the cards; ",
        h("a", { class: "button", href: "/companion", dataset: { testid: "companion-page" } }, "Solo companion"),
        " plays Anna for a Dartmoor solo game with the cards.")));
  fill(form,
    gameSelect ? h("div", { class: "form-row" }, h("label", { for: "game" }, "Game "), gameSelect) : null,
    h("h2", {}, "Seats"), list, addButton,
    h("div", { class: "form-row" }, h("label", { for: "hotseat", class: "check" }, hotseatBox, " Hot-seat: everyone plays at this screen")),
    h("div", { class: "form-row" }, h("label", { for: "no-help", class: "check" }, noHelpBox, " Play without help: no Suggest button for anyone in this game")),
    h("div", { class: "form-row" }, h("label", { for: "seed" }, "Seed (optional) "), seedInput),
    h("p", { class: "hint", dataset: { testid: "seed-hint" } }, "A chosen seed lets you know every card: every seat is told \u201cthis deal was chosen by the creator\u201d. Leave it empty for a secret deal."),
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
  fill(box, ongoing.length ? h("h1", {}, "Your games") : null,
    ongoing.length ? h("ul", { class: "known-list" }, ongoing.map((a) => {
      const who = (a.names || []).join(" · ");
      const state = a.your_move ? "your move" : a.to_move === null ? "opening hands" : `${a.names[a.to_move]} to move`;
      return h("li", { class: `known-game ${a.your_move ? "your-move" : ""}`, dataset: { game: a.game_id } },
        h("span", { class: "known-names" }, who),
        h("span", { class: "known-title" }, a.title || ""),
        h("span", { class: "known-state" }, state),
        h("a", { class: "button primary small", href: href(a), dataset: { testid: `continue-${a.game_id}` } }, "Continue"));
    })) : null,
    finished.length ? h("h2", {}, "Your finished games") : null,
    finished.length ? h("ul", { class: "known-list finished", dataset: { testid: "finished-games" } }, finished.map((a) =>
      h("li", { class: "known-game over", dataset: { game: a.game_id } },
        h("span", { class: "known-names" }, (a.names || []).join(" · ")),
        h("span", { class: "known-title" }, a.title || ""),
        h("a", { class: "button ghost small", href: href(a), dataset: { testid: `result-${a.game_id}` } }, "Result"),
        h("a", { class: "button small", href: `/replay/${encodeURIComponent(a.game_id)}`, dataset: { testid: `replay-${a.game_id}` } }, "▶ Replay")))) : null);
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
    if (seat.kind === "bot") return h("li", { class: "invite bot" }, h("b", {}, seat.name), ` · bot (${seat.level})`);
    const url = link(seat);
    const input = h("input", { type: "text", readonly: true, value: url, "aria-label": `invite link of ${seat.name}`,
      onfocus: (e) => e.target.select() });
    const copy = h("button", { type: "button", class: "ghost", dataset: { testid: `copy-${seat.seat}` }, onclick: async () => {
      try {
        await navigator.clipboard.writeText(url);
        ui.banner(`Copied the link of ${seat.name}.`, "info");
      } catch (err) {
        input.select();
        ui.banner("Copy it by hand: the link is selected.", "info");
      }
    } }, "Copy");
    return h("li", { class: "invite" }, h("b", {}, seat.name), h("div", { class: "invite-row" }, input, copy,
      h("a", { class: "button ghost", href: url, dataset: { testid: `open-${seat.seat}` } }, "Open")));
  });
  fill(root, h("section", { class: "panel lobby" },
    h("h1", {}, "Invite the players"),
    h("p", { class: "hint" }, "Send each person their own link: it takes their seat once (then it no longer works, and you keep only your own seat's link). If a link goes astray, give that seat a new one from the game's list of players. Anyone with a link of no seat only watches."),
    localOnly() ? h("p", { class: "warning", dataset: { testid: "local-only" } },
      `These links name ${location.hostname}, which means this computer: a friend on another machine cannot open them. `,
      "Start the server with ", h("code", {}, "forest-shuffle serve --host 0.0.0.0"),
      " and open this page at this computer's address on your network (such as http://192.168.1.20:",
      location.port || "8000", "); the links then name that address.") : null,
    h("ul", { class: "invites" }, rows)));
}
