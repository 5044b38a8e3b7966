"""Dartmoor's refusals over the web name Dartmoor's actions only: a word that is no action
is refused (400) with the list of the game's own kinds, with no sapling or mulligan; an
action the turn does not ask for is refused (400) with the rule, which offers no sapling."""

from __future__ import annotations

from fastapi.testclient import TestClient
from webutil import TWO_HUMANS, act, new_game, one_line_error, payload


def _dartmoor_turn(c: TestClient) -> tuple[str, str, int]:
    """A Dartmoor game at its first turn decision: (game id, the mover's token, version)."""
    game = new_game(c, TWO_HUMANS, seed=4, game="dartmoor")
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    for _ in range(20):
        p = payload(c, gid, tokens[0])
        seat = p["to_move"]
        mine = payload(c, gid, tokens[seat])
        if "draw" in mine["legal"]:
            return gid, tokens[seat], mine["version"]
        r = act(c, gid, tokens[seat], mine["legal"][0], mine["version"])
        assert r.status_code == 200, r.text
    raise AssertionError("no turn reached")


def test_an_unknown_word_lists_dartmoor_actions_only(c: TestClient) -> None:
    gid, token, v = _dartmoor_turn(c)
    why = one_line_error(act(c, gid, token, "dance 3", v), 400)
    assert "not an action" in why and "moor" in why and "discard" in why
    assert "sapling" not in why and "mulligan" not in why


def test_a_universal_moor_during_a_turn_names_the_rule(c: TestClient) -> None:
    gid, token, v = _dartmoor_turn(c)
    p = payload(c, gid, token)
    card = p["view"]["hand"][0]
    why = one_line_error(act(c, gid, token, f"moor {card}", v), 400)
    assert "a universal moor comes only by an effect" in why and "sapling" not in why
