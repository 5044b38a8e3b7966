"""Forest Shuffle: Dartmoor alone against the automa Anna, one definition per challenge.

Contract:

- :func:`solo_data` reads and checks ``cards/data/dartmoor/solo.json`` once (Anna's 20
  automa cards, the 15 challenges with their goals and medal thresholds, the setup numbers,
  the provisional readings); a broken file raises :class:`SoloDataError` naming the entry.
- :func:`solo_game` (n) is the definition ``dartmoor-solo-N`` of challenge n: Dartmoor's
  catalog and scorer (one forest: the solo scoring of the Godwit and the Pony), 1 player,
  45 cards boxed, one winter card that ends the game, and the state class
  :class:`DartmoorSoloState`. The 15 ids are registered unlisted (``game_ids()`` keeps to
  the games of the lobby; ``game_ids(unlisted=True)`` has them); :func:`solo_id` names one.
- :class:`DartmoorSoloState` is a :class:`~forest_shuffle.games.dartmoor_state.DartmoorState`
  whose setup takes cave 3 (resolved before play), puts the one winter card among the
  bottom cards of the deck, shuffles Anna's automa deck from the deal's shuffler, and gives
  challenge 7's Adder; after each of the player's turns (with its extra turns) Anna plays
  the top automa card by herself (no decision): add deck cards at the clearing's right
  end, remove clearing cards from one end, burn deck cards; an empty automa deck is shuffled
  again from the state's seed. The challenge and Anna's deck are saved, cloned and checked;
  a view shows how many automa cards are left and those shown since the last shuffle,
  never their order.
- :func:`solo_result` is the result: the goal's progress, met or not, the score and the
  best medal reached (goal met and the medal's threshold reached).

Pure: no I/O beyond reading the package's data file, no global random state.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, NamedTuple

from forest_shuffle.cards.forest import Forest
from forest_shuffle.cards.model import SIDES, Catalog, load_catalog
from forest_shuffle.engine.game import GameDef, make_def, register
from forest_shuffle.engine.setup import KEYED, derive, shuffler
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.games.dartmoor import OPTIONS, PAD_LINES
from forest_shuffle.games.dartmoor_state import DECISIONS, DartmoorState, count_with

SOLO_FORMAT = "forest-shuffle dartmoor solo 1"
#: The medals, lowest first.
MEDALS: tuple[str, ...] = ("bronze", "silver", "gold")
#: The goal kinds a challenge may name (docs/dartmoor.md, "Solo mode").
GOAL_KINDS: frozenset[str] = frozenset({
    "count_tag", "distinct_species", "distinct_hosts", "card_points", "cave_cards",
    "tag_on_every_host"})
SOLO_PREFIX = "dartmoor-solo-"


class SoloDataError(ValueError):
    """solo.json is broken; the message names the entry."""


@dataclass(frozen=True, slots=True)
class AutomaCard:
    """One of Anna's cards: ``add`` deck cards to the clearing's right end, ``remove``
    clearing cards from its ``side`` end (``left``/``right``, "" if none), ``burn`` deck
    cards. ``number`` is 1-based, in the data's order."""

    number: int
    add: int
    remove: int
    side: str
    burn: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """A solo challenge: its goal (a kind of :data:`GOAL_KINDS` with its parameters), the
    score each medal needs, and a species whose card starts in the hand ("" if none)."""

    number: int
    title: str
    goal: Mapping[str, Any]
    thresholds: Mapping[str, int]
    start_in_hand: str


@dataclass(frozen=True, slots=True)
class SoloData:
    """The whole of solo.json, checked."""

    automa: tuple[AutomaCard, ...]
    challenges: tuple[Challenge, ...]
    boxed: int
    winter_cards: int
    winter_into_last: int
    cave: int
    automa_name: str
    provisional: Mapping[str, str]


def _need(ok: bool, problem: str) -> None:
    if not ok:
        raise SoloDataError(f"solo.json: {problem}")


