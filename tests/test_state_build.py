"""One constructor for a state's fields (issue 39, item 3): ``GameState.build`` is what
``new``, ``clone``, ``from_dict`` and the search bot's sampling make states with, and a
game's state class sets the fields it adds in one hook, ``_init_more``."""

from __future__ import annotations

import random
from typing import Any

from forest_shuffle.bots.determinize import determinize
from forest_shuffle.cards.model import load_catalog
from forest_shuffle.engine.game import GameDef, game_by_id, make_def, register
from forest_shuffle.engine.state import GameState

GAME_ID = "test-marked-state"


class MarkedState(GameState):
    """A state class with one field of its own: where the state came from."""

    __slots__ = ("mark",)

    mark: list[str]

    def _init_more(self, more: dict[str, Any] | None) -> None:
        self.mark = ["new"] if more is None else more["mark"]

    def _more_copy(self) -> dict[str, Any] | None:
        return {"mark": [*self.mark, "copied"]}

    def _load_more(self, data: dict[str, Any]) -> None:
        self._init_more({"mark": ["loaded"]})

    @staticmethod
    def _check_save_more(data: Any) -> None:
        """Nothing of its own in a save to check."""


def _marked_game() -> GameDef:
    return make_def(GAME_ID, "Marked", load_catalog(("base",)), players=(2, 3),
                    removed_at_setup={2: 30, 3: 20}, state_class=MarkedState)


register(GAME_ID, _marked_game, listed=False)


def _played(seed: int) -> GameState:
    s = GameState.new(2, seed=seed, game=game_by_id(GAME_ID))
    rng = random.Random(seed)
    for _ in range(12):
        s.apply_legal(rng.choice(s.legal_actions()))
    return s


def test_every_way_of_making_a_state_sets_the_class_fields() -> None:
    s = _played(3)
    assert isinstance(s, MarkedState) and s.mark == ["new"]
    c = s.clone()
    assert isinstance(c, MarkedState) and c.mark == ["new", "copied"]
    assert c.mark is not s.mark  # a copy, not shared
    loaded = GameState.from_dict(s.to_dict())
    assert isinstance(loaded, MarkedState) and loaded.mark == ["loaded"]
    assert loaded.to_dict() == s.to_dict()
    view = s.view(s.to_move if s.to_move is not None else 0)
    sampled = determinize(view, random.Random(1))
    assert isinstance(sampled, MarkedState) and sampled.mark == ["new"]


def test_build_holds_what_it_is_given() -> None:
    s = _played(5)
    fields = [getattr(s, f) for f in GameState.__slots__ if f != "_legal"]
    b = type(s).build(*fields, {"mark": ["given"]})
    assert isinstance(b, MarkedState) and b.mark == ["given"]
    assert b.to_dict() == s.to_dict()
    assert b.legal_actions() == s.legal_actions()
