"""Forest Shuffle as a PettingZoo AEC environment (the ``rl`` extra).

Contract:

- :func:`env` returns the environment wrapped as PettingZoo's classic games are
  (illegal action ends the game with reward -1 for the offender, out-of-bounds actions
  asserted, call order enforced); :class:`raw_env` is the bare class.
- Agents ``player_0`` .. ``player_{n-1}`` are the seats; seat 0 plays first. The engine
  state is ``env.unwrapped.game_state``; observations, masks and the agent to move are
  computed from it when asked, so a state put there after ``reset`` is what the env shows.
- ``observe(agent)`` is ``{"observation": float32[OBS_SIZE], "action_mask":
  int8[NUM_ACTIONS]}`` (:mod:`forest_shuffle.rl.observation`, :mod:`forest_shuffle.rl.actions`),
  built from that agent's own view only; an agent not to move gets an all-zero mask.
- ``step(i)`` applies exactly the action with id ``i`` (no move is ever made
  automatically, a forced one included). Rewards are 0 until the game ends, then
  ``reward="win"`` (default): 1 for every player with the top total (ties share), 0 for
  the others; ``reward="margin"``: the own total minus the best other total;
  ``reward="score"``: after every step, each agent's change of its own total as the
  scorer counts the table then (a game's rewards add up to the final totals).
- ``reset(seed=s)`` deals from a generator seeded with ``s`` (``random.Random``; each reset
  draws the next deal seed from it), so the same seed gives the same games;
  ``seed=None`` keeps the generator (seeded by the constructor's ``seed``, or from the
  operating system when that is None too).
- ``render()`` with ``render_mode="ansi"`` returns the view of the agent to move in words
  (:mod:`forest_shuffle.text.narration`); with ``"human"`` it writes them to standard output
  and returns None.
- ``compact=True``: the compact encodings instead (:mod:`forest_shuffle.rl.compact`,
  :mod:`forest_shuffle.rl.compact_obs`): ``observation`` float32[the game's compact size],
  ``action_mask`` int8[NUM_COMPACT], ``Discrete(NUM_COMPACT)``. A half play takes two steps
  of the same agent (the half, then its host; the observation shows the chosen half, and
  no reward comes between). :func:`env` then wraps it in PettingZoo's order check only:
  the raw environment itself ends the game on an illegal id (-1 for the offender, as the
  wrapper would) and asserts the id's bounds (``end_on_illegal``; each wrapper costs every
  step). ``raw_env(compact=True)`` alone raises ActionEncodingError for an illegal id.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from forest_shuffle.cards.model import SIDES
from forest_shuffle.engine.game import canonical_id, game_by_id
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.rl.actions import NUM_ACTIONS, id_to_action
from forest_shuffle.rl.compact import NUM_COMPACT, CompactDecision, half_of
from forest_shuffle.rl.compact_obs import Encoder, layout
from forest_shuffle.rl.observation import OBS_SIZE, action_mask, encode
from forest_shuffle.rl.rewards import REWARDS, final_rewards
from forest_shuffle.text import narration


def view_words(view: PlayerView) -> str:
    """A player's view in plain words, several lines (the ``ansi`` rendering)."""
    me = view.player
    lines = [f"Turn {view.turn}, player {me + 1} of {view.num_players}; deck "
             f"{view.deck_size}, winter {len(view.winter)}/{view.game.winter_to_end}."]
    cat = view.game.catalog
    lines.append("Hand: " + (", ".join(f"{narration.label(c, cat)} ({c})" for c in view.hand)
                             or "empty"))
    lines.append("Clearing: " + (", ".join(f"{narration.label(c, cat)} ({c})"
                                           for c in view.clearing) or "empty"))
    for seat, forest in enumerate(view.forests):
        who = "Your forest" if seat == me else f"Forest of player {seat + 1}"
        trees = []
        for t, host in enumerate(forest.trees):
            parts = [f"{side} {d.species.printed}" for side in SIDES for d in host.slots[side]]
            extra = f" [{', '.join(parts)}]" if parts else ""
            trees.append(f"{narration.tree_name(forest, t)}{extra}")
        lines.append(f"{who} (hand {view.hand_sizes[seat]}, cave {view.cave_sizes[seat]}): "
                     + ("; ".join(trees) or "no trees"))
    if view.over:
        lines.append("The game is over.")
    elif view.legal_actions:
        lines.append(narration.ask_words(view))
        lines.extend(f"  {narration.action_words(a, view)}" for a in view.legal_actions)
    else:
        lines.append(f"Player {(view.pending.player if view.pending else view.current) + 1}"
                     " is deciding.")
    return "\n".join(lines)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801  (PettingZoo's name)
    """The bare AEC environment (see the module contract)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "forest_shuffle_v0",
                "is_parallelizable": False}

    def __init__(self, num_players: int = 2, game: str = "base", seed: int | None = None,
                 render_mode: str | None = None, reward: str = "win",
                 compact: bool = False, end_on_illegal: bool = False) -> None:
        super().__init__()
        gid = canonical_id(game)
        if num_players not in game_by_id(gid).players:
            raise ValueError(f"{gid} is for {game_by_id(gid).players} players, "
                             f"not {num_players}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")
        if reward not in (*REWARDS, "score"):
            raise ValueError(f"reward is one of {(*REWARDS, 'score')}, not {reward!r}")
        self.num_players = num_players
        self.game_id = gid
        self.render_mode = render_mode
        self.reward = reward
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        self.compact = compact
        self._encoder = Encoder(game_by_id(gid))
        size = layout(game_by_id(gid)).size if compact else OBS_SIZE
        n_ids = NUM_COMPACT if compact else NUM_ACTIONS
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, np.inf, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (n_ids,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(n_ids)
                              for a in self.possible_agents}
        self._decision: tuple[list[Any], CompactDecision] | None = None
        self.end_on_illegal = end_on_illegal
        self._ended = False
        self._totals: list[int] = []
        self._rng = random.Random(seed)
        self._selection = self.possible_agents[0]
        self.game_state = self._deal()
        self._start()

    # ------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def agent_selection(self) -> str:
        """The seat to move in ``game_state``; once the game is over, the agent PettingZoo's
        bookkeeping of finished agents points at."""
        seat = self.game_state.to_move
        if (seat is None or self._ended or not self.agents
                or any(self.terminations.values())):  # ended by a wrapper
            return self._selection
        return self.possible_agents[seat]

    @agent_selection.setter
    def agent_selection(self, agent: str) -> None:
        self._selection = agent

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = self._deal()
        self._start()

    def decision(self) -> CompactDecision:
        """The compact decision at ``game_state`` (kept while its legal list stays, so a
        chosen half is remembered until its host is chosen)."""
        legal = self.game_state.legal_actions()
        held = self._decision
        if held is None or held[0] is not legal:
            held = self._decision = (legal, CompactDecision(legal))
        return held[1]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seats[agent]
        state = self.game_state
        if self.compact:
            mine = state.to_move == seat
            d = self.decision() if mine else None
            chosen = half_of(d.half) if d is not None and d.half is not None else None
            return {"observation": self._encoder.state(state, seat, chosen),
                    "action_mask": d.mask() if d is not None
                    else np.zeros(NUM_COMPACT, np.int8)}
        view = state.view(seat)
        mask = (action_mask(state.legal_actions()) if state.to_move == seat
                else np.zeros(NUM_ACTIONS, np.int8))
        return {"observation": encode(view), "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose an action (None only once it is done)")
        if self.compact:
            d = self.decision()
            i = int(action)
            if self.end_on_illegal:
                assert 0 <= i < NUM_COMPACT, f"action {i} is outside 0..{NUM_COMPACT - 1}"
                if not d.mask_has(i):
                    self._end_illegally(agent)
                    return
            chosen = d.choose(i)
            if chosen is None:  # a half: its host is the same agent's next step
                self._cumulative_rewards[agent] = 0
                self._clear_rewards()
                self._accumulate_rewards()
                return
            self.game_state.apply_legal(chosen)  # taken from the legal list
        else:
            self.game_state.apply(id_to_action(int(action)))
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        if self.reward == "score":
            totals = self.game_state.scores()
            for a, now, before in zip(self.agents, totals, self._totals, strict=True):
                self.rewards[a] = float(now - before)
            self._totals = totals
        if self.game_state.over:
            if self.reward != "score":
                for a, r in zip(self.agents, final_rewards(self.game_state, self.reward),
                                strict=True):
                    self.rewards[a] = r
            for a in self.agents:
                self.terminations[a] = True
            self._selection = agent
            self._ended = True
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi')")
            return None
        state = self.game_state
        seat = state.to_move
        text = view_words(state.view(seat if seat is not None else 0))
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass

    # ------------------------------------------------------------ internals

    def _deal(self) -> GameState:
        return GameState.new(self.num_players, self._rng.getrandbits(64), game=self.game_id)

    def _start(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selection = self.possible_agents[0]
        self._ended = False
        self._totals = self.game_state.scores() if self.reward == "score" else []

    def _end_illegally(self, agent: str) -> None:
        """What PettingZoo's TerminateIllegalWrapper does: the game ends, -1 for ``agent``."""
        gymnasium.logger.warn("Illegal move made, game terminating with current player "
                              "losing.")
        self._ended = True
        self._selection = agent
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = -1.0
        self._accumulate_rewards()
        self._deads_step_first()


class _Ordered(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order check with the hot attributes read from the environment
    directly (its generic ``__getattr__`` costs every ``last()`` and iteration several
    lookups); the same errors before ``reset``."""

    def _check(self, name: str) -> None:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._check("agent_selection")
        out: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return out

    @property
    def agent_selection(self) -> str:
        self._check("agent_selection")
        agent: str = self.env.agent_selection
        return agent

    @property
    def agents(self) -> list[str]:
        self._check("agents")
        agents: list[str] = self.env.agents
        return agents


def env(num_players: int = 2, game: str = "base", seed: int | None = None,
        render_mode: str | None = None, reward: str = "win",
        compact: bool = False) -> AECEnv[str, dict[str, Any], int]:
    """The environment wrapped as PettingZoo's classic games are (see the module contract;
    compact, the raw environment ends the game on an illegal id and checks bounds itself, and
    only the order is enforced by a wrapper: each wrapper costs every step)."""
    if compact:
        return _Ordered(
            raw_env(num_players, game, seed, render_mode, reward, True, end_on_illegal=True))
    e: AECEnv[str, dict[str, Any], int] = raw_env(num_players, game, seed, render_mode,
                                                  reward)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
