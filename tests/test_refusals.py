"""Refusals name the real rule: every kind of illegal action, in every registered game, is
refused with a reason that states the rule forbidding it (and changes nothing).

Two parts. A table of positions, one row per kind of refusal, with the words its reason
must hold (and must not: a slot that is empty is never "taken", Dartmoor never speaks of
saplings or mulligans it does not have). And a sweep: random games of every registered
game (the solo challenges included) where, at many decisions, actions of every kind are
tried; each refusal must be one line that matches one rule of :data:`RULES`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from scenario import Picker, act, build, site

from forest_shuffle.cards.model import SIDES
from forest_shuffle.engine.actions import KINDS, Action, IllegalActionError
from forest_shuffle.engine.game import game_by_id
from forest_shuffle.engine.state import (
    D_CLEARING_CAVE,
    D_FREE,
    D_MOLE,
    D_RACCOON,
    D_TAKE,
    GameState,
    Pending,
)
from forest_shuffle.games import game_ids, make_game
from forest_shuffle.games.dartmoor_state import (
    D_DISCARD,
    D_DRAW_OR_TAKE,
    D_UNIVERSAL,
    DISCARD_STUCK,
    FREE_CLEARING,
)

DM = make_game("dartmoor").catalog


def _fillers(pick: Picker, n: int) -> list[int]:
    """``n`` unused split cards of the picker's game with no permanent effect."""
    out: list[int] = []
    for c in pick.cat.cards:
        if len(out) == n:
            break
        if c is None or c.is_winter or c.is_host or c.id in pick.used:
            continue
        if any(h.species.permanent for h in c.halves.values()):
            continue
        out.append(c.id)
    assert len(out) == n
    pick.used.update(out)
    return out


def _refuse(state: GameState, action: Action | str) -> str:
    """The reason ``action`` is refused with; the state must not change."""
    a = Action.parse(action) if isinstance(action, str) else action
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as err:
        state.apply(a)
    assert state.to_dict() == before
    reason = err.value.reason
    assert reason and "\n" not in reason and reason.isprintable()
    return reason


def _pending(state: GameState, pend: Pending) -> GameState:
    """``state`` with ``pend`` as the decision at hand (in place of the turn's)."""
    state.stack[-1] = pend
    state._legal = None
    return state


@dataclass
class Case:
    """A position, an illegal action in it, words its reason must hold and must not."""

    state: Callable[[], tuple[GameState, str]]  # the position and the action's text
    holds: tuple[str, ...]
    lacks: tuple[str, ...] = ()


# ------------------------------------------------------------------ base family positions


def _base_turn(game: str = "base") -> tuple[GameState, Picker, dict[str, int]]:
    """Player 1's turn: Birch (tree 1) holding a Eurasian Jay on top; in hand an Oak, a
    Red Fox (left), a Wild Boar... and 3 fillers; the clearing holds one card."""
    pick = Picker(game)
    birch = pick.tree("Birch")
    jay = pick.half("Eurasian Jay", "top")[0]
    oak = pick.tree("Oak")
    fox = pick.half("Red Fox", "left")[0]
    owl = pick.half("Tawny Owl", "top")[0]
    fill = pick.fillers(3)
    clearing = pick.fillers(1)
    s = build([[oak, fox, owl, *fill], []], deck=pick.fillers(6), clearing=clearing,
              forests=[[site(birch, top=[jay])], []], game=game)
    return s, pick, {"birch": birch, "oak": oak, "fox": fox, "owl": owl, "fill": fill[0],
                     "clearing": clearing[0], "outside": pick.fillers(1)[0]}


def _base(text: str, game: str = "base") -> Callable[[], tuple[GameState, str]]:
    def make() -> tuple[GameState, str]:
        s, _pick, ids = _base_turn(game)
        return s, text.format(**ids)
    return make


def _base_full_hand() -> tuple[GameState, str]:
    pick = Picker()
    s = build([pick.fillers(10), []], deck=pick.fillers(4))
    return s, "draw"


