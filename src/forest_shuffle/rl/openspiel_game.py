"""Forest Shuffle as an OpenSpiel Python game (the ``rl`` extra).

Contract: importing this module registers ``python_forest_shuffle`` with pyspiel, with
``parameter_specification={"players": 2, "game": "base", "compact": False}`` (``players``
2 to 5, ``game`` any registered game id); ``pyspiel.load_game("python_forest_shuffle",
{"players": 3})``.

- ``compact``: the compact encodings (:mod:`forest_shuffle.rl.compact`,
  :mod:`forest_shuffle.rl.compact_obs`): ``num_distinct_actions`` NUM_COMPACT (3,800); a
  half play is two moves of the same player (the half, then its host; ``state.half`` holds
  the chosen half in between); the observation tensor is the compact observation (showing
  that half), the information state tensor that and the memory.

- Sequential, imperfect information, explicit chance, terminal rewards, ``GENERAL_SUM``
  utility: 1 for each player with the top total (ties share), 0 for the others.
- The deal is the only chance: :data:`DEAL_STEPS` chance nodes of 256 outcomes each spell
  a 64-bit deal seed, big-endian; then ``state.game_state`` is the engine state (terminal
  state included) and no chance node follows. Actions are the ids of
  :mod:`forest_shuffle.rl.actions` (``num_distinct_actions`` = NUM_ACTIONS).
- Observation tensor and string: the player's view (:func:`forest_shuffle.rl.observation.encode`,
  :func:`~forest_shuffle.rl.observation.view_text`). Information state: the view and what
  the player remembers of the cards it saw (:mod:`forest_shuffle.rl.memory`), tensor
  OBS_SIZE + MEMORY_SIZE. Two histories that leave a player the same view and memory share
  an information state (the order of earlier public events is not kept). The observer
  (``make_py_observer``) has ``.tensor`` and ``.dict`` (named views of it); a public
  observer (``private_info`` NONE) encodes the spectator's view.
- ``resample_from_infostate(player, sampler)`` draws a state that player cannot tell from
  this one (:func:`forest_shuffle.rl.resample.resample`), seeded from ``sampler``.
- OpenSpiel clones a Python state by deep-copying its attributes; the engine state's
  ``__deepcopy__`` is its cheap ``clone()``. Everything on the state pickles.
- ``state.observation_array(p)`` and ``state.information_state_array(p)`` are the tensors
  as float32 numpy arrays (pyspiel's ``observation_tensor``/``information_state_tensor``
  return Python lists of some 30,000 floats; the observer's ``tensor`` is numpy too).
- ``apply_action`` from Python does not check legality first; the engine does, and raises
  :class:`~forest_shuffle.engine.actions.IllegalActionError` for an illegal action.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from forest_shuffle.engine.game import canonical_id, game_by_id
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import make_spectator_view
from forest_shuffle.rl.actions import NUM_ACTIONS, action_to_id, encodable, id_to_action
from forest_shuffle.rl.compact import HOST_START, NUM_COMPACT, CompactDecision, half_of, join
from forest_shuffle.rl.compact_obs import encode_state, layout
from forest_shuffle.rl.memory import (
    MEMORY_FIELDS,
    MEMORY_SIZE,
    Seen,
    encode_memory,
    memory_text,
    remembered,
    visible_all,
)
from forest_shuffle.rl.observation import FIELDS, OBS_SIZE, encode, fields, view_text
from forest_shuffle.rl.resample import resample
from forest_shuffle.rl.rewards import final_rewards

SHORT_NAME = "python_forest_shuffle"
#: Chance nodes of the deal (each one byte of the 64-bit seed).
DEAL_STEPS = 8
#: A bound on the moves of a game (the deal included); random games take at most ~560.
MAX_GAME_LENGTH = 4000

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Forest Shuffle",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "game": "base", "compact": False},
)


class _Cache:
    """Views, texts and memories of one position, per player; never copied (a copy of the
    state starts empty, and every action empties it)."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: dict[tuple[str, int], Any] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache()

    def __getstate__(self) -> dict[str, Any]:
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.items = {}


class ForestShuffleGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one player count and one registered game id."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        n = int(params.get("players", 2))
        gid = canonical_id(str(params.get("game", "base")))
        if n not in game_by_id(gid).players:
            raise ValueError(f"{gid} is for {game_by_id(gid).players} players, not {n}")
        self.num_seats = n
        self.game_id = gid
        self.compact = bool(params.get("compact", False))
        self.obs_size = layout(game_by_id(gid)).size if self.compact else OBS_SIZE
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_COMPACT if self.compact else NUM_ACTIONS,
            max_chance_outcomes=256, num_players=n, min_utility=0.0, max_utility=1.0,
            max_game_length=2 * MAX_GAME_LENGTH if self.compact else MAX_GAME_LENGTH)
        super().__init__(GAME_TYPE, info, {"players": n, "game": gid,
                                           "compact": self.compact})

    def new_initial_state(self) -> ForestShuffleState:
        return ForestShuffleState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                        self.obs_size)