def _int(v: Any, lo: int, hi: int) -> bool:
    return type(v) is int and lo <= v <= hi


def check_solo(doc: Any, catalog: Catalog) -> SoloData:
    """The checked solo data of ``doc`` (solo.json's content) against Dartmoor's catalog;
    SoloDataError naming the first problem."""
    _need(isinstance(doc, dict) and doc.get("format") == SOLO_FORMAT,
          f"expected an object of format {SOLO_FORMAT!r}")
    setup = doc.get("setup")
    _need(isinstance(setup, dict), "setup must be an object")
    _need(setup.get("players") == 1, "setup.players must be 1")
    winters = sum(1 for c in catalog.cards if c is not None and c.is_winter)
    plain = len(catalog.deck_ids) - winters
    _need(_int(setup.get("boxed"), 0, plain - 20), "setup.boxed must be a number of cards")
    _need(_int(setup.get("winter_cards"), 1, winters), f"setup.winter_cards: 1 to {winters}")
    _need(_int(setup.get("winter_into_last"), 0, plain - 20),
          "setup.winter_into_last must be a number of cards")
    _need(_int(setup.get("cave"), 1, len(catalog.caves)),
          f"setup.cave must be a cave number (1 to {len(catalog.caves)})")
    name = setup.get("automa_name")
    _need(isinstance(name, str) and bool(name), "setup.automa_name must be a name")
    automa: list[AutomaCard] = []
    kinds = doc.get("automa")
    _need(isinstance(kinds, list) and bool(kinds), "automa must be a list of cards")
    for i, k in enumerate(kinds):
        where = f"automa[{i}]"
        _need(isinstance(k, dict), f"{where} must be an object")
        extra = set(k) - {"copies", "add", "remove", "from", "burn"}
        _need(not extra, f"{where}: unknown field {sorted(extra)[0] if extra else ''!r}")
        _need(_int(k.get("copies"), 1, 20), f"{where}.copies must be 1 to 20")
        add, remove, burn = k.get("add", 0), k.get("remove", 0), k.get("burn", 0)
        _need(_int(add, 0, 3) and _int(remove, 0, 3) and _int(burn, 0, 2),
              f"{where}: add and remove are 0 to 3, burn 0 to 2")
        _need(add + remove + burn > 0, f"{where} does nothing")
        side = k.get("from", "")
        _need(side in ("left", "right") if remove else side == "",
              f"{where}: 'from' (left or right) goes with remove, and only with it")
        for _ in range(k["copies"]):
            automa.append(AutomaCard(len(automa) + 1, add, remove, side, burn))
    _need(len(automa) == 20, f"Anna has {len(automa)} automa cards, not 20")
    challenges: list[Challenge] = []
    items = doc.get("challenges")
    _need(isinstance(items, list) and bool(items), "challenges must be a list")
    tags = {t for sp in catalog.species.values() for t in sp.tags}
    for i, c in enumerate(items):
        where = f"challenges[{i}]"
        _need(isinstance(c, dict), f"{where} must be an object")
        _need(c.get("number") == i + 1, f"{where}.number must be {i + 1}")
        title = c.get("title")
        _need(isinstance(title, str) and bool(title), f"{where}.title must be words")
        goal = c.get("goal")
        _need(isinstance(goal, dict) and goal.get("kind") in GOAL_KINDS,
              f"{where}.goal.kind must be one of {', '.join(sorted(GOAL_KINDS))}")
        _need(_int(goal.get("min"), 1, 500), f"{where}.goal.min must be a positive number")
        kind = goal["kind"]
        allowed = {"kind", "min"}
        if kind in ("count_tag", "distinct_species", "tag_on_every_host"):
            _need(goal.get("tag") in tags, f"{where}.goal.tag {goal.get('tag')!r} is no tag")
            allowed.add("tag")
        if kind == "card_points":
            sp = goal.get("species")
            _need((sp in catalog.species) != (goal.get("host") == "moor"),
                  f"{where}.goal: card_points names a species or host 'moor'")
            allowed |= {"species", "host"}
        extra = set(goal) - allowed
        _need(not extra, f"{where}.goal: unknown field {sorted(extra)[0] if extra else ''!r}")
        marks = [c.get(m) for m in MEDALS]
        _need(all(_int(v, 0, 1000) for v in marks) and marks == sorted(set(marks), key=int),
              f"{where}: bronze < silver < gold, whole numbers of points")
        start = c.get("start_in_hand", "")
        _need(start == "" or start in catalog.species, f"{where}.start_in_hand: no species "
              f"{start!r}")
        challenges.append(Challenge(i + 1, title, dict(goal), dict(zip(MEDALS, marks,
                                                                       strict=True)), start))
    prov = doc.get("provisional", {})
    _need(isinstance(prov, dict) and all(isinstance(v, str) for v in prov.values()),
          "provisional must map names to words")
    return SoloData(tuple(automa), tuple(challenges), setup["boxed"], setup["winter_cards"],
                    setup["winter_into_last"], setup["cave"], name, dict(prov))