def _base_decision(pend: Callable[[dict[str, int]], Pending], text: str,
                   ) -> Callable[[], tuple[GameState, str]]:
    def make() -> tuple[GameState, str]:
        s, _pick, ids = _base_turn()
        return _pending(s, pend(ids)), text.format(**ids)
    return make


def _dear(game: str, host: str) -> tuple[GameState, str]:
    """A hand of ``host`` (a tree or moor costing 2 or more) and one card to pay with."""
    pick = Picker(game)
    cid = pick.tree(host)
    assert pick.cat.card(cid).species.cost >= 2  # type: ignore[union-attr]
    s = build([[cid, *_fillers(pick, 1)], []], deck=_fillers(pick, 4), game=game)
    return s, f"play {cid}"


def _mulligan() -> tuple[GameState, str]:
    s = GameState.new(2, 1)
    while s.decision != "turn":
        act(s, "keep")
    return s, "keep"


def _over() -> tuple[GameState, str]:
    s = GameState.new(2, 3)
    s.over = True
    return s, "draw"


# ------------------------------------------------------------------ Dartmoor positions


def _dm_turn() -> tuple[GameState, Picker, dict[str, int]]:
    """Player 1's Dartmoor turn. Forest: Sessile Oak (tree 1) with a Meadow Pipit on top,
    Blanket Bog (tree 2, a moor) with two top cards, Common Hazel (tree 3, a shrub), an
    empty Wet Woodland (tree 4, a moor), a universal moor (tree 5). Hand: a left/right
    card, a moor-only top card, a Cuckoo, a moor-only bottom card, a filler."""
    pick = Picker("dartmoor")
    oak = pick.tree("Sessile Oak")
    pipit = pick.half("Meadow Pipit", "top")[0]
    bog = pick.tree("Blanket Bog")
    tops = [pick.half("Curlew", "top")[0], pick.half("Grey Heron", "top")[0]]
    hazel = pick.tree("Common Hazel")
    wet = pick.tree("Wet Woodland")
    face_down = _fillers(pick, 1)[0]
    side, side_half = pick.half("Common Pheasant")
    godwit = pick.half("Black-Tailed Godwit", "top")[0]
    cuckoo = pick.half("Cuckoo", "top")[0]
    frog = pick.half("Moor Frog", "bottom")[0]
    fill = _fillers(pick, 2)
    s = build([[side, godwit, cuckoo, frog, fill[0]], []], deck=_fillers(pick, 6),
              clearing=[fill[1]], game="dartmoor",
              forests=[[site(oak, top=[pipit]), site(bog, top=tops), site(hazel), site(wet),
                        site(face_down, sapling=True)], []])
    return s, pick, {"side": side, "lr": side_half, "godwit": godwit, "cuckoo": cuckoo,
                     "frog": frog, "fill": fill[0], "clearing": fill[1], "oak": oak,
                     "largest": max(s.hands[0])}


def _dm(text: str) -> Callable[[], tuple[GameState, str]]:
    def make() -> tuple[GameState, str]:
        s, _pick, ids = _dm_turn()
        return s, text.format(**ids)
    return make


def _dm_cuckoo_twice() -> tuple[GameState, str]:
    """A tree whose top bird already has a Cuckoo: a second one may not join."""
    pick = Picker("dartmoor")
    oak = pick.tree("Sessile Oak")
    pipit = pick.half("Meadow Pipit", "top")[0]
    first = pick.half("Cuckoo", "top")[0]
    second = pick.half("Cuckoo", "top")[0]
    s = build([[second, *_fillers(pick, 2)], []], deck=_fillers(pick, 4), game="dartmoor",
              forests=[[site(oak, top=[pipit, first])], []])
    return s, f"play {second} top 1"


def _dm_decision(pend: Callable[[dict[str, int]], Pending], text: str,
                 ) -> Callable[[], tuple[GameState, str]]:
    def make() -> tuple[GameState, str]:
        s, _pick, ids = _dm_turn()
        return _pending(s, pend(ids)), text.format(**ids)
    return make