class ForestShuffleState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the deal's chance nodes, then the engine state."""

    def __init__(self, game: ForestShuffleGame) -> None:
        super().__init__(game)
        self.num_seats = game.num_seats
        self.game_id = game.game_id
        self.compact: bool = game.compact
        self.obs_size: int = game.obs_size
        self.half: int | None = None  # compact: the half chosen, waiting for its host
        self.deal_bytes: list[int] = []
        self.game_state: GameState | None = None
        self.seen: Seen | None = None
        self.mulligans: dict[int, str] = {}
        self.cache = _Cache()

    def cached(self, what: str, player: int) -> Any:
        """The player's ``view``, ``spectator`` view, their ``text``/``spectator text`` and
        ``array``/``spectator array`` (:func:`~forest_shuffle.rl.observation.encode`), or
        its ``memory``: each computed once per position."""
        key = (what, player)
        items = self.cache.items
        if key in items:
            return items[key]
        gs = self.game_state
        assert gs is not None
        if what == "view":
            value: Any = gs.view(player)
        elif what == "spectator":
            value = dataclasses.replace(make_spectator_view(gs), player=player)
        elif what == "memory":
            value = (remembered(gs, player, self.seen.cards[player], self.seen.held[player])
                     if self.seen is not None else {})
        elif what == "decision":
            value = CompactDecision(gs.legal_actions())
            if self.half is not None:
                value.choose(self.half)  # now its hosts
        elif what.endswith("array") and self.compact:
            if what != "array":
                raise ValueError("a public observer is not offered with compact encodings")
            chosen = half_of(self.half) if self.half is not None and player == gs.to_move \
                else None
            value = encode_state(gs, player, chosen=chosen)
        elif what.endswith("array"):
            value = encode(self.cached("view" if what == "array" else "spectator", player))
        else:  # "text" / "spectator text"
            value = view_text(self.cached("view" if what == "text" else "spectator", player))
        items[key] = value
        return value

    # ------------------------------------------------------------ the game tree

    def current_player(self) -> int:
        gs = self.game_state
        if gs is None:
            return int(pyspiel.PlayerId.CHANCE)
        if gs.over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = gs.to_move
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        gs = self.game_state
        if gs is None or gs.over or gs.to_move != player:
            return []
        if self.compact:
            ids: list[int] = self.cached("decision", player).ids()
            return ids
        return sorted(action_to_id(a) for a in gs.legal_actions() if encodable(a))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(b, 1.0 / 256) for b in range(256)]

    def _apply_action(self, action: int) -> None:
        if self.game_state is None:
            if not 0 <= action < 256:
                raise ValueError(f"a deal byte is 0..255, not {action}")
            self.deal_bytes.append(int(action))
            if len(self.deal_bytes) == DEAL_STEPS:
                seed = int.from_bytes(bytes(self.deal_bytes), "big")
                self.game_state = GameState.new(self.num_seats, seed, game=self.game_id)
                self.seen = Seen.start(self.game_state)
            return
        gs = self.game_state
        if self.compact:
            d: CompactDecision = self.cached("decision", gs.to_move or 0)
            chosen = d.choose(int(action))
            self.cache.items.clear()
            if chosen is None:
                self.half = int(action)
                return
            self.half = None
            a = chosen
        else:
            self.cache.items.clear()
            a = id_to_action(int(action))
        if gs.decision == "mulligan":
            self.mulligans[gs.stack[-1].player] = a.kind
        gs.apply(a)
        assert self.seen is not None
        self.seen.update(gs)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal byte {action}"
        if self.compact:
            half = half_of(int(action))
            if half is not None:
                return f"half {half[0]} {half[1]}"
            if self.half is not None:
                return f"host {int(action) - HOST_START + 1}"
            return str(join([int(action)]))
        return str(id_to_action(int(action)))

    def is_terminal(self) -> bool:
        return self.game_state is not None and self.game_state.over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.num_seats
        assert self.game_state is not None
        return final_rewards(self.game_state, "win")

    def __str__(self) -> str:
        gs = self.game_state
        if gs is None:
            return f"dealing ({len(self.deal_bytes)}/{DEAL_STEPS} bytes)"
        who = "" if gs.to_move is None else f" for player {gs.to_move + 1}"
        return (f"turn {gs.turn}, {gs.decision or 'over'}{who}; deck {len(gs.deck)}; "
                f"history {' / '.join(str(a) for a in gs.history[-3:])}")

    # ------------------------------------------------------------ information

    def memory(self, player: int) -> dict[int, tuple[str | int, ...]]:
        """What ``player`` remembers of the cards it saw (:mod:`forest_shuffle.rl.memory`)."""
        if self.game_state is None:
            return {}
        return dict(self.cached("memory", player))

    def observation_array(self, player: int) -> npt.NDArray[np.float32]:
        """The observation tensor as a new float32 numpy array: what
        ``observation_tensor(player)`` holds, without the Python list pyspiel makes of it."""
        if self.game_state is None:
            return np.zeros(self.obs_size, np.float32)
        out: npt.NDArray[np.float32] = self.cached("array", player).copy()
        return out

    def information_state_array(self, player: int) -> npt.NDArray[np.float32]:
        """The information state tensor as a new float32 numpy array (the view and the
        memory), without the Python list ``information_state_tensor(player)`` makes."""
        size = self.obs_size
        out = np.zeros(size + MEMORY_SIZE, np.float32)
        if self.game_state is not None:
            out[:size] = self.cached("array", player)
            encode_memory(self.cached("memory", player), player, self.num_seats, out[size:])
        return out

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell from this one, drawn with ``probability_sampler``
        (a callable giving floats in [0, 1))."""
        gs = self.game_state
        if gs is None or gs.over:
            return self.clone()
        seed = int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32)
        sample = resample(gs, player_id, self.memory(player_id), random.Random(seed),
                          self.mulligans)
        out = self.clone()
        out.game_state = sample
        if out.half is not None and out.half not in CompactDecision(sample.legal_actions()).ids():
            out.half = None  # the sample's mover lacks that card: its half play not begun
        # Others' memories in the sample: only what every player saw (nothing private).
        assert self.seen is not None
        common = set.intersection(*self.seen.cards)
        now = visible_all(sample)
        cards = []
        for q in range(self.num_seats):
            if q == player_id:
                cards.append(set(self.seen.cards[q]))
            else:
                cards.append(common | now[q])
        # What each seat saw last in a known hand came from public play: kept for all.
        out.seen = Seen(cards, [dict(h) for h in self.seen.held])
        return out


class Observer:
    """OpenSpiel's observer: ``tensor`` (float32) and ``dict`` (named views of it)."""

    def __init__(self, iig_obs_type: Any, obs_size: int = OBS_SIZE) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private cards is not offered")
        if not iig_obs_type.public_info:
            raise ValueError("an observer without the public information is not offered")
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if obs_size != OBS_SIZE and not self.private:
            raise ValueError("a public observer is not offered with the compact encodings")
        self.obs_size = obs_size
        self.tensor = np.zeros(obs_size + (MEMORY_SIZE if self.recall else 0), np.float32)
        self.dict = (fields(self.tensor[:OBS_SIZE]) if obs_size == OBS_SIZE
                     else {"compact": self.tensor[:obs_size]})
        if self.recall:
            at = obs_size
            for name, shape in MEMORY_FIELDS:
                size = int(np.prod(shape))
                self.dict[name] = self.tensor[at:at + size].reshape(shape)
                at += size
        assert obs_size != OBS_SIZE or list(self.dict)[:len(FIELDS)] == [n for n, _ in FIELDS]

    def set_from(self, state: ForestShuffleState, player: int) -> None:
        if state.game_state is None:
            self.tensor.fill(0.0)
            return
        size = self.obs_size
        self.tensor[:size] = state.cached("array" if self.private else "spectator array",
                                          player)
        if self.recall:
            memory = state.cached("memory", player) if self.private else {}
            encode_memory(memory, player, state.num_seats, self.tensor[size:])

    def string_from(self, state: ForestShuffleState, player: int) -> str:
        if state.game_state is None:
            return f"dealing {len(state.deal_bytes)}/{DEAL_STEPS}"
        text: str = state.cached("text" if self.private else "spectator text", player)
        if state.half is not None and player == state.current_player():
            text += f" | chosen: {state._action_to_string(player, state.half)}"
        if self.recall:
            memory = state.cached("memory", player) if self.private else {}
            text += " | remembered: " + memory_text(memory)
        return text


pyspiel.register_game(GAME_TYPE, ForestShuffleGame)
