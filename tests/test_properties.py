"""Property tests over random games: Hypothesis draws the seed and the player count; the
actions come from a random.Random seeded with the same seed (a policy that favours plays, so
that effects, free plays, the Mole and the Raccoon come up)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenario import ALL_IDS, CATALOG, CLEARING_LIMIT, HAND_LIMIT, REMOVED_AT_SETUP, check_places

from forest_shuffle.engine.actions import Action, IllegalActionError
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.state import GameState

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=2, max_value=5)
rules = st.builds(Rules, st.booleans(), st.booleans(), st.booleans(), st.booleans())


def choose(state: GameState, rng: random.Random) -> Action:
    """A random legal action, biased towards playing cards and using effects."""
    acts = state.legal_actions()
    d = state.decision
    if d == "turn":
        draws = [a for a in acts if a.kind in ("draw", "take")]
        plays = [a for a in acts if a.kind == "play"]
        saps = [a for a in acts if a.kind == "sapling"]
        r = rng.random()
        if plays and (r < 0.5 or not draws):
            return rng.choice(plays)
        if draws and r < 0.9:
            return rng.choice(draws)
        return rng.choice(saps or acts)
    if d == "option":
        return acts[0] if rng.random() < 0.85 else acts[1]
    if d in ("free", "mole", "raccoon"):
        others = [a for a in acts if a.kind != "done"]
        if others and rng.random() < 0.7:
            return rng.choice(others)
        return acts[-1]
    return rng.choice(acts)


def game(n: int, seed: int, rules: Rules | None = None,
         limit: int = 2000) -> Iterator[tuple[GameState, Action | None, random.Random]]:
    """Yield (state, action about to be applied, rng) at every step, then the final state
    with action None. The state is the live one: do not modify it."""
    state = GameState.new(n, seed, rules)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.over:
            break
        action = choose(state, rng)
        yield state, action, rng
        state.apply(action)
    assert state.over, "the game did not end"
    yield state, None, rng


def first_winter_depth(state: GameState) -> int:
    """Cards above the first winter card in the deck (top first)."""
    from_top = state.deck[::-1]
    return next(i for i, c in enumerate(from_top) if CATALOG.card(c).is_winter)


# ----------------------------------------------------------------------------- invariants


@SETTINGS
@given(players, seeds, rules)
def test_invariants_at_every_step(n: int, seed: int, r: Rules) -> None:
    start = GameState.new(n, seed, r)
    rest = 158 - REMOVED_AT_SETUP[n]
    above = first_winter_depth(start) + 6 * n
    assert above >= 2 * rest / 3
    deck0 = len(start.deck)
    for state, _action, _ in game(n, seed, r):
        check_places(state)
        assert all(len(h) <= HAND_LIMIT for h in state.hands)
        assert len(state.winter) <= 3
        assert set().union(*state.known) <= {c for h in state.hands for c in h}
        if state.decision == "turn":  # the start of a turn: the clearing was checked
            assert len(state.clearing) < CLEARING_LIMIT
        if state.winter:  # the first winter card never comes before the last third
            assert deck0 - len(state.deck) > first_winter_depth(start)
        assert all(CATALOG.card(c).is_winter for c in state.winter)
        assert not any(CATALOG.card(c).is_winter for c in state.clearing)
    assert state.over and len(state.winter) == 3
    assert state.to_move is None and state.legal_actions() == []


@SETTINGS
@given(players, seeds)
def test_legal_actions_are_all_applicable(n: int, seed: int) -> None:
    for state, _action, rng in game(n, seed):
        if state.over or rng.random() > 0.15:
            continue
        for a in state.legal_actions():
            c = state.clone()
            c.apply(a)  # never raises
            check_places(c)
            assert Action.parse(str(a)) == a


@SETTINGS
@given(players, seeds)
def test_action_text_round_trip(n: int, seed: int) -> None:
    for state, action, _ in game(n, seed):
        if action is not None:
            assert Action.parse(str(action)) == action
            assert str(Action.parse(str(action))) == str(action)
        for a in state.legal_actions():
            assert Action.parse(str(a)) == a


# ----------------------------------------------------------------------------- determinism


@SETTINGS
@given(players, seeds)
def test_same_seed_and_actions_same_game(n: int, seed: int) -> None:
    final = None
    for state, _a, _ in game(n, seed):
        final = state
    assert final is not None
    replay = GameState.new(n, seed)
    for a in final.history:
        replay.apply(a)
    assert replay.to_dict() == final.to_dict()
    assert GameState.new(n, seed).to_dict() == GameState.new(n, seed).to_dict()


@SETTINGS
@given(players, seeds)
def test_clone_is_independent(n: int, seed: int) -> None:
    for state, action, rng in game(n, seed):
        if action is None or rng.random() > 0.1:
            continue
        before = state.to_dict()
        c = state.clone()
        assert c.to_dict() == before
        for a in c.legal_actions()[:1] + [rng.choice(c.legal_actions())]:
            if c.over:
                break
            if a in c.legal_actions():
                c.apply(a)
        assert state.to_dict() == before
        # and the other way round: the original moving on leaves the clone alone
        c2 = state.clone()
        snap = c2.to_dict()
        probe = state.clone()
        probe.apply(action)
        assert c2.to_dict() == snap


@SETTINGS
@given(players, seeds, rules)
def test_save_load_round_trip(n: int, seed: int, r: Rules) -> None:
    for state, action, rng in game(n, seed, r):
        if action is not None and rng.random() > 0.08:
            continue
        data = state.to_dict()
        loaded = GameState.from_dict(data)
        assert loaded.to_dict() == data
        via_json = GameState.from_dict(json.loads(json.dumps(data)))
        assert via_json.to_dict() == data
        assert via_json.legal_actions() == state.legal_actions()
        assert via_json.to_move == state.to_move and via_json.decision == state.decision
        if action is not None:
            a = state.clone()
            a.apply(action)
            via_json.apply(action)
            assert via_json.to_dict() == a.to_dict()


# ----------------------------------------------------------------------------- views


def _card_ids(view: dict[str, Any]) -> set[int]:
    """Every card id a view carries, by the fields that hold card ids."""
    out: set[int] = set(view["hand"]) | set(view["own_cave"]) | set(view["clearing"])
    out |= set(view["winter"]) | set(view["box_seen"])
    for cave in view["caves_seen"]:
        out |= set(cave)
    for k in view["known_hands"]:
        out |= set(k)
    for f in view["forests"]:
        for t in f:
            if t["card"] is not None:  # None: another player's face-down sapling
                out.add(t["card"])
            for cards in t["slots"].values():
                out |= set(cards)
    pend = view["pending"]
    if pend is not None:
        out |= set(pend["paid"])
        if pend["card"]:
            out.add(pend["card"])
    for d in view["decisions"]:
        out |= {c for c in (d["card"], *d["paid"], *(d["pool"] or ())) if c}
        out |= {s[1] for s in [d["step"] or [0, 0], *d["steps"]] if s[1]}
    out |= {q[1] for q in view["queue"] if q[1]}
    for text in view["legal_actions"]:
        a = Action.parse(text)
        if a.card:
            out.add(a.card)
    return out


@SETTINGS
@given(players, seeds)
def test_view_hides_other_hands_deck_and_box(n: int, seed: int) -> None:
    for state, action, rng in game(n, seed):
        if action is not None and rng.random() > 0.2:
            continue
        for p in range(n):
            v = state.view(p).to_dict()
            json.dumps(v)
            assert "seed" not in v and "deck" not in v and "box" not in v
            assert v["hand"] == state.hands[p]
            assert v["own_cave"] == state.caves[p]
            assert v["hand_sizes"] == [len(h) for h in state.hands]
            hidden = set(state.deck) | (set(state.box) - set(state.box_seen))
            for i in range(n):
                if i != p:
                    hidden |= set(state.hands[i]) - state.known[i]
                    hidden |= set(state.caves[i]) - set(state.caves_seen[i])
                    hidden |= {t.card for t in state.forests[i].trees
                               if t.is_sapling and t.card is not None}
                    assert set(v["known_hands"][i]) == state.known[i]
            assert not (_card_ids(v) & hidden), (_card_ids(v) & hidden, state.locations())
            assert _card_ids(v) <= set(ALL_IDS)
            if state.to_move != p:
                assert v["legal_actions"] == []
            else:
                assert v["legal_actions"] == [str(a) for a in state.legal_actions()]


ILLEGAL_TEXTS = ["keep", "mulligan", "draw", "yes", "no", "done", "take 1", "play 1",
                 "sapling 1", "pay 1", "cave 1", "play 100 left 1", "play 150 top 9"]


@SETTINGS
@given(players, seeds)
def test_illegal_actions_change_nothing(n: int, seed: int) -> None:
    for state, _action, rng in game(n, seed):
        if rng.random() > 0.1:
            continue
        legal_now = set(state.legal_actions())
        before = state.to_dict()
        texts = [*ILLEGAL_TEXTS, f"take {rng.choice(ALL_IDS)}",
                 f"play {rng.choice(ALL_IDS)} {rng.choice(['top', 'left'])} 1",
                 f"pay {rng.choice(ALL_IDS)}"]
        for text in texts:
            a = Action.parse(text)
            if a in legal_now:
                continue
            try:
                state.apply(a)
            except IllegalActionError as err:
                assert err.reason
            else:
                raise AssertionError(f"{text} was applied")
            assert state.to_dict() == before


# ----------------------------------------------------------------------------- Exploration

EXPLORATION_IDS = ("base+exploration", "base+alpine+exploration",
                   "base+woodland_edge+exploration", "base+alpine+woodland_edge+exploration")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(EXPLORATION_IDS), players, seeds)
def test_exploration_games_keep_the_invariants(gid: str, n: int, seed: int) -> None:
    """Random games of every Exploration id: the whole state checked at every step, the
    winter reprieve asked only with the game's end held open and each card's use once,
    saves and replays give the same game."""
    from forest_shuffle.engine.check import check_state
    from forest_shuffle.games.exploration import D_REPRIEVE, ExplorationState

    state = GameState.new(n, seed, game=gid)
    assert isinstance(state, ExplorationState)
    rng = random.Random(seed)
    end = state.game.winter_to_end
    while not state.over:
        check_state(state)
        if state.decision == D_REPRIEVE:
            assert len(state.winter) == end and state.stack[:-1]
        else:
            assert len(state.winter) < end
        acts = state.legal_actions()
        state.apply(acts[0] if state.decision == "option" and rng.random() < 0.8
                    else rng.choice(acts))
        if rng.random() < 0.02:
            data = json.loads(json.dumps(state.to_dict()))
            assert GameState.from_dict(data).to_dict() == data
    check_state(state)
    assert len(state.winter) == end and len(set(state.reprieves)) == len(state.reprieves)
    replay = GameState.new(n, seed, game=gid)
    for a in state.history:
        replay.apply(a)
    assert replay.to_dict() == state.to_dict()
