"""CardPoints, built by its written ``__init__``, behaves as the frozen dataclass it is."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from forest_shuffle.scoring import CardPoints


def test_card_points_fields_equality_and_hash() -> None:
    a = CardPoints("tree 1 top", "Red Fox", 4, "2 points per European Hare: 2 European Hares")
    b = CardPoints(where="tree 1 top", species="Red Fox", points=4,
                   why="2 points per European Hare: 2 European Hares")
    assert a == b and hash(a) == hash(b)
    assert [f.name for f in dataclasses.fields(CardPoints)] == ["where", "species", "points",
                                                                "why"]
    assert (a.where, a.species, a.points) == ("tree 1 top", "Red Fox", 4)
    assert repr(a).startswith("CardPoints(where='tree 1 top', species='Red Fox', points=4")


def test_card_points_is_frozen() -> None:
    a = CardPoints("cave", "cave", 3, "3 cards under the cave")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.points = 5  # type: ignore[misc]
    assert dataclasses.replace(a, points=5) == CardPoints("cave", "cave", 5,
                                                         "3 cards under the cave")


def test_card_points_pickle_and_copy() -> None:
    a = CardPoints("tree 2", "Linden", 3, "no other forest has more")
    for b in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert b == a and type(b) is CardPoints
