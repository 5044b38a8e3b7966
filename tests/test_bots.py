"""Bots: legal choices, no hidden information, determinization, budgets, reproducibility."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

from forest_shuffle.bots import DIFFICULTIES, BotSpecError, Budget, make_bot
from forest_shuffle.bots.determinize import Determinizer
from forest_shuffle.bots.greedy import GreedyBot, _Ctx, greedy_action
from forest_shuffle.bots.mcts import MCTSBot
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.check import check_state
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.games import game_ids, make_game

GAMES = ("base", "base+alpine", "base+woodland_edge", "base+alpine+woodland_edge",
         "base+exploration")


def _play(state: GameState, specs: list[str], seed: int, limit: int = 10_000,
          check_every: int = 0) -> list[Action]:
    bots = [make_bot(s, seed + i) for i, s in enumerate(specs)]
    out: list[Action] = []
    while not state.over and len(out) < limit:
        p = state.to_move
        assert p is not None
        view = state.view(p)
        a = bots[p].choose(view)
        assert a in view.legal_actions, f"{specs[p]} chose {a} at {view.pending}"
        state.apply(a)
        out.append(a)
        if check_every and len(out) % check_every == 0:
            check_state(state)
    return out


def test_the_games_under_test_are_the_registered_ones() -> None:
    assert set(GAMES) <= set(game_ids())


#: Every bot in every game: a small search budget (too few rollouts for a race, so
#: greedy's choice; and a tree search) keeps full games fast.
_MCTS = "mcts:iterations=3,depth=1,width=3"
_ISMCTS = "mcts:iterations=3,depth=1,width=3,race=0"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_every_bot_plays_whole_games_of_every_game(game: str, players: int) -> None:
    lineups: tuple[list[str], ...] = ([_MCTS, "greedy", "random", "greedy:exact=0"],
                                      ["greedy:exact=0", "random", _ISMCTS, "greedy"])
    if players == 2:
        lineups = ([_MCTS, "greedy:exact=0"], ["random", _ISMCTS], ["greedy", "random"])
    for k, specs in enumerate(lineups):
        state = GameState.new(players, 500 + 7 * k + players, game=game)
        assert state.game.id == game
        _play(state, specs[:players], k, check_every=40)
        assert state.over, (game, specs)
        check_state(state)


@pytest.mark.parametrize("game", GAMES[1:])
def test_searches_rank_legal_moves_in_the_expansions(game: str) -> None:
    from forest_shuffle.bots.mcts import evaluate, race, search
    state = GameState.new(2, 27, game=game)
    for _ in range(70):
        state.apply(greedy_action(state, exact=False))
    while state.decision != "turn" or len(state.legal_actions()) < 3:
        state.apply(greedy_action(state, exact=False))
    view = state.view(state.to_move or 0)
    raced = race(view, None, 60, 1, 1)
    assert len(raced) > 1 and all(a in view.legal_actions for a in raced)
    searched = search(view, None, 20, 1, 0.7, 1)
    assert searched and all(a in view.legal_actions for a in searched)
    for hv in (0, 2, 3, 4):
        assert 0.0 < evaluate(state, 0, hv) < 1.0


@pytest.mark.parametrize("game", GAMES[1:])
def test_greedy_beats_random_in_the_expansions(game: str) -> None:
    wins = 0
    for seed in range(4):
        state = GameState.new(2, 600 + seed, game=game)
        seat = seed % 2
        specs = ["random", "random"]
        specs[seat] = "greedy"
        _play(state, specs, seed)
        sc = state.scores()
        wins += sc[seat] > sc[1 - seat]
    assert wins >= 3


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_and_greedy_play_legal_games(players: int) -> None:
    specs = ["greedy" if i % 2 == 0 else "random" for i in range(players)]
    state = GameState.new(players, 100 + players)
    _play(state, specs, players)
    assert state.over


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mcts_plays_legal_actions(players: int) -> None:
    state = GameState.new(players, 200 + players)
    specs = ["mcts:iterations=4,depth=1" if i == 0 else "greedy" for i in range(players)]
    _play(state, specs, players, limit=150)


def test_difficulties_build() -> None:
    assert set(DIFFICULTIES) == {"easy", "medium", "hard", "expert"}
    for name in DIFFICULTIES:
        bot = make_bot(name, 1)
        assert bot.describe()
    assert isinstance(make_bot("medium"), GreedyBot)
    hard = make_bot("hard")
    assert isinstance(hard, MCTSBot) and hard.time == 1.0


def test_bad_specs() -> None:
    for spec in ("nobody", "mcts:speed=3", "mcts:time", "mcts:workers=3", "greedy:=1",
                 "mcts:time=0,iterations=0"):
        with pytest.raises(BotSpecError):
            make_bot(spec)


# ---------------------------------------------------------------- hidden information


_VIEW_FIELDS = {
    "player", "num_players", "hand", "hand_sizes", "known_hands", "own_cave", "cave_sizes",
    "deck_size", "box_size", "clearing", "winter", "forests", "current", "turn",
    "extra_turns", "over", "pending", "legal_actions", "rules", "decisions", "queue", "active",
    "game", "discard", "cave_offer", "setup", "box_seen", "caves_seen", "solo", "reprieves",
}


def _ints(obj: object) -> set[int]:
    if isinstance(obj, bool):
        return set()
    if isinstance(obj, int):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_ints(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list | tuple):
        return set().union(*(_ints(v) for v in obj)) if obj else set()
    if isinstance(obj, str):
        return {int(w) for w in obj.split() if w.isdigit()}
    return set()


def test_views_carry_no_hidden_cards() -> None:
    assert {f.name for f in dataclasses.fields(PlayerView)} == _VIEW_FIELDS
    state = GameState.new(3, 9)
    rng = random.Random(9)
    for step in range(400):
        if state.over:
            break
        for p in range(state.num_players):
            hidden = set(state.deck) | (set(state.box) - set(state.box_seen))
            for i in range(state.num_players):
                if i != p:
                    hidden |= set(state.hands[i]) - state.known[i]
                    hidden |= set(state.caves[i]) - set(state.caves_seen[i])
                    hidden |= {t.card for t in state.forests[i].trees
                               if t.is_sapling and t.card is not None}
            v = state.view(p)
            data = v.to_dict()
            pend = data["pending"] or {}
            cards = _ints([data["hand"], data["known_hands"], data["own_cave"],
                           data["clearing"], data["winter"], data["forests"],
                           data["box_seen"], data["caves_seen"],
                           pend.get("card", 0), pend.get("paid", [])])
            assert not (cards & hidden), f"step {step}: view of {p} shows {cards & hidden}"
            assert data["deck_size"] == len(state.deck)
            assert all(t.card is not None for t in v.forests[p].trees)
        state.apply(rng.choice(state.legal_actions()))


def test_bot_api_receives_only_the_view() -> None:
    state = GameState.new(2, 4)
    seen: list[object] = []

    class Spy(GreedyBot):
        def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
            seen.append(view)
            return super().choose(view, budget)

    bot = Spy()
    view = state.view(state.to_move or 0)
    bot.choose(view)
    assert isinstance(seen[0], PlayerView)
    assert not hasattr(seen[0], "deck") and not hasattr(seen[0], "seed")


# ---------------------------------------------------------------- determinization


def _check_sample(state: GameState, view: PlayerView, d: GameState) -> None:
    me = view.player
    g = state.game
    assert d.game is g is view.game
    locs = d.locations()
    # every card of the game in exactly one place
    assert sorted(locs) == sorted(g.deck_ids + g.winter_ids)
    assert d.hands[me] == state.hands[me]
    assert d.caves[me] == state.caves[me]
    assert d.clearing == state.clearing and d.winter == state.winter
    for i in range(state.num_players):
        assert len(d.hands[i]) == len(state.hands[i])
        assert len(d.caves[i]) == len(state.caves[i])
        assert state.known[i] <= set(d.hands[i]) or i == me
        assert len(d.forests[i].trees) == len(state.forests[i].trees)
        # the visible forest is kept: hosts (kind, species, symbol), dwellers, cards seen
        for dt, vt in zip(d.forests[i].trees, view.forests[i].trees, strict=True):
            assert (dt.kind, dt.species, dt.symbol, dt.slots) == (
                vt.kind, vt.species, vt.symbol, vt.slots)
            assert vt.card is None or dt.card == vt.card
    assert len(d.deck) == len(state.deck) and len(d.box) == len(state.box)
    winters = sum(1 for c in d.deck if c in g.winter_ids)
    assert winters + len(d.winter) == len(g.winter_ids)
    assert d.legal_actions() == state.legal_actions()
    assert d.to_move == state.to_move and d.decision == state.decision
    # The decision in progress is copied exactly, not rebuilt.
    assert [x.to_dict() for x in d.stack] == [x.to_dict() for x in state.stack]
    assert d.queue == state.queue
    assert d.active[state.current] == state.active[state.current]
    assert d.rules == state.rules


def test_determinization_is_consistent() -> None:
    checked = 0
    for seed in range(8):
        players = 2 + seed % 4
        state = GameState.new(players, 300 + seed)
        rng = random.Random(seed)
        step = 0
        while not state.over:
            p = state.to_move
            assert p is not None
            view = state.view(p)
            if step % 5 == 0:
                d = Determinizer(view).sample(rng)
                _check_sample(state, view, d)
                checked += 1
            a = greedy_action(state, exact=False) if rng.random() < 0.7 else rng.choice(
                state.legal_actions())
            state.apply(a)
            step += 1
    assert checked > 200


@pytest.mark.parametrize("game", GAMES[1:])
def test_determinization_of_expansion_games_is_consistent(game: str) -> None:
    checked = 0
    kinds: set[str] = set()
    for seed in range(3):
        players = (2, 4, 3)[seed]
        state = GameState.new(players, 340 + seed, game=game)
        rng = random.Random(seed)
        step = 0
        while not state.over:
            p = state.to_move
            assert p is not None
            view = state.view(p)
            if step % 7 == 0 or view.pending is not None and view.pending.kind not in (
                    "turn", "draw", "pay", "option"):
                d = Determinizer(view).sample(rng)
                check_state(d)
                _check_sample(state, view, d)
                assert d.view(p).legal_actions == view.legal_actions
                kinds.add(view.pending.kind if view.pending else "")
                checked += 1
            a = greedy_action(state, exact=False) if rng.random() < 0.7 else rng.choice(
                state.legal_actions())
            state.apply(a)
            step += 1
    assert checked > 100 and {"turn", "pay"} <= kinds


@pytest.mark.parametrize("game", GAMES)
def test_first_winter_lies_at_the_bottom_third(game: str) -> None:
    state = GameState.new(2, 11, game=game)
    winters = state.game.winter_ids
    view = state.view(state.to_move or 0)
    det = Determinizer(view)
    rng = random.Random(1)
    for _ in range(20):
        d = det.sample(rng)
        where = [i for i, c in enumerate(d.deck) if c in winters]
        assert where[-1] == det.first_winter_at
        assert len(where) == len(winters)


def test_determinizations_vary_only_hidden_cards() -> None:
    state = GameState.new(2, 12)
    for _ in range(30):
        state.apply(greedy_action(state))
    view = state.view(state.to_move or 0)
    det = Determinizer(view)
    a, b = det.sample(random.Random(1)), det.sample(random.Random(2))
    assert a.deck != b.deck
    assert a.hands[view.player] == b.hands[view.player]


# ---------------------------------------------------------------- budgets and seeds


def _mid_game(seed: int = 21) -> GameState:
    state = GameState.new(2, seed)
    for _ in range(60):
        state.apply(greedy_action(state))
    while state.decision != "turn" or len(state.legal_actions()) < 3:
        state.apply(greedy_action(state))
    return state


def test_explicit_time_budget_holds() -> None:
    state = _mid_game()
    bot = MCTSBot(seed=1)
    view = state.view(state.to_move or 0)
    start = time.perf_counter()
    bot.choose(view, Budget(seconds=0.2))
    spent = time.perf_counter() - start
    # It thinks for its budget and stops at the first check after it: the margin above is
    # one search iteration on a loaded machine, far below what an unbounded search spends.
    assert 0.18 <= spent <= 0.5, spent


def test_turn_budget_is_shared_and_forced_choices_are_free() -> None:
    state = _mid_game(22)
    me = state.to_move
    assert me is not None
    bot = MCTSBot(seed=2, time=0.3)
    turn = state.turn
    spent = 0.0
    while not state.over and state.turn == turn and state.to_move == me:
        view = state.view(me)
        start = time.perf_counter()
        a = bot.choose(view)
        took = time.perf_counter() - start
        if len(view.legal_actions) == 1:
            assert took < 0.05
        spent += took
        state.apply(a)
    assert 0.1 <= spent <= 0.6, spent  # the margin: see test_explicit_time_budget_holds


def test_same_seed_same_choices() -> None:
    for spec in ("random", "greedy", "mcts:iterations=30"):
        runs = []
        for _ in range(2):
            state = GameState.new(2, 31)
            runs.append(_play(state, [spec, spec], 5, limit=40 if "mcts" in spec else 10_000))
        assert runs[0] == runs[1], spec


def test_two_workers_merge_statistics() -> None:
    state = _mid_game(23)
    bot = MCTSBot(seed=3, time=0.2, workers=2)
    view = state.view(state.to_move or 0)
    start = time.perf_counter()
    a = bot.choose(view, Budget(seconds=0.2))
    assert a in view.legal_actions
    assert time.perf_counter() - start <= 0.4  # the first call also starts the helper


@pytest.mark.parametrize("spec", ["random", "greedy", "greedy:exact=0", "mcts",
                                  "mcts:time=0.3,workers=2", "mcts:iterations=30,z=1.5",
                                  "mcts:iterations=30,hv=3,end=40,diverse=0,exact=1"])
def test_describe_gives_the_spec_that_builds_the_bot_again(spec: str) -> None:
    text = make_bot(spec).describe()
    assert text == spec
    assert make_bot(text).describe() == text


# ---------------------------------------------------------------- search options


def test_end_game_rollouts_run_to_the_end() -> None:
    from forest_shuffle.bots.mcts import _horizon
    state = _mid_game(24)
    view = state.view(state.to_move or 0)
    assert _horizon(view, 2, 0) == view.turn + 2 * view.num_players
    assert _horizon(view, 2, view.deck_size) > 10_000  # to the end of the game


def test_fitted_evaluation_is_a_reward() -> None:
    from forest_shuffle.bots.mcts import evaluate, fitted_points
    state = _mid_game(25)
    for p in range(state.num_players):
        assert abs(fitted_points(state, p)) < 500
        assert 0.0 < evaluate(state, p, hv=3) < 1.0
    bot = make_bot("mcts:iterations=20,hv=3,end=200", 4)
    view = state.view(state.to_move or 0)
    assert bot.choose(view) in view.legal_actions


def test_diverse_candidates_are_distinct_legal_moves() -> None:
    from forest_shuffle.bots.greedy import card_key, diverse_candidates, greedy_view_action
    state = GameState.new(2, 26)
    checked = covered = 0
    while not state.over and checked < 60:
        view = state.view(state.to_move or 0)
        if view.pending is not None and view.pending.kind == "turn":
            cands = diverse_candidates(view, 6)
            assert cands[0] == greedy_view_action(view)
            assert all(a in view.legal_actions for a in cands)
            cards = view.game.cards
            keys = [(a.kind, a.side, card_key(a.card, cards)) if a.card else (a,)
                    for a in cands]
            assert len(set(keys)) == len(keys)
            assert len(cands) == min(6, len(set(
                (a.kind, a.side, card_key(a.card, cards)) if a.card else (a,)
                for a in view.legal_actions)))
            legal_kinds = {a.kind for a in view.legal_actions}
            for family in ({"draw", "take"}, {"play", "sapling"}):
                if legal_kinds & family:  # a draw and a play always race
                    assert any(a.kind in family for a in cands)
            plain = diverse_candidates(view, 6, cover=False)
            assert plain[:-1] == cands[:-1] and len(plain) == len(cands)
            covered += plain != cands
            checked += 1
        state.apply(greedy_action(state, exact=False))
    assert checked == 60 and covered > 0


def test_exploring_greedy_deviates_among_its_distinct_moves_only() -> None:
    from forest_shuffle.bots.greedy import EXPLORE_WIDTH, diverse_candidates, greedy_view_action
    plain = make_bot("greedy:exact=0", 5)
    always = make_bot("greedy:exact=0,explore=1", 5)
    again = make_bot("greedy:exact=0,explore=1", 5)
    state = GameState.new(2, 31)
    turns = deviations = 0
    while not state.over:
        view = state.view(state.to_move or 0)
        a, b = always.choose(view), again.choose(view)
        assert a == b and a in view.legal_actions  # the bot's own seeded generator
        if view.pending is not None and view.pending.kind == "turn" and len(
                view.legal_actions) > 1:
            assert a in diverse_candidates(view, EXPLORE_WIDTH)
            turns += 1
            deviations += a != greedy_view_action(view, False)
        else:  # only turn decisions explore
            assert a == plain.choose(view)
        state.apply(plain.choose(view))
    assert turns > 20 and 0 < deviations < turns


def test_race_with_too_few_samples_returns_greedys_choice() -> None:
    from forest_shuffle.bots.greedy import greedy_view_action
    from forest_shuffle.bots.mcts import race
    state = _mid_game(27)
    view = state.view(state.to_move or 0)
    stats = race(view, None, 3, 1, 2)  # 3 rollouts: not one full round of candidates
    assert list(stats) == [greedy_view_action(view)]
    more = race(view, None, 60, 1, 2)
    assert len(more) > 1 and all(a in view.legal_actions for a in more)


def test_sharp_replies_only_with_enough_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import forest_shuffle.bots.mcts as mcts
    seen: list[int] = []
    real = mcts.race

    def spy(*args: object) -> dict[Action, tuple[int, float]]:
        seen.append(int(args[11]))  # type: ignore[call-overload]
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(mcts, "race", spy)
    state = _mid_game(28)
    view = state.view(state.to_move or 0)
    MCTSBot(seed=1, time=0.05, exact=1).choose(view)
    MCTSBot(seed=1, iterations=12, exact=1).choose(view)
    MCTSBot(seed=1, exact=1).choose(view, Budget(seconds=0.05))
    MCTSBot(seed=1, iterations=12).choose(view)  # fast replies by default
    assert seen == [0, 1, 0, 0]


def test_pick_keeps_greedys_choice_without_clear_evidence() -> None:
    from forest_shuffle.bots.greedy import greedy_view_action
    from forest_shuffle.bots.mcts import race
    kept = 0
    for game in (25, 29, 31, 33):
        state = _mid_game(game)
        view = state.view(state.to_move or 0)
        g = greedy_view_action(view)
        for seed in range(3):
            stats = race(view, None, 120, seed, 2, pick=1e9)  # no evidence is enough
            free = race(view, None, 120, seed, 2, pick=0.0)
            assert all(a in view.legal_actions for a in free)
            if list(stats) == [g]:
                kept += 1  # greedy's choice was still racing: kept
            else:
                assert stats == free  # dropped by the race: the evidence was clear
    assert kept > 0


# ---------------------------------------------------------------- the greedy heuristic


def _ctx_at(game: str, seed: int = 3, steps: int = 80) -> tuple[GameState, _Ctx]:
    from forest_shuffle.bots.greedy import _ctx, situation_of_state
    state = GameState.new(2, seed, game=game)
    for _ in range(steps):
        state.apply(greedy_action(state, exact=False))
    return state, _ctx(situation_of_state(state))


def test_greedy_tables_come_from_each_game() -> None:
    from forest_shuffle.bots.greedy import deck_start, tables_of
    base, both = make_game("base"), make_game("base+alpine+woodland_edge")
    assert tables_of(base) is tables_of(make_game("base"))  # built once per game
    assert deck_start(base, 2) == len(base.deck_ids) - base.removed_at_setup[2] == 128
    assert deck_start(both, 4) == len(both.deck_ids) - both.removed_at_setup[4]
    assert set(tables_of(base).bats) < set(tables_of(both).bats)
    assert "Phoebus Apollo" in tables_of(both).butterflies
    assert "Phoebus Apollo" not in tables_of(base).butterflies
    perms = tables_of(both).permanents
    assert set(perms) == set(both.mushrooms)
    # Every base mushroom fires often enough for the full value; a shrub's tag less so.
    assert all(perms[m] == perms["Chanterelle"] for m in make_game("base").mushrooms)
    assert 0 < perms["Common Hazel"] < perms["Chanterelle"]
    tree = base.catalog.card(1).species
    assert tree is not None and tables_of(base).card_tags[1] == tree.tags


def test_expansion_species_are_valued_like_base_species_of_the_same_rule() -> None:
    from forest_shuffle.bots.greedy import potential
    game = "base+alpine+woodland_edge"
    sp = make_game(game).catalog.species
    _, c = _ctx_at(game)
    same = [("Roe Deer", "Chamois"), ("Barbastelle Bat", "Savi's Pipistrelle"),
            ("Barbastelle Bat", "Common Pipistrelle"), ("Camberwell Beauty", "Map Butterfly"),
            ("Chanterelle", "Black Trumpet"), ("Squeaker", "Edge Squeaker")]
    for base_name, other in same:
        a, b = sp[base_name], sp[other]
        if sp[base_name].points.rule in ("bat_variety", "butterfly_sets"):
            have_a = c.counts.get(base_name, 0)
            have_b = c.counts.get(other, 0)
            if bool(have_a) != bool(have_b):
                continue  # a set values a new kind above a copy
        assert potential(a, c) == potential(b, c), (base_name, other)
    for name in ("European Larch", "Stone Pine", "Elderberry", "Common Hazel", "Blackthorn"):
        assert potential(sp[name], c) > 0


def test_greedy_and_search_read_the_hand_limit_of_the_game() -> None:
    from forest_shuffle.bots.greedy import tables_of
    from forest_shuffle.cards.model import load_catalog
    from forest_shuffle.engine.game import make_def
    small = make_def("base-hand-7", "Forest Shuffle, hand of 7", load_catalog(("base",)),
                     (2, 3, 4, 5), {2: 30, 3: 20, 4: 10, 5: 0}, hand_limit=7)
    assert tables_of(small).hand_limit == 7
    for seed in range(2):
        state = GameState.new(2, 40 + seed, game=small)
        _play(state, ["greedy", "mcts:iterations=8,depth=1"], seed, limit=300)
        assert all(len(h) <= 7 for h in state.hands)
        assert tables_of(make_game("base")).hand_limit == 10
