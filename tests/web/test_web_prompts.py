"""The payload carries the viewer's prompt and, while paying, the bonus facts the page shows
(the page derives neither): ``prompt``, ``prompt_detail`` and ``pay`` with ``symbol``,
``bonus``, ``bonus_possible``, ``payable`` and ``keeps_bonus``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from webutil import client, head, new_game

from forest_shuffle.cards.model import Catalog
from forest_shuffle.engine.actions import Action
from forest_shuffle.server import schemas
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store
from forest_shuffle.text import cardtext
from forest_shuffle.text.narration import card_of, species_named, species_of


def shows(cid: int, symbol: str, catalog: Catalog) -> bool:
    return symbol in card_of(cid, catalog).symbols


def expected_payable(p: dict[str, Any]) -> list[int]:
    """The hand cards that may pay, by the rules: above the last card paid (payments go in
    ascending order) and, for a Mole's play, in the Mole's pool."""
    pend = p["view"]["pending"]
    pool = p["view"]["decisions"][-1]["pool"]
    last = pend["paid"][-1] if pend["paid"] else 0
    return sorted(c for c in p["view"]["hand"] if c > last and (pool is None or c in pool))


def check_pay(svc: GameService, gid: str, p: dict[str, Any]) -> str:
    """Check one pay payload against the rules; the case it shows."""
    pay, pend = p["pay"], p["view"]["pending"]
    assert pay is not None and p["decision"] == "pay"
    assert (pay["card"], pay["side"], pay["need"], pay["paid"]) == (
        pend["card"], pend["side"], pend["need"], pend["paid"])
    cat = svc.game(gid).snap.state.game.catalog
    sp = species_of(pay["card"], pay["side"], cat)
    card = card_of(pay["card"], cat)
    # the symbol printed on the half paid for (a tree card has one)
    symbol = card.halves[pay["side"]].symbol if pay["side"] else next(iter(card.symbols))
    assert pay["symbol"] == symbol
    # the prompt names the card and what is left to pay
    assert p["prompt"].startswith(f"Pay for {sp.name} (card {pay['card']}) with {pay['need']} ")
    assert ("(paid: " in p["prompt"]) == bool(pay["paid"])
    # payable: every legal payment, and any `need` of them may be paid in ascending order
    legal = sorted(int(a.split()[1]) for a in p["legal"])
    assert pay["payable"] == expected_payable(p)
    assert set(legal) <= set(pay["payable"])
    state = svc.game(gid).snap.state.clone()
    for c in pay["payable"][-pay["need"]:]:  # the highest ones: the hardest set to pay
        state.apply(Action.parse(f"pay {c}"))
    # the bonus
    if sp.bonus is None:
        assert pay["bonus"] is None and not pay["bonus_possible"] and pay["keeps_bonus"] == []
        assert p["prompt_detail"] == f"{sp.name} has no bonus."
        return "no bonus"
    assert pay["bonus"] == cardtext.describe_effect(sp.bonus)
    alive = all(shows(c, symbol, cat) for c in pay["paid"])
    if not alive:
        assert not pay["bonus_possible"]
        assert pay["keeps_bonus"] == []
        assert p["prompt_detail"] == (f"No bonus ({pay['bonus']}) this time: not every card "
                                      f"paid shows {symbol}.")
        return "lost"
    # the cards that show the symbol, counted against the cards still to pay: the bonus is
    # possible only with enough of them, and then each of them keeps it
    matching = sorted(c for c in p["view"]["hand"]
                      if c in pay["payable"] and shows(c, symbol, cat))
    assert pay["matching"] == matching
    head_words = f"Bonus ({pay['bonus']}) if every card paid shows {symbol}: "
    more = "more " if pay["paid"] else ""
    word = f"{symbol} card" + ("" if pay["need"] == 1 else "s")
    counted = f"you need {pay['need']} {more}{word}, you have {len(matching)}"
    if len(matching) >= pay["need"]:
        assert pay["bonus_possible"] and pay["keeps_bonus"] == matching
        assert p["prompt_detail"] == head_words + counted + ", so it is still possible."
        return "alive"
    assert not pay["bonus_possible"] and pay["keeps_bonus"] == []
    assert p["prompt_detail"] == head_words + counted + ", so it is lost."
    return "no keeper"


def play(seed: int, players: int = 2) -> dict[str, int]:
    """A random game of people with bonus-aware payments (half the time a card that loses
    the bonus, when there is one); every payload of the seat to move and of the others is
    checked. The cases of pay payloads seen."""
    rng = random.Random(seed)
    cases: dict[str, int] = {}
    with GameService(Store("sqlite://"), bot_delay=0) as svc:
        created = svc.create([SeatSpec("human", f"P{i + 1}") for i in range(players)],
                             seed=seed)
        gid = created["game_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        cat = svc.game(gid).snap.state.game.catalog
        while True:
            watcher = svc.payloads.payload(gid, None)
            assert watcher["prompt"] is None and watcher["prompt_detail"] is None
            assert watcher["pay"] is None
            if watcher["over"]:
                return cases
            seat = watcher["to_move"]
            other = svc.payloads.payload(gid, (seat + 1) % players)
            assert other["prompt"] is None and other["pay"] is None
            p = svc.payloads.payload(gid, seat)
            assert p["prompt"] and p["prompt"][0].isupper() and p["prompt"].endswith(("?", "."))
            choices = p["legal"]
            if p["decision"] == "pay":
                case = check_pay(svc, gid, p)
                cases[case] = cases.get(case, 0) + 1
                if p["view"]["decisions"][-1]["pool"] is not None:
                    cases["mole"] = cases.get("mole", 0) + 1
                pay = p["pay"]
                if case == "alive" and rng.random() < 0.5:
                    losing = [a for a in choices
                              if not shows(int(a.split()[1]), pay["symbol"], cat)]
                    choices = losing or choices
            else:
                assert p["pay"] is None
                if p["decision"] == "option":
                    pend = p["view"]["pending"]
                    sp = species_named(pend["species"], cat)
                    assert sp is not None and pend["species"] in p["prompt"]
                    part = "permanent" if pend["step"] == "mushroom" else pend["step"]
                    assert p["prompt_detail"] == (cardtext.full_text(sp, part) or None)
                else:
                    assert p["prompt_detail"] is None
                if p["decision"] == "turn":
                    assert "raw 2 cards (deck or clearing)" in p["prompt"]
            svc.act(gid, tokens[seat], rng.choice(choices), p["version"])


@pytest.mark.parametrize(("seed", "players"), [(3, 2), (8, 2), (23, 3)])
def test_pay_facts_follow_the_rules_over_a_game(seed: int, players: int) -> None:
    cases = play(seed, players)
    # a bonus still possible, lost by a card paid, lost for want of a card that shows the
    # symbol, and a card without a bonus
    assert {"alive", "lost", "no keeper", "no bonus"} <= set(cases), cases


def test_the_wire_carries_the_prompt_and_pay_fields() -> None:
    rng = random.Random(1)
    with client() as c:
        game = new_game(c, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
                        seed=9)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        for _ in range(400):
            seat = c.get(f"/api/games/{gid}").json()["to_move"]
            p = c.get(f"/api/games/{gid}", headers=head(tokens[seat])).json()
            schemas.Payload.model_validate(p)
            if p["decision"] == "pay" and p["pay"]["bonus"] is not None:
                assert set(p["pay"]) == {"card", "side", "need", "paid", "symbol", "bonus",
                                         "bonus_possible", "payable", "matching",
                                         "keeps_bonus", "words", "lost_words"}
                assert p["prompt"].startswith("Pay for ") and p["prompt_detail"]
                schemas.PayHint.model_validate(p["pay"])
                return
            r = c.post(f"/api/games/{gid}/actions", headers=head(tokens[seat]),
                       json={"action": rng.choice(p["legal"]), "version": p["version"]})
            assert r.status_code == 200, r.text
    raise AssertionError("no payment for a card with a bonus in 400 actions")