def _draft(text: str) -> Callable[[], tuple[GameState, str]]:
    def make() -> tuple[GameState, str]:
        s = GameState.new(2, 5, game="dartmoor")
        assert s.decision == "cave draft"
        missing = next(n for n in range(1, 6) if n not in s.cave_offer)  # type: ignore[attr-defined]
        return s, text.format(missing=missing)
    return make


CASES: dict[str, Case] = {
    # --- the base family
    "slot taken": Case(_base("play {owl} top 1"),
                       ("the top slot of tree 1 (Birch) is taken by Eurasian Jay",)),
    "no such tree": Case(_base("play {fox} left 4"), ("there is no tree 4", "a half goes")),
    "split card without a half": Case(_base("play {fox}"), ("is a split card: name a half",)),
    "host card with a side": Case(_base("play {oak} top 1"), ("is a tree: write 'play",)),
    "no such half": Case(_base("play {fox} top 1"), ("has no top half",)),
    "not in the hand": Case(_base("play {outside}"), ("is not in player 1's hand",)),
    "too dear": Case(lambda: _dear("base", "Oak"),
                     ("Oak costs", "there are not enough other cards to pay")),
    "not in the clearing": Case(_base("take {outside}"), ("is not in the clearing",)),
    "hand limit": Case(_base_full_hand, ("may not draw", "hand limit is 10")),
    "yes at a turn": Case(_base("yes"), ("must choose: draw, take, play or sapling",
                                         "yes/no answer only an offered effect")),
    "pay at a turn": Case(_base("pay {fill}"), ("pay: only for a card being paid for",)),
    "done at a turn": Case(_base("done"), ("done ends only an effect's choices",)),
    "a Dartmoor kind in the base game": Case(_base("moor {fill}"), ("moor is Dartmoor's",)),
    "choose in the base game": Case(_base("choose 2"), ("choose is Dartmoor's cave draft",)),
    "discard in the base game": Case(_base("discard {fill}"), ("discard is Dartmoor's",)),
    "keep after the mulligans": Case(_mulligan, ("mulligans are only at the start",)),
    "free play of another tag": Case(
        _base_decision(lambda ids: Pending(D_FREE, 0, tag="bird", need=1), "play {fox} left 1"),
        ("Red Fox is not a bird", "this free play places only a bird")),
    "an insect free play": Case(
        _base_decision(lambda ids: Pending(D_FREE, 0, tag="insect", need=1),
                       "play {fox} left 1"),
        ("is not an insect",)),
    "take a card without the tag": Case(
        _base_decision(lambda ids: Pending(D_TAKE, 0, need=1, tag="bat"), "take {clearing}"),
        ("is not a bat", "this effect takes only a bat")),
    "the Mole's pool": Case(
        _base_decision(lambda ids: Pending(D_MOLE, 0, pool=frozenset({ids["oak"]})),
                       "play {fox} left 1"),
        ("was not in hand when the Mole was played",)),
    "the Raccoon's order": Case(
        _base_decision(lambda ids: Pending(D_RACCOON, 0, paid=[ids["fox"]]), "cave {oak}"),
        ("ascending order",)),
    "the clearing cave's choice": Case(
        _base_decision(lambda ids: Pending(D_CLEARING_CAVE, 0, need=1), "cave {outside}"),
        ("is not in the clearing",)),
    "a malformed action": Case(lambda: (_base_turn()[0], "draw"), ("'draw' takes no card",)),
    "the game is over": Case(_over, ("the game is over",)),
    # --- Dartmoor
    "a left/right card at a moor": Case(
        _dm("play {side} {lr} 4"),
        ("tree 4 (Wet Woodland) is a moor", "a moor has no left or right slots"),
        ("taken",)),
    "a left/right card at a universal moor": Case(
        _dm("play {side} {lr} 5"), ("a moor has no left or right slots",), ("taken",)),
    "a moor-only species at a tree": Case(
        _dm("play {godwit} top 1"),
        ("Black-Tailed Godwit goes only to a moor", "tree 1 (Sessile Oak) is a tree"),
        ("taken",)),
    "a moor-only species at a shrub": Case(
        _dm("play {frog} bottom 3"), ("Moor Frog goes only to a moor", "is a shrub"),
        ("taken",)),
    "a Cuckoo without a bird": Case(
        _dm("play {cuckoo} top 3"),
        ("Cuckoo goes only onto a bird", "the top slot of tree 3 (Common Hazel) holds none"),
        ("taken",)),
    "a Cuckoo at a moor": Case(
        _dm("play {cuckoo} top 4"), ("Cuckoo goes only to a tree or shrub", "is a moor"),
        ("taken",)),
    "a second Cuckoo at a host": Case(_dm_cuckoo_twice, ("already has Cuckoo", "at most 1")),
    "a moor's side full": Case(
        _dm("play {godwit} top 2"), ("both top slots of tree 2 (Blanket Bog) are taken",)),
    "moor during a turn": Case(
        _dm("moor {fill}"),
        ("must choose: draw, take or play", "a universal moor comes only by an effect"),
        ("sapling",)),
    "sapling in Dartmoor": Case(_dm("sapling {fill}"), ("Dartmoor has no saplings",)),
    "keep in Dartmoor": Case(_dm("keep"), ("Dartmoor has no mulligans",), ("sapling",)),
    "choose during a turn": Case(_dm("choose 2"), ("caves are chosen only before turn 1",),
                                 ("sapling",)),
    "discard during a turn": Case(_dm("discard {fill}"),
                                  ("discard: only by an effect or a stuck hand",), ("sapling",)),
    "done during a Dartmoor turn": Case(_dm("done"), ("done ends only a free play",),
                                        ("sapling", "Mole")),
    "cave draft: another kind": Case(_draft("draw"), ("must choose: choose (a cave",)),
    "cave draft: a cave not offered": Case(_draft("choose {missing}"),
                                           ("is not in the clearing (offered",)),
    "universal moor: another kind": Case(
        _dm_decision(lambda ids: Pending(D_UNIVERSAL, 0, need=1), "draw"),
        ("must choose: moor (a hand card face down",)),
    "universal moor: not in the hand": Case(
        _dm_decision(lambda ids: Pending(D_UNIVERSAL, 0, need=1), "moor {clearing}"),
        ("is not in player 1's hand",)),
    "stuck: another kind": Case(
        _dm_decision(lambda ids: Pending(D_DISCARD, 0, need=2, via=DISCARD_STUCK), "draw"),
        ("a player who can neither draw nor play shows the hand, discards 2 and draws 2",)),
    "discard order": Case(
        _dm_decision(lambda ids: Pending(D_DISCARD, 0, need=5), "discard {largest}"),
        ("discard cards in ascending order",)),
    "draw or take: another kind": Case(
        _dm_decision(lambda ids: Pending(D_DRAW_OR_TAKE, 0, need=1), "pay {fill}"),
        ("must choose: draw or take",)),
    "free play from the clearing: a hand card": Case(
        _dm_decision(lambda ids: Pending(D_FREE, 0, tag="insect", need=1, via=FREE_CLEARING),
                     "play {side} {lr} 1"),
        ("is not in the clearing (this free play takes a card from it)",)),
    "free play from the clearing: another tag": Case(
        _dm_decision(lambda ids: Pending(D_FREE, 0, tag="amphibian|plant", need=1,
                                         via=FREE_CLEARING), "play {clearing} {{clr}} 1"),
        ("is not an amphibian or plant",)),
    "Dartmoor: take a hand card": Case(_dm("take {side}"), ("is not in the clearing",)),
    "Dartmoor: too dear": Case(lambda: _dear("dartmoor", "Blanket Bog"),
                               ("Blanket Bog costs", "not enough other cards to pay")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_kind_of_refusal_names_its_rule(name: str) -> None:
    case = CASES[name]
    state, text = case.state()
    if "{clr}" in text:  # the clearing card's first half
        cid = int(text.split()[1])
        text = text.replace("{clr}", next(iter(state.game.cards[cid].halves)))
    action = Action("draw", 5) if name == "a malformed action" else text
    reason = _refuse(state, action)
    for words in case.holds:
        assert words in reason, reason
    for words in case.lacks:
        assert words not in reason, reason


# ------------------------------------------------------------------ the sweep

#: Every rule a refusal may name, as a pattern of its reason. A reason that matches none
#: names no rule (or a new one: add it here with the rule it names).
RULES: dict[str, str] = {
    "the card is not where the action takes it from":
        r"^card \d+ is not in (player \d+'s hand|the clearing)( \(this free play takes a "
        r"card from it\))?$",
    "the cave draft offers these caves": r"^cave \d+ is not in the clearing \(offered: ",
    "Exploration's cave draft offers these caves": r"^cave \d+ is not offered \(offered: ",
    "the hand limit": r"^player \d+ holds \d+ cards and may not draw \(the hand limit is \d+\)$",
    "the decision at hand asks for other actions":
        r"^player \d+ must choose: .+; .+$",
    "the cost is paid with other hand cards":
        r"^.+ costs \d+ and there are not enough other cards to pay$",
    "one slot, one card": r"^the (top|bottom|left|right) slot of tree \d+ \(.+\) is taken by "
                          r".+, which .+ may not share$",
    "a moor's two slots a side": r"^both (top|bottom) slots of tree \d+ \(.+\) are taken$",
    "a moor has no side slots": r"^tree \d+ \(.+\) is a moor: a moor has no left or right "
                                r"slots, only two top and two bottom ones$",
    "a species' hosts": r"^.+ goes only to an? (tree|shrub|moor)( or (shrub|moor))*, and "
                        r"tree \d+ \(.+\) is an? (tree|shrub|sapling|moor|universal moor)$",
    "a species placed onto a tag": r"^.+ goes only onto an? .+, sharing its slot, and the "
                                   r"\w+ slot of tree \d+ \(.+\) holds none$",
    "at most so many at a host": r"^tree \d+ \(.+\) already has .+ \(at most \d+ at one tree "
                                 r"or shrub\)$",
    "a half goes into a slot of a host": r"^there is no tree \d+ in the forest \(\d+\): a "
                                         r"half goes into a slot of a .+ of the forest$",
    "a split card is played as a half":
        r"^card \d+ (is a split card: name a half|has no \w+ half)",
    "a host card takes no slot": r"^card \d+ is an? \w+: write 'play \d+' \(an? \w+ takes "
                                 r"no slot\)$",
    "a free play places only its tag":
        r"^.+ is not an? .+ \(this free play places only an? .+\)$",
    "the effect takes only its tag": r"^card \d+ is not an? .+ \(this effect takes only",
    "ascending order": r"^(pay|discard|choose clearing) cards in ascending order of their "
                       r"numbers$|^put cards under the cave in ascending order",
    "the Mole's cards": r"^card \d+ was not in hand when the Mole was played$",
    "the Mole pays by cost": r"^the Mole plays cards by their printed cost, not as saplings$",
    "Dartmoor has no saplings": r"^Dartmoor has no saplings \(",
    "the game is over": r"^the game is over$",
}


def _candidates(state: GameState, rng: random.Random) -> list[Action]:
    """Actions of every kind with cards from the hand, the clearing, the deck and cave
    numbers, split halves at every side of every host and one beyond."""
    p = state.to_move
    assert p is not None
    pool = [*state.hands[p], *state.clearing, *state.deck[-2:], 1, 2, 3]
    out: list[Action] = []
    for kind in KINDS:
        if kind in ("keep", "mulligan", "draw", "yes", "no", "done"):
            out.append(Action(kind))
            continue
        for c in rng.sample(pool, min(4, len(pool))):
            out.append(Action(kind, c))
            if kind == "play":
                hosts = len(state.forests[p].trees)
                out.extend(Action(kind, c, side, rng.randrange(hosts + 1)) for side in SIDES)
    return out


@pytest.mark.parametrize("gid", game_ids(unlisted=True))
def test_every_refusal_in_random_games_names_a_rule(gid: str) -> None:
    g = game_by_id(gid)
    dartmoor = not g.turn_saplings
    rules = {name: re.compile(pattern) for name, pattern in RULES.items()}
    named: set[str] = set()
    for seed in range(2):
        rng = random.Random(seed)
        state = GameState.new(g.players[0], seed, game=gid)
        for step in range(300):
            if state.over:
                break
            legal = state.legal_actions()
            if step % 4 == 0:
                for a in _candidates(state, rng):
                    if a in legal:
                        continue
                    reason = _refuse(state, a)
                    hit = [name for name, rule in rules.items() if rule.search(reason)]
                    assert hit, f"{gid}: {a}: {reason!r} names no rule of RULES"
                    named.update(hit)
                    if dartmoor:  # never a word of what Dartmoor lacks, unless asked
                        assert a.kind == "sapling" or "sapling" not in reason, reason
                        assert a.kind in ("keep", "mulligan") or "mulligan" not in reason, reason
                    m = re.match(r"the (\w+) slot of tree (\d+)", reason)
                    if m:  # a slot said to be taken holds a card
                        host = state.forests[state.to_move or 0].trees[int(m[2]) - 1]
                        assert host.slots[m[1]], reason
            state.apply(rng.choice(legal))
    assert {"the decision at hand asks for other actions",
            "the card is not where the action takes it from"} <= named


# ------------------------------------------------------------------ the faces' words


def test_an_unknown_word_lists_the_games_own_actions() -> None:
    """The parser's reason lists the kinds a game asks for: Dartmoor's has no sapling."""
    from forest_shuffle.engine.actions import ActionParseError

    with pytest.raises(ActionParseError) as err:
        Action.parse("dance 3", make_game("dartmoor").action_kinds)
    assert "moor" in str(err.value) and "discard" in str(err.value)
    assert "sapling" not in str(err.value) and "mulligan" not in str(err.value)
    with pytest.raises(ActionParseError) as err:
        Action.parse("dance 3", make_game("base").action_kinds)
    assert "sapling" in str(err.value) and "moor" not in str(err.value)


@pytest.mark.parametrize("gid", ["base", "dartmoor"])
def test_the_terminal_help_names_the_games_own_actions(gid: str) -> None:
    import io

    from rich.console import Console

    from forest_shuffle.terminal.line import Terminal

    out = io.StringIO()
    lines = iter(["help", "quit", "q"])

    def read() -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    term = Terminal(2, 1, 3, console=Console(file=out, width=100, color_system=None),
                    read_line=read, game=gid)
    term.run()
    text = out.getvalue()
    assert "Enter the number of an action" in text
    if gid == "dartmoor":
        assert "moor 57" in text and "choose 3" in text
        assert "sapling" not in text.lower() and "mulligan" not in text.lower()
    else:
        assert "sapling 34" in text and "mulligan" in text and "moor 57" not in text


@pytest.mark.parametrize(("action", "words"), [
    (Action("draw", 5), "'draw' takes no card"),
    (Action("dance"), "unknown action kind 'dance'"),
    (Action("play", 3, "up", 1), "unknown side 'up'"),
    (Action("play", 3, "", 2), "'play' with no side takes no tree"),
    (Action("take", 3, "top", 1), "'take' takes one card number"),
    (Action("take", "a"), "card and tree are integers"),  # type: ignore[arg-type]
    (Action("play", 3, "top", -1), "trees are numbered from 1"),
])
def test_an_action_built_in_code_that_no_text_gives_is_refused_as_such(
        action: Action, words: str) -> None:
    state = GameState.new(2, 3)
    assert words in _refuse(state, action)
