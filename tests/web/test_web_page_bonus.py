"""The bonus hint of the payload against the engine's own outcome: for every payment a
player may make (``pay_plans`` before a play, ``pay`` during a pay decision), every set of
cards that may pay is paid on a copy of the game, and the bonus the engine grants
(``GameState._place``'s ``bonus``) must match the hint: possible exactly when some set earns
it, ★ (``keeps_bonus``) on exactly the cards that are part of such a set, and the words
counting the cards needed and held."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store
from forest_shuffle.text.narration import card_of, species_of


@contextmanager
def bonus_spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Every ``bonus`` argument the engine's placement gets while the block runs."""
    seen: list[bool] = []
    place = GameState._place

    def spy(self: GameState, p: int, cid: int, side: str, tree: int, via: str,
            sapling: bool, bonus: bool) -> list[tuple[str, int, str, str]]:
        seen.append(bonus)
        return place(self, p, cid, side, tree, via, sapling, bonus)

    monkeypatch.setattr(GameState, "_place", spy)
    yield seen
    monkeypatch.setattr(GameState, "_place", place)


def earned(state: GameState, before: list[Action], cards: tuple[int, ...],
           seen: list[bool]) -> bool:
    """Whether the engine grants the bonus when ``before`` then ``cards`` (ascending) are
    paid on a copy of ``state``."""
    s = state.clone()
    for a in before:
        s.apply(a)
    seen.clear()
    for c in sorted(cards):
        s.apply(Action.parse(f"pay {c}"))
    assert seen, "the payment did not place the card"
    return seen[-1]


def check_hint(state: GameState, before: list[Action], hint: dict[str, Any],
               seen: list[bool]) -> str:
    """Check one pay hint against every payment the engine takes; the case it shows."""
    need, payable = hint["need"], hint["payable"]
    cat = state.game.catalog
    sp = species_of(hint["card"], hint["side"], cat)
    sets = list(itertools.combinations(payable, need))
    winning = [c for c in sets if earned(state, before, c, seen)]
    matching = [c for c in payable if hint["symbol"] in card_of(c, cat).symbols]
    assert hint["matching"] == matching
    if sp.bonus is None:
        assert not hint["bonus_possible"] and hint["keeps_bonus"] == []
        assert hint["words"] == f"{sp.name} has no bonus."
        return "no bonus"
    assert hint["bonus_possible"] == bool(winning), (hint, winning)
    keepers = sorted({c for s in winning for c in s})
    assert hint["keeps_bonus"] == keepers, (hint, winning)
    if hint["paid"] and not all(hint["symbol"] in card_of(c, cat).symbols
                                for c in hint["paid"]):
        assert "not every card paid" in hint["words"]
        return "lost by a card paid"
    more = "more " if hint["paid"] else ""
    word = "card" if need == 1 else "cards"
    assert f"you need {need} {more}{hint['symbol']} {word}, you have {len(matching)}" in \
        hint["words"]
    if winning:
        assert hint["words"].endswith("so it is still possible.")
        # a card that loses it, chosen first: the page shows lost_words then
        assert hint["lost_words"].startswith(f"No bonus ({hint['bonus']}) this time")
        return "possible"
    assert hint["words"].endswith("so it is lost.")
    return "too few"


def play(seed: int, players: int, monkeypatch: pytest.MonkeyPatch,
         turns: int = 70) -> dict[str, int]:
    rng = random.Random(seed)
    cases: dict[str, int] = {}
    with GameService(Store("sqlite://"), bot_delay=0) as svc, bonus_spy(monkeypatch) as seen:
        created = svc.create([SeatSpec("human", f"P{i + 1}") for i in range(players)],
                             seed=seed, game="base+alpine+woodland_edge")
        gid = created["game_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        decisions = 0
        while decisions < turns * 4:
            decisions += 1
            watcher = svc.payloads.payload(gid, None)
            if watcher["over"]:
                break
            seat = watcher["to_move"]
            assert watcher["pay_plans"] == {} and watcher["pay"] is None
            assert svc.payloads.payload(gid, (seat + 1) % players)["pay_plans"] == {}
            p = svc.payloads.payload(gid, seat)
            state = svc.game(gid).snap.state
            for text in p["legal"]:
                a = Action.parse(text)
                key = f"{a.card} {a.side}" if a.side else str(a.card)
                if a.kind == "play" and key in p["pay_plans"]:
                    case = check_hint(state, [a], p["pay_plans"][key], seen)
                    cases[case] = cases.get(case, 0) + 1
            if p["decision"] == "pay":
                case = check_hint(state, [], p["pay"], seen)
                cases["pay " + case] = cases.get("pay " + case, 0) + 1
            choices = [a for a in p["legal"] if a.startswith("play")] or p["legal"]
            if rng.random() < 0.4:
                choices = p["legal"]
            svc.act(gid, tokens[seat], rng.choice(choices), p["version"])
    return cases


@pytest.mark.parametrize(("seed", "players"), [(4, 2), (17, 3), (29, 2)])
def test_the_bonus_hint_is_the_engines_outcome(seed: int, players: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    cases = play(seed, players, monkeypatch)
    assert {"possible", "too few", "no bonus"} <= set(cases), cases
    assert any(k.startswith("pay ") for k in cases), cases


def test_the_issues_hand_needs_two_and_holds_one() -> None:
    """Seed 3: an Oak (cost 2, bonus another turn) with one other Oak card in hand: the hint
    says so, and no card carries ★."""
    with GameService(Store("sqlite://"), bot_delay=0) as svc:
        created = svc.create([SeatSpec("human", "A"), SeatSpec("human", "B")], seed=3)
        p = svc.payloads.payload(created["game_id"], 0)
        plan = p["pay_plans"]["12"]
        assert plan["symbol"] == "Oak" and plan["need"] == 2
        assert len(plan["matching"]) == 1 and plan["keeps_bonus"] == []
        assert not plan["bonus_possible"]
        assert "you need 2 Oak cards, you have 1, so it is lost." in plan["words"]