@functools.cache
def solo_data() -> SoloData:
    """solo.json, read and checked once."""
    pkg = resources.files("forest_shuffle.cards") / "data" / "dartmoor"
    try:
        doc = json.loads((pkg / "solo.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SoloDataError(f"solo.json: cannot read it ({exc})") from None
    return check_solo(doc, load_catalog(("dartmoor",)))


def challenge_of(number: int) -> Challenge:
    """Challenge ``number``; ValueError (one line) if there is none."""
    ch = solo_data().challenges
    if not (type(number) is int and 1 <= number <= len(ch)):
        raise ValueError(f"no solo challenge {number!r} (the challenges are 1 to {len(ch)})")
    return ch[number - 1]


def solo_id(number: int) -> str:
    """The game id of challenge ``number`` (``dartmoor-solo-7``); ValueError if none."""
    return f"{SOLO_PREFIX}{challenge_of(number).number}"


# ------------------------------------------------------------------------ goals, result

def goal_progress(game: GameDef, forest: Forest, goal: Mapping[str, Any]) -> int:
    """How far ``forest`` is towards ``goal`` (compare with ``goal["min"]``)."""
    kind = goal["kind"]
    if kind == "count_tag":
        return count_with(forest, goal["tag"])
    if kind == "distinct_species":
        tag = goal["tag"]
        names = {d.species.name for t in forest.trees for s in SIDES for d in t.slots[s]
                 if tag in d.species.tags}
        names |= {t.species.name for t in forest.trees
                  if t.species is not None and tag in t.species.tags}
        return len(names)
    if kind == "distinct_hosts":
        return len({t.species.name for t in forest.trees if t.species is not None})
    if kind == "cave_cards":
        return forest.cave
    if kind == "tag_on_every_host":
        tag = goal["tag"]
        if not forest.trees:
            return 0
        return min(sum(1 for s in SIDES for d in t.slots[s] if tag in d.species.tags)
                   for t in forest.trees)
    if kind == "card_points":
        fs = game.score_table([forest])[0]
        if goal.get("host") == "moor":
            moors = [cp.points for cp in fs.cards
                     if cp.where.startswith("moor ") and cp.where.count(" ") == 1]
            return max(moors, default=0)
        return max((cp.points for cp in fs.cards if cp.species == goal["species"]), default=0)
    raise ValueError(f"unknown goal kind {kind!r}")  # pragma: no cover - checked at load


@dataclass(frozen=True, slots=True)
class SoloResult:
    """A solo game's result (or progress): the challenge, the goal's progress ``have`` of
    ``need``, whether it is met, the score and the best medal reached ("" for none)."""

    challenge: int
    title: str
    have: int
    need: int
    score: int
    medal: str
    thresholds: Mapping[str, int]

    @property
    def goal_met(self) -> bool:
        return self.have >= self.need

    def reached(self, medal: str) -> bool:
        """Is ``medal`` (or a better one) won?"""
        return bool(self.medal) and MEDALS.index(self.medal) >= MEDALS.index(medal)


def result_of(game: GameDef, forest: Forest, challenge: int) -> SoloResult:
    """The result of challenge ``challenge`` for ``forest`` scored by ``game``'s scorer."""
    ch = challenge_of(challenge)
    have = goal_progress(game, forest, ch.goal)
    need = int(ch.goal["min"])
    score = game.totals([forest])[0]
    return SoloResult(ch.number, ch.title, have, need, score,
                      medal_for(score, have >= need, ch.thresholds), ch.thresholds)


def medal_for(score: int, goal_met: bool, thresholds: Mapping[str, int]) -> str:
    """The best medal whose threshold ``score`` reaches, if the goal is met ("" if none)."""
    medal = ""
    if goal_met:
        for m in MEDALS:
            if score >= thresholds[m]:
                medal = m
    return medal


def solo_result(state: DartmoorSoloState) -> SoloResult:
    """The result of a solo game (its progress while it goes on)."""
    return result_of(state.game, state.forests[0], state.challenge)


# ------------------------------------------------------------------------ Anna, step by step

class TableStep(NamedTuple):
    """One step of the solo game on a physical table, as data (the words are a face's):
    ``kind`` names it, ``cards`` its number of cards, ``side`` the clearing's end ("" if
    none), ``name`` a species or a cave's text ("" if none), ``deck`` whether it turns
    deck cards (so the winter card may come up)."""

    kind: str
    cards: int = 0
    side: str = ""
    name: str = ""
    deck: bool = False


#: The order of an automa card's steps (solo.json's provisional "order").
STEP_ORDER: tuple[str, ...] = ("add", "remove", "burn")
#: The clearing's end where Anna adds cards: the newest card's (provisional "ends").
ADD_END = "right"


def anna_steps(card: AutomaCard) -> tuple[TableStep, ...]:
    """What Anna does with ``card``, in order (:data:`STEP_ORDER`): ``add`` deck cards to
    the clearing's :data:`ADD_END`, ``remove`` clearing cards from the card's end to the
    discard pile, ``burn`` deck cards face down into the box; steps of no card left out.
    The one copy of her turn: :meth:`DartmoorSoloState._anna_turn` does these steps."""
    steps = {"add": TableStep("add", card.add, ADD_END, deck=True),
             "remove": TableStep("remove", card.remove, card.side),
             "burn": TableStep("burn", card.burn, deck=True)}
    return tuple(steps[k] for k in STEP_ORDER if steps[k].cards)


def anna_turn_steps(game: GameDef, card: AutomaCard) -> tuple[TableStep, ...]:
    """Anna's whole turn on a table: :func:`anna_steps`, then the clearing check (a
    ``clearing`` step: ``cards`` the clearing's limit, the check of ``_between_turns``)."""
    return (*anna_steps(card), TableStep("clearing", game.clearing_limit))


def setup_steps(number: int) -> tuple[TableStep, ...]:
    """The setup of challenge ``number`` on a physical table, in the engine's order
    (:meth:`DartmoorSoloState._after_deal` after the base deal): ``winter_aside``
    (``cards`` winter cards back to the box, ``name`` how many kept, as digits),
    ``box`` (cards boxed unseen), ``deal`` (the opening hand), ``start_card`` (challenge 7's
    species), ``winter_bottom`` (``cards``: the bottom cards the kept winter card is
    shuffled into), ``cave`` (the cave's number in ``cards``, its text in ``name``),
    ``start`` (the player begins); ValueError for no such challenge."""
    ch = challenge_of(number)
    data = solo_data()
    g = solo_game(ch.number)
    winters = sum(1 for c in g.cards if c is not None and c.is_winter)
    cave = next(c for c in g.catalog.caves if c.number == data.cave)
    steps = [TableStep("winter_aside", winters - data.winter_cards, name=str(data.winter_cards)),
             TableStep("box", data.boxed),
             TableStep("deal", g.opening_hand)]
    if ch.start_in_hand:
        steps.append(TableStep("start_card", 1, name=ch.start_in_hand))
    steps += [TableStep("winter_bottom", data.winter_into_last),
              TableStep("cave", data.cave, name=cave.text),
              TableStep("start")]
    return tuple(steps)


def automa_deck(seed: int, number: int) -> list[int]:
    """Anna's automa deck (indices into ``solo_data().automa``, the top card last) as a
    new game of challenge ``number`` dealt from ``seed`` holds it: the engine's own deal."""
    from forest_shuffle.engine.state import GameState

    state = GameState.new(1, seed, game=solo_id(number))
    assert isinstance(state, DartmoorSoloState)
    return state.automa[:]


def reshuffled_automa(seed: int, cycle: int, shown: list[int]) -> list[int]:
    """Anna's new automa deck when hers ran out for the ``cycle``-th time: the cards
    ``shown`` shuffled with ``derive(seed, "anna CYCLE")`` (top last)."""
    pile = sorted(shown)
    shuffler(derive(seed, f"anna {cycle}"), KEYED).shuffle(pile)
    return pile


# ------------------------------------------------------------------------ the state

class AnnaTurn(NamedTuple):
    """What Anna did in one turn: her automa card (index into ``solo_data().automa``), the
    cards she added to the clearing and removed from it (in clearing order), the end she
    removed from, how many deck cards she burnt, and whether the clearing was then full
    and went to the discard pile."""

    automa: int
    added: tuple[int, ...]
    removed: tuple[int, ...]
    side: str
    burnt: int
    cleared: bool

    def to_dict(self) -> dict[str, Any]:
        return {"automa": self.automa, "added": list(self.added),
                "removed": list(self.removed), "side": self.side, "burnt": self.burnt,
                "cleared": self.cleared}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> AnnaTurn:
        return AnnaTurn(int(d["automa"]), tuple(d["added"]), tuple(d["removed"]),
                        str(d["side"]), int(d["burnt"]), bool(d["cleared"]))


class DartmoorSoloState(DartmoorState):
    """A solo game of Dartmoor against Anna (see the module contract)."""

    __slots__ = ("challenge", "automa", "automa_shown", "cycles", "anna_turns", "anna_last",
                 "aside")

    challenge: int  # the challenge number (the definition's)
    automa: list[int]  # Anna's undrawn automa cards (indices), the top one last: secret
    automa_shown: list[int]  # those revealed since the last shuffle, in order: public
    cycles: int  # how many times the automa deck was shuffled again
    anna_turns: int
    anna_last: AnnaTurn | None
    aside: list[int]  # the winter cards not used in a solo game (out of the game)

    # ------------------------------------------------------------ setup

    def _after_deal(self, rng: Any) -> None:
        """Cave 3, the challenge's start card, the winter card among the bottom cards,
        Anna's deck; then cave 3's effect and the first turn."""
        g = self.game
        data = solo_data()
        ch = challenge_of(self.challenge)
        if ch.start_in_hand:
            self._give(ch.start_in_hand, rng)
        deck = self.deck
        for w in g.winter_ids:
            deck.remove(w)
            places = list(range(min(data.winter_into_last, len(deck)) + 1))
            rng.shuffle(places)
            deck.insert(places[0], w)  # deck[0] is the bottom card
        self.automa = list(range(len(data.automa)))
        rng.shuffle(self.automa)
        for f in self.forests:
            f.cave_number = data.cave
        self.setup = self.num_players  # no draft: the caves are taken, their effects follow
        self._continue_setup()

    def _give(self, species: str, rng: Any) -> None:
        """One card showing ``species`` at random into the hand: from the deck, else from
        the box (which takes the deck's top card in exchange)."""
        cards = self.game.cards

        def shows(cid: int) -> bool:
            return any(h.species.name == species for h in cards[cid].halves.values())

        for pile in (self.deck, self.box):
            found = sorted(c for c in pile if shows(c))
            if found:
                rng.shuffle(found)
                pile.remove(found[0])
                if pile is self.box:
                    self.box.append(self.deck.pop())
                self.hands[0].append(found[0])
                return

    # ------------------------------------------------------------ Anna

    def _between_turns(self) -> None:
        """Anna's turn after the player's (and its extra turns); a clearing she fills is
        cleared before the player's next turn."""
        self._anna_turn()
        if self.over:
            return
        if len(self.clearing) >= self.game.clearing_limit:
            self._clear_full_clearing()
            assert self.anna_last is not None
            self.anna_last = self.anna_last._replace(cleared=True)

    def _anna_turn(self) -> None:
        """Anna reveals her top automa card and does its steps (:func:`anna_steps`, in
        their order; a winter card ends the game at once)."""
        data = solo_data()
        if not self.automa:
            self.cycles += 1
            self.automa = reshuffled_automa(self.seed, self.cycles, self.automa_shown)
            self.automa_shown = []
        k = self.automa.pop()
        self.automa_shown.append(k)
        card = data.automa[k]
        added: list[int] = []
        removed: list[int] = []
        burnt = 0
        for step in anna_steps(card):
            if self.over:
                break
            if step.kind == "add":
                for _ in range(step.cards):
                    cid = self._draw_from_deck()
                    if cid is None:
                        break
                    self.clearing.append(cid)  # the right end: the newest card's
                    added.append(cid)
            elif step.kind == "remove":
                n = min(step.cards, len(self.clearing))
                if n:
                    cut = n if step.side == "left" else len(self.clearing) - n
                    if step.side == "left":
                        removed, self.clearing[:] = self.clearing[:cut], self.clearing[cut:]
                    else:
                        removed, self.clearing[:] = self.clearing[cut:], self.clearing[:cut]
                    self.discard.extend(removed)
            else:  # burn
                for _ in range(step.cards):
                    cid = self._draw_from_deck()
                    if cid is None:
                        break
                    self.box.append(cid)
                    burnt += 1
        self.anna_turns += 1
        self.anna_last = AnnaTurn(k, tuple(added), tuple(removed), card.side, burnt, False)

    # ------------------------------------------------------------ copies, saves, views

    def _init_more(self, more: dict[str, Any] | None) -> None:
        """Dartmoor's fields, then the challenge, Anna's deck (undrawn and shown), its
        shuffles, her turns and the winter cards set aside (a new game: the definition's
        challenge, no automa card yet, none shown, 0, 0, none, the definition's winter
        cards but the one in play)."""
        super()._init_more(more)
        if more is None:
            self.challenge = int(self.game.options["challenge"])
            self.automa = []
            self.automa_shown = []
            self.cycles = 0
            self.anna_turns = 0
            self.anna_last = None
            self.aside = _aside(self.game)
        else:
            self.challenge = more["challenge"]
            self.automa = more["automa"]
            self.automa_shown = more["automa_shown"]
            self.cycles = more["cycles"]
            self.anna_turns = more["anna_turns"]
            self.anna_last = more["anna_last"]
            self.aside = more["aside"]

    def _more_copy(self) -> dict[str, Any] | None:
        more = super()._more_copy()
        assert more is not None
        more.update(challenge=self.challenge, automa=self.automa[:],
                    automa_shown=self.automa_shown[:], cycles=self.cycles,
                    anna_turns=self.anna_turns, anna_last=self.anna_last,
                    aside=self.aside[:])
        return more

    def locations(self) -> dict[int, str]:
        where = super().locations()
        for c in self.aside:
            where[c] = "aside"
        return where

    def _more_places(self) -> list[tuple[int, str]]:
        return super()._more_places() + [(c, "aside") for c in self.aside]

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["solo"] = {
            "challenge": self.challenge, "automa": self.automa[:],
            "automa_shown": self.automa_shown[:], "cycles": self.cycles,
            "anna_turns": self.anna_turns,
            "anna_last": None if self.anna_last is None else self.anna_last.to_dict(),
            "aside": self.aside[:],
        }
        return d

    def _load_more(self, data: dict[str, Any]) -> None:
        solo = data["solo"]
        last = solo["anna_last"]
        self._init_more({
            "discard": list(data["discard"]), "cave_offer": list(data["cave_offer"]),
            "setup": int(data["setup"]), "challenge": int(solo["challenge"]),
            "automa": list(solo["automa"]), "automa_shown": list(solo["automa_shown"]),
            "cycles": int(solo["cycles"]), "anna_turns": int(solo["anna_turns"]),
            "anna_last": None if last is None else AnnaTurn.from_dict(last),
            "aside": list(solo["aside"])})
        self._load_forests(data)

    @staticmethod
    def _check_save_more(data: Any) -> None:
        """The shape of a solo save's fields; BrokenSaveError naming the field."""
        from forest_shuffle.engine.check import BrokenSaveError

        DartmoorState._check_save_more(data)

        def need(ok: bool, problem: str) -> None:
            if not ok:
                raise BrokenSaveError(f"broken saved game: {problem}")

        def ints(v: Any) -> bool:
            return isinstance(v, list) and all(type(x) is int for x in v)

        solo = data.get("solo")
        need(isinstance(solo, dict), "solo must be an object (the challenge and Anna's deck)")
        for key in ("challenge", "cycles", "anna_turns"):
            need(type(solo.get(key)) is int, f"solo.{key} must be an integer")
        for key in ("automa", "automa_shown", "aside"):
            need(ints(solo.get(key)), f"solo.{key} must be a list of integers")
        last = solo.get("anna_last")
        need(last is None or isinstance(last, dict) and type(last.get("automa")) is int
             and ints(last.get("added")) and ints(last.get("removed"))
             and last.get("side") in ("", "left", "right") and type(last.get("burnt")) is int
             and type(last.get("cleared")) is bool,
             "solo.anna_last must be null or {automa, added, removed, side, burnt, cleared}")

    def _check_more(self) -> None:
        from forest_shuffle.engine.check import BrokenSaveError

        super()._check_more()

        def need(ok: bool, problem: str) -> None:
            if not ok:
                raise BrokenSaveError(f"broken saved game: {problem}")

        data = solo_data()
        g = self.game
        n_auto = len(data.automa)
        need(self.challenge == g.options["challenge"],
             f"solo challenge {self.challenge} in a game of challenge {g.options['challenge']}")
        need(sorted(self.automa + self.automa_shown) == list(range(n_auto)),
             f"Anna's automa cards (deck and shown) must be 0 to {n_auto - 1}, each once")
        need(self.cycles >= 0 and self.anna_turns >= 0, "negative solo counts")
        need(self.anna_turns >= len(self.automa_shown),
             f"{self.anna_turns} turns of Anna for {len(self.automa_shown)} automa cards shown")
        need(sorted(self.aside) == _aside(g), "the winter cards set aside in a solo game")
        need(all(f.cave_number == data.cave for f in self.forests),
             f"a solo player has cave {data.cave}")
        need(self.setup >= self.num_players, "a cave draft in a solo game")
        last = self.anna_last
        need(last is None or 0 <= last.automa < n_auto and last.automa in self.automa_shown,
             "Anna's last automa card is not among those shown")

    def _load_view(self, view: PlayerView) -> None:
        """A sampled world (the search bot): the public solo facts from the view; Anna's
        undrawn cards and the winter card's place drawn from the sample's own shuffled
        cards (uniform given the view)."""
        solo = view.solo
        last = solo["anna_last"]
        rng = random.Random(f"{self.deck} {self.box} {self.hands}")
        shown = list(solo["automa_shown"])
        automa = [k for k in range(len(solo_data().automa)) if k not in shown]
        rng.shuffle(automa)
        self._init_more({
            "discard": list(view.discard), "cave_offer": list(view.cave_offer),
            "setup": view.setup, "challenge": int(solo["challenge"]), "automa": automa,
            "automa_shown": shown, "cycles": int(solo["cycles"]),
            "anna_turns": int(solo["anna_turns"]),
            "anna_last": None if last is None else AnnaTurn.from_dict(last),
            "aside": _aside(self.game)})
        deck = self.deck
        for w in self.game.winter_ids:
            if w in deck:
                deck.remove(w)
                deck.insert(rng.randrange(min(solo_data().winter_into_last, len(deck)) + 1), w)
        self.seed = rng.getrandbits(63)  # later shuffles of Anna's deck in this world

    def _view_more(self) -> dict[str, Any]:
        more = super()._view_more()
        more["solo"] = {
            "challenge": self.challenge, "automa_left": len(self.automa),
            "automa_shown": tuple(self.automa_shown), "cycles": self.cycles,
            "anna_turns": self.anna_turns,
            "anna_last": None if self.anna_last is None else self.anna_last.to_dict(),
        }
        return more


def _aside(game: GameDef) -> list[int]:
    """The winter cards a solo game leaves out."""
    used = set(game.winter_ids)
    return sorted(c.id for c in game.cards if c is not None and c.is_winter and c.id not in used)


def automa_card(k: int) -> AutomaCard:
    """Anna's automa card with index ``k`` (0-based, as the state holds them)."""
    return solo_data().automa[k]


# ------------------------------------------------------------------------ definitions

@functools.cache
def solo_game(number: int) -> GameDef:
    """The definition of solo challenge ``number`` (built once); ValueError if none."""
    ch = challenge_of(number)
    data = solo_data()
    g = make_def(f"{SOLO_PREFIX}{ch.number}",
                 f"Forest Shuffle: Dartmoor solo, challenge {ch.number}",
                 load_catalog(("dartmoor",)), players=(1,),
                 removed_at_setup={1: data.boxed}, hand_limit=10, clearing_limit=10,
                 opening_hand=6, winter_to_end=data.winter_cards, pad_lines=PAD_LINES,
                 options={**OPTIONS, "solo": True, "challenge": ch.number,
                          "automa": data.automa_name,
                          # the score a search bot measures itself against (no rival)
                          "solo_par": ch.thresholds[MEDALS[0]]},
                 scorer="dartmoor", state_class=DartmoorSoloState, decisions=DECISIONS)
    g.winter_ids = g.winter_ids[:data.winter_cards]
    return g


def is_solo(game: GameDef) -> bool:
    """Is ``game`` a solo challenge's definition?"""
    return bool(game.options.get("solo"))


def _challenge_count() -> int:
    """How many challenges solo.json holds (read without checking: registering the ids
    must not load the catalog; :func:`solo_data` checks the file when a game is built)."""
    pkg = resources.files("forest_shuffle.cards") / "data" / "dartmoor"
    try:
        items = json.loads((pkg / "solo.json").read_text(encoding="utf-8"))["challenges"]
    except (OSError, ValueError, KeyError, TypeError):
        return 0
    return len(items) if isinstance(items, list) else 0


for _n in range(1, _challenge_count() + 1):
    register(f"{SOLO_PREFIX}{_n}", functools.partial(solo_game, _n), listed=False)

__all__ = ["ADD_END", "MEDALS", "STEP_ORDER", "AnnaTurn", "AutomaCard", "Challenge",
           "DartmoorSoloState", "SoloData", "SoloDataError", "SoloResult", "TableStep",
           "anna_steps", "anna_turn_steps", "automa_card", "automa_deck", "challenge_of",
           "check_solo", "goal_progress", "is_solo", "medal_for", "reshuffled_automa",
           "result_of", "setup_steps", "solo_data", "solo_game", "solo_id", "solo_result"]
