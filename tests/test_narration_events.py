"""Table events in words: a clearing emptied by an effect that puts it under a cave is not
told as going to the box; the rule reads the effect's op from the card data, not a name."""

from __future__ import annotations

from dataclasses import dataclass

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.view import PendingView
from forest_shuffle.games import make_game
from forest_shuffle.text import narration


@dataclass
class _Table:
    clearing: tuple[int, ...]
    winter: tuple[int, ...] = ()


def _offer(op: str, gid: str = "base") -> PendingView:
    """An option decision offering the effect with ``op`` of some card of the game."""
    cat = make_game(gid).catalog
    for card in cat.cards:
        if card is None or card.species is not None:
            continue
        for side, half in card.halves.items():
            if half.species.effect is not None and half.species.effect.op == op:
                return PendingView("option", 0, card=card.id, side=side, step="effect",
                                   species=half.species.name)
    raise AssertionError(f"no split card with a {op} effect in {gid}")


def test_a_clearing_put_under_a_cave_is_not_told_as_boxed() -> None:
    cat = make_game("base").catalog
    before, after = _Table((5, 6, 7)), _Table(())
    pend = _offer("clearing_to_cave")
    assert narration.offered_op(pend, cat) == "clearing_to_cave"
    assert not narration.clearing_emptied(Action("yes"), pend, before, after, cat)
    assert narration.event_words(Action("yes"), pend, before, after, 3, catalog=cat) == []
    # the same clearing emptied after another effect went to the box
    other = _offer("draw")
    assert narration.clearing_emptied(Action("yes"), other, before, after, cat)
    assert narration.event_words(Action("yes"), other, before, after, 3, catalog=cat) == [
        narration.CLEARING_EMPTIED]


def test_the_rule_follows_the_data_of_each_game() -> None:
    for gid in ("base+alpine", "dartmoor"):
        cat = make_game(gid).catalog
        pend = _offer("clearing_to_cave", gid)
        assert not narration.clearing_emptied(Action("yes"), pend, _Table((1, 2)), _Table(()),
                                              cat)
