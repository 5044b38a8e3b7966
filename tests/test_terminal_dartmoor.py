"""Dartmoor in the terminal: moors lying sideways (two top, two bottom slots, no side
slots), universal moors face down to everyone but their owner, the caves, the public
discard pile, the marks of the provisional deck, and a whole scripted game against a bot."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterable

from rich.console import Console, RenderableType
from typer.testing import CliRunner

from forest_shuffle.cards.forest import Dweller, Forest, Host, host_of_card
from forest_shuffle.cards.model import Card
from forest_shuffle.cli.app import app
from forest_shuffle.engine.actions import Action
from forest_shuffle.games import make_game
from forest_shuffle.terminal import dartmoor as moorland
from forest_shuffle.terminal.line import Terminal, card_details, forest_table
from forest_shuffle.text.narration import label

GAME = make_game("dartmoor")
CAT = GAME.catalog


class Script:
    """Feeds lines to a terminal and keeps what it printed."""

    def __init__(self, lines: Iterable[str] | Callable[[], str]) -> None:
        self.out = io.StringIO()
        self.console = Console(file=self.out, width=120, color_system=None, highlight=False)
        self.source = lines if callable(lines) else iter(lines).__next__

    def read(self) -> str:
        try:
            return self.source()
        except StopIteration:
            raise EOFError from None

    def terminal(self, seed: int, bots: int = 1) -> Terminal:
        return Terminal(2, bots, seed, console=self.console, read_line=self.read,
                        game="dartmoor")

    @property
    def text(self) -> str:
        return self.out.getvalue()


def render(thing: RenderableType, width: int = 120) -> str:
    console = Console(width=width, color_system=None, record=True, file=io.StringIO())
    console.print(thing)
    return console.export_text()


def _card(pred: Callable[[Card], bool]) -> Card:
    return next(c for c in CAT.cards if c is not None and pred(c))


def _half(side: str, name: str) -> Dweller:
    card = _card(lambda c: side in c.halves and c.halves[side].species.name == name)
    return Dweller.of_card(card, side)


def _moor(name: str) -> Host:
    return host_of_card(CAT, _card(lambda c: c.kind == "moor" and c.label() == name).id)


# ------------------------------------------------------------------------ moors


def test_moors_lie_sideways_with_two_top_and_two_bottom_slots() -> None:
    tree = host_of_card(CAT, _card(lambda c: c.kind == "tree").id)
    tree.slots["left"].append(_half("left", "Dartmoor Badger"))
    bog = _moor("Blanket Bog")
    bog.slots["top"].append(_half("top", "Curlew"))
    bog.slots["bottom"] += [_half("bottom", "Heather"), _half("bottom", "Royal Fern")]
    heath = _moor("Lowland Heath")
    text = render(forest_table(Forest([tree, bog, heath]), "Your forest", CAT))
    lines = text.splitlines()
    assert lines[0] == "Your forest"
    assert any(line.split()[:2] == ["1", tree.name] and "←Badger" in line for line in lines)
    assert "2 slots above, 2 below, none at the sides" in text
    bog_line = next(line for line in lines if "Blanket Bog (moor)" in line)
    # one card above and one free slot; both slots below taken; no side slots at all
    assert bog_line.split()[0] == "2"
    assert "↑Curlew ·" in bog_line and "↓Heather + Royal Fern" in bog_line
    assert "←" not in bog_line and "→" not in bog_line
    heath_line = next(line for line in lines if "Lowland Heath (moor)" in line)
    assert heath_line.split()[0] == "3" and heath_line.count("· ·") == 2


def test_dragonflies_above_water_soldiers_share_one_slot() -> None:
    """The free slots come from the model: two dragonflies above Water Soldiers fill one."""
    mire = _moor("Valley Mire")
    mire.slots["bottom"].append(_half("bottom", "Water Soldiers"))
    mire.slots["top"] += [_half("top", "Keeled Skimmer"), _half("top", "Southern Damselfly")]
    assert mire.slots_used("top") == 1
    line = render(moorland.moor_side_text(mire, "top"))
    assert line.strip() == "↑Skimmer + Southern Damsel ·"


def _draft_with_universal_moor(script: Script) -> Terminal:
    """Seed 1 offers caves 1 and 3: the second seat takes 3, the first takes cave 1 and
    lays a hand card face down as a universal moor."""
    term = script.terminal(seed=1, bots=0)
    state = term.state
    assert list(state.cave_offer) == [1, 3]
    term._apply(1, Action.parse("choose 3"))
    term._apply(0, Action.parse("choose 1"))
    while state.to_move == 1:  # cave 3: draw 3, then 3 hand cards into the clearing
        term._apply(1, state.legal_actions()[0])
    assert state.pending is not None and state.pending.kind == "universal moor"
    hidden = min(state.hands[0])
    term._apply(0, Action.parse(f"moor {hidden}"))
    assert [t.card for t in state.forests[0].trees] == [hidden]
    return term


def test_a_universal_moor_is_face_down_to_others_and_known_to_its_owner() -> None:
    term = _draft_with_universal_moor(Script([]))
    hidden = term.state.forests[0].trees[0].card
    assert hidden is not None
    words = f"{moorland.marked(hidden, CAT)} {moorland.short_label(hidden, CAT)}"
    mine = render(term.screen(term.state.view(0)))
    assert f"▭ {words}, face down (universal moor)" in mine
    assert "extra turn" not in mine  # the first turn after the draft is no extra turn
    assert "1 moor (1 universal)" in mine
    theirs = render(term.screen(term.state.view(1)))
    assert "▭ face down (universal moor)" in theirs
    assert f"{hidden}*" not in theirs and f"{hidden} " not in theirs
    assert words not in theirs  # nor the card itself, anywhere on the other's screen
    assert f"{moorland.marked(hidden, CAT)} {label(hidden, CAT)}" not in theirs
    view = term.state.view(1)
    assert hidden not in view.hand and hidden not in view.clearing


# ------------------------------------------------------------------------ caves


def test_the_caves_are_numbered_with_their_effect_and_provisional_ones_marked() -> None:
    term = _draft_with_universal_moor(Script([]))
    text = render(term.screen(term.state.view(0)))
    cave = {c.number: c for c in CAT.caves}
    assert f"Player 1: cave 1: {cave[1].text} (provisional reading)" in " ".join(
        text.split())
    assert f"Player 2: cave 3: {cave[3].text}" in " ".join(text.split())
    assert f"cave 3: {cave[3].text} (provisional" not in " ".join(text.split())
    assert "cave 1 (0 under it)" in text
    every = " ".join(render(moorland.all_caves(CAT)).split())
    for c in CAT.caves:
        assert f"cave {c.number}: {c.text}" in every
        assert (f"cave {c.number}: {c.text} (provisional reading)" in every) == bool(
            c.provisional)


def test_the_cave_draft_is_offered_by_number() -> None:
    script = Script(["caves", "choose 9", "1"])
    term = script.terminal(seed=1, bots=1)
    assert term.run() is None  # the script ends after the draft
    text = " ".join(script.text.split())
    assert "The caves: cave 1:" in text and "cave 5:" in text
    # the last to choose (you, the first player) takes the one cave the others left
    assert "You: take your cave, the one the others left: cave " in text
    assert "offered: cave " in text
    assert "Not allowed: " in text
    assert term.state.forests[0].cave_number in (1, 3)
    assert f"You take cave {term.state.forests[0].cave_number}." in text


# ------------------------------------------------------------------------ discard pile


def _to_a_discard_pile(term: Terminal, seed: int = 7) -> None:
    rng = random.Random(seed)
    state = term.state
    while not state.over and not getattr(state, "discard", []):
        p = state.to_move
        assert p is not None
        state.apply(rng.choice(state.legal_actions()))


def test_the_discard_pile_shows_its_count_and_top_card_to_everyone() -> None:
    script = Script(["pile"])
    term = script.terminal(seed=3, bots=0)
    state = term.state
    assert "Discard pile: empty" in render(term.screen(state.view(0)))
    _to_a_discard_pile(term)
    pile = list(state.discard)  # type: ignore[attr-defined]
    assert pile
    top = pile[-1]
    line = (f"Discard pile: {len(pile)} card{'s' if len(pile) > 1 else ''}, top: "
            f"{moorland.marked(top, CAT)} {label(top, CAT)}")
    for seat in (0, 1):
        assert line in render(term.screen(state.view(seat)))
    p = state.to_move
    assert p is not None
    term._command("pile", p)
    shown = script.text
    assert f"Discard pile, top first ({len(pile)}): {moorland.marked(top, CAT)} " in shown
    assert shown.index(f" {moorland.marked(pile[0], CAT)} ") > shown.index("top first")


# ------------------------------------------------------------------------ provisional marks


def test_cards_of_the_provisional_deck_carry_a_mark_and_one_line_says_why() -> None:
    term = _draft_with_universal_moor(Script([]))
    view = term.state.view(0)
    text = render(term.screen(view))
    assumed = [c for c in view.hand if CAT.card(c).assumed]
    printed = [c for c in view.hand if not CAT.card(c).assumed]
    assert assumed
    for c in assumed:
        assert any(line.split()[:1] == [f"{c}*"] for line in text.splitlines())
    for c in printed:
        assert any(line.split()[:1] == [str(c)] for line in text.splitlines())
    assert text.count("* a card of the provisional deck") == 1
    moors = [c for c in view.hand if CAT.card(c).kind == "moor"]
    assert moors and "moor,moor" not in text  # a moor's kind is its habitat tag


def test_card_details_say_what_is_assumed() -> None:
    card = _card(lambda c: c.kind == "split" and "pairing" in c.assumed)
    text = " ".join(render(card_details(card.id, CAT)).split())
    assert f"* provisional card: assumed {moorland.assumed_words(card)}" in text
    assert "which two species share the card" in text
    assert CAT.provisional_deck.split(";")[0] in text
    known = _card(lambda c: c.kind == "split" and bool(c.printed))
    words = " ".join(render(card_details(known.id, CAT)).split())
    assert f"assumed {moorland.assumed_words(known)} (printed {known.printed})." in words
    assert "which two species share" not in moorland.assumed_words(known)
    tree = _card(lambda c: c.kind == "tree" and not c.assumed)
    assert "provisional card" not in render(card_details(tree.id, CAT))
    reading = next(sp for sp in CAT.species.values() if sp.provisional)
    shows = _card(lambda c: c.species is reading
                  or any(h.species is reading for h in c.halves.values()))
    assert "provisional reading: " in render(card_details(shows.id, CAT))


def test_the_cards_command_marks_provisional_facts() -> None:
    runner = CliRunner()
    card = _card(lambda c: c.kind == "split" and "pairing" in c.assumed)
    one = runner.invoke(app, ["cards", str(card.id), "--game", "dartmoor"])
    assert one.exit_code == 0
    assert "* provisional card: assumed" in one.output
    assert "-" not in one.output.splitlines()[0].split(":")[0]  # a code, not "TB-15"
    listing = runner.invoke(app, ["cards", "--game", "dartmoor"], env={"COLUMNS": "200"})
    assert "(provisional)" in listing.output and "Provisional deck:" in listing.output
    as_json = runner.invoke(app, ["cards", str(card.id), "--game", "dartmoor", "--json"])
    assert '"assumed": [' in as_json.output and '"pairing"' in as_json.output


# ------------------------------------------------------------------------ a whole game


def test_a_scripted_game_of_dartmoor_against_a_bot_to_the_end() -> None:
    opening = iter(["help", "caves", "pile", "card 45", "board", "hand"])

    def line() -> str:
        return next(opening, "1")

    script = Script(line)
    term = script.terminal(seed=5, bots=1)
    winners = term.run()
    state = term.state
    assert state.over and winners == state.winners()
    text = script.text
    assert "Traceback" not in text and "Not understood" not in text
    for word in ("Score pad", "Moors", "Top", "Bottom", "Cave", "Total", "Seed of this deal"):
        assert word in text
    assert "Winner: " in text or "Tie: " in text
    assert "Caves:" in text and "Discard pile:" in text and "The caves:" in text
    assert "2 slots above, 2 below" in text
    assert "provisional card: assumed" in text  # card 45
    # a universal moor of the bot never shows its card to the human
    faces_down = [t for t in state.forests[1].trees if t.species is None]
    assert faces_down  # seed 5: the bot drafts cave 1 and lays a universal moor
    for site in faces_down:
        if site.card is not None:
            shown = f"{moorland.marked(site.card, CAT)} {moorland.short_label(site.card, CAT)}"
            assert f"{shown}, face down" not in text


def test_numbers_and_ids_are_never_cut_in_a_narrow_terminal() -> None:
    """Host numbers and card ids are typed: at 60 columns the names give way, they do not."""
    moors = [_moor(n) for n in ("Blanket Bog", "Valley Mire", "Fountainhead", "Rivulet",
                                "Warrens", "Tor", "Wet Woodland", "Lowland Heath",
                                "Rhôs Pasture", "Blanket Bog")]
    for m in moors:
        m.slots["top"] += [_half("top", "Curlew"), _half("top", "Meadow Pipit")]
        m.slots["bottom"] += [_half("bottom", "Heather"), _half("bottom", "Royal Fern")]
    text = render(forest_table(Forest(moors), "Your forest", CAT), width=60)
    rows = [line for line in text.splitlines() if "▭" in line]
    assert [line.split()[0] for line in rows] == [str(n) for n in range(1, 11)]
    assert all(len(line.rstrip()) <= 60 for line in text.splitlines())
    term = _draft_with_universal_moor(Script([]))
    view = term.state.view(0)
    narrow = render(term.screen(view), width=60)
    for c in view.hand:
        assert any(line.split()[:1] == [moorland.marked(c, CAT)] for line in narrow.splitlines())
