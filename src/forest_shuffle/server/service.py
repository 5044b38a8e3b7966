"""The game service behind the web server: games and moves (create, load, act, catch up
with other processes, rematches, invites). Its parts, each in a module of its own: the
bots (:mod:`.bot_seats`, their queue :mod:`.bot_queue`), what each viewer is sent
(:mod:`.payloads`); the coach and replays sit beside it (:mod:`.coach`, :mod:`.replays`).

Contract (no HTTP here):

- A game lives in the :class:`~forest_shuffle.server.store.Store` as seed, settings, seats and
  actions; in memory as a :class:`LiveGame` whose published :class:`Snapshot` (state,
  version, log length) is never modified, only replaced. Loading replays seed and actions
  (the engine is deterministic after setup).
- :meth:`GameService.act` checks, in this order: the game exists (404), the token is a
  seat's (403), the action text parses (400), the version is the current one (409), the
  seat is to move (403), the action is legal (400). Under the game's lock the action is
  applied to a copy of the state, **stored (one transaction) before** the copy is published;
  any refusal raises :class:`~.errors.ServiceError` and changes nothing.
- After every change the bots hear of it (:meth:`.bot_seats.BotSeats.schedule`: a bot to
  move decides ``bot_delay`` seconds later), the other processes too (the bus) and then the
  listeners.
- Games in memory are bounded: a finished game leaves memory after ``idle_over`` seconds
  unused, an unfinished one waiting for no bot after ``idle_open``, and beyond
  ``max_games`` the least recently used go; a game that left is loaded again on use.
- The log (:class:`LogEntry`) is only appended to and its entries never change: what a
  client was sent of it stays true (:mod:`.payloads` sends increments).
- Listeners (:attr:`GameService.listeners`) are called with the game id after every change,
  from whatever thread made it.
"""

from __future__ import annotations

import functools
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from forest_shuffle.bots import Bot, make_bot
from forest_shuffle.bots.registry import DIFFICULTIES
from forest_shuffle.cards.forest import Forest
from forest_shuffle.cards.model import Catalog
from forest_shuffle.engine.actions import Action, ActionParseError, IllegalActionError
from forest_shuffle.engine.game import UnknownGameError, game_by_id, game_ids
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.setup import KEYED, derive, new_seed
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PendingView
from forest_shuffle.i18n import DEFAULT, LANGUAGES
from forest_shuffle.server import solo as solo_mode
from forest_shuffle.server.bot_seats import BotSeats
from forest_shuffle.server.errors import ServiceError, Unwritable
from forest_shuffle.server.held import HeldCounts
from forest_shuffle.server.names import NameError_, clean_name, same_name
from forest_shuffle.server.payloads import Payloads
from forest_shuffle.server.pubsub import SEATS_CHANGED, Bus, Leases, LocalBus, LocalLeases
from forest_shuffle.server.store import (
    BrokenRow,
    SeatRow,
    StaleWrite,
    Store,
    StoreClosed,
    StoreUnwritable,
)
from forest_shuffle.text.narration import (
    actor_words,
    brief_words,
    end_words,
    event_words,
    opening_words,
    own_words,
    public_words,
    refusal_words,
    revealed_cards,
    revealed_words,
    server_words,
    turn_words,
)

log = logging.getLogger(__name__)

#: Seeds are stored as SQL BIGINT.
MAX_SEED = 2**63 - 1
#: Human seats may be told apart from bots; levels are the registry's difficulties.
KINDS = ("human", "bot")
DEFAULT_LEVEL = "easy"


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat asked for at creation."""

    kind: str
    name: str | None = None
    level: str | None = None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the game log. ``private``, if set, replaces ``text`` for ``seat`` itself
    (it may name cards only that seat saw, such as the card it drew).

    A game's log is only appended to, and an entry never changes (frozen, its words made
    from the seats' names and the actions alone, so a game loaded again narrates the same
    entries): what a client was sent of it stays true, so clients are sent only the entries
    they miss (:meth:`GameService.payload`'s ``log_from``).

    ``cards`` (``private_cards``) are the card ids the line names and ``words``
    (``private_words``) the line without them; both are read from the narration's words
    before the seats' names are put in (:func:`log_line`), so a name such as
    ``"Ann takes card 57"`` adds no card and loses no word."""

    seat: int | None
    text: str
    private: str | None = None
    turn_of: int | None = None  # a "Turn N: name." line: the seat whose turn begins
    #: The action in short for a summary of the turns a viewer waited through
    #: (:func:`~forest_shuffle.text.narration.brief_words`: public, no card id).
    brief: str | None = None
    cards: tuple[int, ...] = ()
    words: str = ""
    private_cards: tuple[int, ...] = ()
    private_words: str = ""
    #: The line in the other languages (:class:`Said`), for the lines said in every
    #: language (an action, a turn begins, a table event, the end); the others (a solo
    #: game's automa and end) are English for now.
    said: tuple[Said, ...] = ()

    def shown(self, viewer: int, lang: str = "en") -> dict[str, Any]:
        """The line as ``viewer`` (-1: a spectator) sees it, with the cards it names;
        ``words`` is the same line with no card id, for people (the page's log); in
        ``lang`` when the line is said in it (else its English)."""
        for said in self.said:
            if said.lang == lang:
                if said.private is not None and self.seat == viewer:
                    return {"seat": self.seat, "text": said.private,
                            "words": said.private_words, "cards": list(self.private_cards)}
                return {"seat": self.seat, "text": said.text, "words": said.words,
                        "cards": list(self.cards)}
        if self.private and self.seat == viewer:
            return {"seat": self.seat, "text": self.private, "words": self.private_words,
                    "cards": list(self.private_cards)}
        return {"seat": self.seat, "text": self.text, "words": self.words,
                "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class Said:
    """A log line in another language than English: ``text`` with the card ids, ``words``
    without them; ``private`` and ``private_words`` the actor's own copy (None: none)."""

    lang: str
    text: str
    words: str
    private: str | None = None
    private_words: str = ""


#: A line in another language for :func:`log_line`: one text (it names no card), or the
#: four texts of :class:`Said` (text, words, private, private words).
SaidText = str | tuple[str, str, str | None, str]


def _stand_in(seat: int) -> str:
    """What stands for seat ``seat``'s name in the narration's words until their cards are
    read (no name holds a control character: :func:`check_seats`)."""
    return f"\x00{seat}\x00"


_STAND_IN = re.compile("\x00([0-9]+)\x00")


def log_line(seat: int | None, template: str, names: Sequence[str],
             private: str | None = None, turn_of: int | None = None,
             brief: str | None = None,
             said: Mapping[str, SaidText] | None = None) -> LogEntry:
    """A log entry from narration words written with :func:`_stand_in` names: its cards
    and plain words read from those words, then the seats' names put in. ``said``: the
    line in other languages (:data:`SaidText`), written the same way."""
    def fill(text: str) -> str:
        return _STAND_IN.sub(lambda m: names[int(m.group(1))], text)

    def other(lang: str, text: SaidText) -> Said:
        if isinstance(text, str):
            return Said(lang, fill(text), fill(text))
        shown, plain, own, own_plain = text
        return Said(lang, fill(shown), fill(plain), None if own is None else fill(own),
                    fill(own_plain))

    entry = LogEntry(seat, fill(template), None if private is None else fill(private),
                     turn_of, brief, tuple(_named_cards(template)),
                     fill(plain_words(template)),
                     said=tuple(other(lang, text) for lang, text in (said or {}).items()))
    if private is None:
        return entry
    return replace(entry, private_cards=tuple(_named_cards(private)),
                               private_words=fill(plain_words(private)))


# Small: a log line is looked up again only while its game is being served (65536
# lines, about 19 MB, kept lines of games long gone).
@functools.lru_cache(maxsize=2048)
def _named_cards(text: str) -> list[int]:
    """The card ids a log line names (every card in a log line is written ``card N``)."""
    return [int(n) for n in _CARD_WORDS.findall(text)]


_ID_WORDS = (
    (re.compile(r" \(card \d+\)"), ""),  # "Oak (card 3)" -> "Oak"
    (re.compile(r"\((\w+) half of card \d+\)"), r"(\1 half)"),
    (re.compile(r"\bcard \d+ \(([^()]*)\)"), r"\1"),  # "card 77 (Wolf)" -> "Wolf"
    (re.compile(r"\bcard \d+"), "a card"),
)


@functools.lru_cache(maxsize=2048)
def plain_words(text: str) -> str:
    """A log line in words only: every ``card N`` the narration writes beside a card's name
    left out (``"Ada pays with card 77 (Wolf)."`` -> ``"Ada pays with Wolf."``)."""
    for pattern, repl in _ID_WORDS:
        text = pattern.sub(repl, text)
    return text


_CARD_WORDS = re.compile(r"\bcard (\d+)")
#: What a game id may be (ids are 12 hex digits; anything else is no game, never a query).
_GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,32}")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A published state: never modified, replaced by the next one."""

    state: GameState
    version: int
    log_len: int


@dataclass
class LiveGame:
    """A game in memory."""

    id: str
    seed: int  # secret: never in a payload
    deal: str  # the deal scheme of forest_shuffle.engine.setup
    settings: dict[str, Any]
    seats: tuple[SeatRow, ...]
    snap: Snapshot
    log: list[LogEntry]
    rematch: str | None = None
    bots: dict[int, Bot] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    bot_scheduled: int = -1  # the version a bot move was last scheduled for
    cache: dict[tuple[int, int, str], dict[str, Any]] = field(default_factory=dict)
    scores: list[dict[str, Any]] | None = None
    running: tuple[int, list[dict[str, Any]]] | None = None  # (version, running score pad)
    used: float = field(default_factory=time.monotonic)
    evicted: bool = False  # taken out of memory: use GameService.game(id) again
    owner: str | None = None  # the client address that created it (memory only)

    @property
    def hotseat(self) -> bool:
        return bool(self.settings.get("hotseat", False))

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is, or None (a spectator)."""
        if not token or len(token) > 64 or not token.isascii():
            return None  # no token is that (compare_digest refuses non-ASCII text)
        for s in self.seats:
            if s.token is not None and secrets.compare_digest(s.token, token):
                return s.seat
        return None

    def name(self, seat: int) -> str:
        return self.seats[seat].name


def check_decision(game: LiveGame, state: GameState, seat: int,
                   over: str = "the game is over") -> None:
    """Refuse unless ``seat`` is to move in ``state``: 400 with ``over`` when the game is
    over, 403 naming who is to move otherwise."""
    if state.over:
        said = None if over != "the game is over" else _said_over
        raise ServiceError(400, over, said)
    if state.to_move != seat:
        mover = state.to_move
        who = "nobody" if mover is None else game.name(mover)

        def said(lang: str) -> str:
            w = server_words(lang)
            if mover is None:
                return w.gettext("not your decision: nobody is to move")
            return w.gettext("not your decision: {name} is to move", name=who)
        raise ServiceError(403, f"not your decision: {who} is to move", said)


def _said_over(lang: str) -> str:
    """``"the game is over"`` in ``lang``."""
    return server_words(lang).gettext("the game is over")


def settings_problem(settings: dict[str, Any]) -> str | None:
    """What is wrong with a stored game's settings in one line (no such game, bad rule
    switches, a first player that is no seat number), or None."""
    game = settings.get("game", "base")
    if not isinstance(game, str):
        return "its settings name no game"
    try:
        game_by_id(game)
        Rules.from_dict(settings.get("rules", {}))
    except (UnknownGameError, ValueError) as exc:
        return f"its settings: {' '.join(str(exc).split())[:160]}"
    first = settings.get("first_player", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < 5:
        return "its settings' first player is no seat number"
    return None


def default_name(seat: int, kind: str, level: str | None, lang: str = "en") -> str:
    """The name of a seat created without one, in the creator's ``lang``: ``"Player 2"``,
    ``"Bot 3 (easy)"`` (the level is its registry name). A name is kept as created."""
    w = server_words(lang)
    if kind == "human":
        return w.pgettext("seat", "Player {n}", n=seat + 1)
    return w.pgettext("seat", "Bot {n} ({level})", n=seat + 1, level=level)


def check_seats(specs: Sequence[SeatSpec], low: int = 2, high: int = 5,
                lang: str = "en") -> list[SeatSpec]:
    """Normalized seat specifications (``low`` to ``high`` of them: 1 for a solo game), a
    seat without a name named in ``lang`` (:func:`default_name`); ServiceError(400) for a
    bad configuration."""
    if not low <= len(specs) <= high:
        if low == high:
            raise ServiceError(400, f"this game has {low} seat(s), not {len(specs)}")
        raise ServiceError(400, f"a game has {low} to {high} seats, not {len(specs)}")
    out: list[SeatSpec] = []
    for i, s in enumerate(specs):
        if s.kind not in KINDS:
            raise ServiceError(400, f"seat {i + 1}: kind must be human or bot, not {s.kind!r}")
        level = None
        if s.kind == "bot":
            level = s.level or DEFAULT_LEVEL
            if level not in DIFFICULTIES:
                raise ServiceError(400, f"seat {i + 1}: unknown level {level!r} "
                                        f"(one of: {', '.join(DIFFICULTIES)})")
        elif s.level is not None:
            raise ServiceError(400, f"seat {i + 1}: a human seat has no level")
        try:
            name = clean_name(s.name or "", s.kind == "human", DIFFICULTIES)
        except NameError_ as exc:
            raise ServiceError(400, f"seat {i + 1}: {exc}") from None
        out.append(SeatSpec(s.kind, name or default_name(i, s.kind, level, lang), level))
    for i, a in enumerate(out):
        for j in range(i):
            if same_name(a.name or "", out[j].name or ""):
                raise ServiceError(400, f"seats {j + 1} and {i + 1} would both be called "
                                        f"{out[j].name!r}: names are "
                                        "unique at a table")
    return out


def link(game_id: str, token: str | None) -> str:
    """The page address of a seat (its invite link), or the spectator link."""
    return f"/game/{game_id}" + (f"?token={token}" if token else "")


def invite_link(game_id: str, invite: str) -> str:
    """The page address that claims an invited seat (once)."""
    return f"/game/{game_id}?invite={invite}"


# ---------------------------------------------------------------------------- log words


def narrate(before: GameState, after: GameState, seat: int, action: Action,
            names: Sequence[str]) -> list[LogEntry]:
    """The log lines of one applied action, in :mod:`~forest_shuffle.text.narration`'s words:
    what everyone sees, and for the actor what only it saw (the card it drew, the sapling it
    played); then the table events, the end with the winners, or the next turn. The cards
    of each line come from the narration's words alone, never from a name
    (:func:`log_line`)."""
    stand = [_stand_in(i) for i in range(len(names))]
    name = stand[seat]
    vb = before.view(seat)
    cat = after.game.catalog
    public = public_words(action, vb.pending, vb.forests[seat], cat)
    new = [c for c in after.hands[seat] if c not in set(before.hands[seat])]
    private = own_words(action, public, new, cat)
    said = {lang: action_line(action, vb.pending, vb.forests[seat], new, cat, name, lang)
            for lang in OTHERS}
    out = [log_line(seat, f"{name} {public}.", names,
                    None if private is None else f"{name} {private}.",
                    brief=brief_words(action, vb.pending, vb.forests[seat], cat), said=said)]
    # cards that came into the clearing from the deck (the card a tree turns over), not
    # from the actor's hand (its payment, which its own line names)
    mid = solo_mode.before_anna(before, after)  # a solo game: the table before Anna's turn
    revealed = revealed_cards(before.clearing, before.hands[seat], mid.clearing)
    if revealed:
        out.append(log_line(None, revealed_words(revealed, cat), names, said={
            lang: (revealed_words(revealed, cat, lang),
                   revealed_words(revealed, cat, lang, ids=False), None, "")
            for lang in OTHERS}))
    events = {lang: event_words(action, vb.pending, before, mid, after.game.winter_to_end,
                                catalog=cat, lang=lang) for lang in LANGUAGES}
    out.extend(log_line(None, text, names, said={lang: events[lang][i] for lang in OTHERS})
               for i, text in enumerate(events[DEFAULT]))
    out.extend(log_line(None, text, names) for text in solo_mode.anna_lines(before, after))
    if after.over:
        solo_end = solo_mode.end_lines(after)
        if solo_end:
            out.append(log_line(None, " ".join(solo_end), names))
        else:
            scores = after.scores()
            ending = {lang: " ".join(end_words(stand, scores, lang)) for lang in LANGUAGES}
            out.append(log_line(None, ending[DEFAULT], names,
                                said={lang: ending[lang] for lang in OTHERS}))
    elif after.turn != before.turn:
        out.append(turn_line(after, stand, names))
    return out


#: The languages a log line said in every language is kept in besides English.
OTHERS = tuple(lang for lang in LANGUAGES if lang != DEFAULT)


def action_line(action: Action, pend: PendingView | None, forest: Forest,
                new: Sequence[int], cat: Catalog, name: str,
                lang: str) -> tuple[str, str, str | None, str]:
    """An action's log line in ``lang`` (:data:`SaidText`): what everyone sees with and
    without card ids, and the actor's own copy with and without them (None: none)."""
    lines: list[str | None] = []
    for ids in (True, False):
        public = public_words(action, pend, forest, cat, lang, ids)
        lines.append(actor_words(name, public, lang))
        own = own_words(action, public, new, cat, lang, ids)
        lines.append(None if own is None else actor_words(name, own, lang))
    text, private, words, private_words = lines
    assert text is not None and words is not None
    return text, words, private, private_words or ""


def turn_line(state: GameState, stand: Sequence[str], names: Sequence[str]) -> LogEntry:
    """The log line of a turn that begins (``"Turn 4: Ann."``), in every language."""
    said = {lang: turn_words(state.turn, stand[state.current], lang) for lang in LANGUAGES}
    return log_line(None, said[DEFAULT], names, turn_of=state.current,
                    said={lang: said[lang] for lang in OTHERS})


def opening_log(state: GameState, names: Sequence[str]) -> list[LogEntry]:
    """The first log lines of a game."""
    stand = [_stand_in(i) for i in range(len(names))]
    out = [log_line(None, opening_words(stand), names,
                    said={lang: opening_words(stand, lang) for lang in OTHERS})]
    out.extend(log_line(None, text, names) for text in solo_mode.opening_lines(state))
    if state.turn:  # else the opening hands are kept or not first
        out.append(turn_line(state, stand, names))
    return out


# ---------------------------------------------------------------------------- service


class GameService:
    """All games of one server. Thread-safe. See the module docstring for the contract."""

    def __init__(self, store: Store, bot_delay: float = 0.4, bot_workers: int = 4,
                 max_games: int = 1000, bot_processes: int = 0,
                 idle_over: float = 60.0, idle_open: float = 1800.0,
                 bus: Bus | None = None, leases: Leases | None = None,
                 max_bot_games: int = 20, default_game: str = "base",
                 bot_games_per_owner: int | None = None,
                 held_url: str | None = None) -> None:
        self.store = store
        #: The game a creation names none of gets (``serve --game``).
        self.default_game = game_by_id(default_game).id
        #: Unfinished games of bots only (nobody to play them, only to watch) held at once:
        #: they are never taken out of memory and keep the bots' threads busy.
        self.max_bot_games = max(0, max_bot_games)
        #: Of those, at most this many created by one owner (a client address; None: no
        #: bound), so one address cannot take every game of bots and the bots' threads.
        self.bot_games_per_owner = bot_games_per_owner
        #: Those games per owner over every process (``held_url``: a Redis URL, as
        #: ``--pubsub``; None: this process's games only).
        self.bot_games_held = HeldCounts(held_url, "bot_games", self._bot_games_by_owner)
        #: Carries "game G is at version V" to the other server processes (none: alone).
        self.bus: Bus = bus or LocalBus()
        #: Whether other processes share the database (a copy here may be behind it).
        self._shared = not isinstance(self.bus, LocalBus)
        #: How many games stay in memory (more are loaded again on use).
        self.max_games = max(1, max_games)
        #: Seconds unused after which a finished game, or an unfinished one that waits
        #: for no bot, is taken out of memory (it is loaded again on its next use).
        self.idle_over = max(0.0, idle_over)
        self.idle_open = max(0.0, idle_open)
        self._swept = time.monotonic()
        self.listeners: list[Callable[[str], None]] = []
        self._games: dict[str, LiveGame] = {}
        self._load_lock = threading.Lock()
        #: Stored games that cannot be read: the one line each is answered with.
        self._broken: dict[str, str] = {}
        #: The bots of the games: leases, their queue, their moves (:mod:`.bot_seats`).
        self.bots = BotSeats(self, bot_delay, bot_workers, bot_processes,
                             leases or LocalLeases())
        #: What each viewer is sent (:mod:`.payloads`).
        self.payloads = Payloads(self)
        self.bus.start(self._remote)
        self.bots.start()

    def close(self) -> None:
        """Stop the bots, hand back this process's bot leases, release the database."""
        self.bots.close()
        self.bot_games_held.close()
        self.bus.close()
        self.store.close()

    def warm(self) -> None:
        """Start the bots' worker processes now (:meth:`.bot_seats.BotSeats.warm`)."""
        self.bots.warm()

    def __enter__(self) -> GameService:
        return self

    def __exit__(self, *_exc: object) -> None:
        """Leaving a ``with`` block closes the service (:meth:`close`)."""
        self.close()

    def resume(self) -> int:
        """Load every unfinished game that waits for a bot, so bots go on after a restart;
        the number of games resumed. Sharing the database, nothing here: the lease keeper
        takes the games whose bots nobody drives, each in one process only."""
        if self._shared:
            return 0
        ids = self.store.games_waiting_for_bots()
        done = 0
        for gid in ids:
            try:
                self.game(gid)
                done += 1
            except ServiceError:  # cannot be read: named in the log once, others go on
                continue
        return done

    # ------------------------------------------------------------ games

    def create(self, specs: Sequence[SeatSpec], seed: int | None = None,
               hotseat: bool = False, first_player: int = 0,
               game: str | None = None, help: bool = True,
               more: dict[str, Any] | None = None, invites: bool = False,
               owner: str | None = None, lang: str = "en") -> dict[str, Any]:
        """A new game of ``game`` (a game id; the service's default game when None):
        ``{"game_id", "spectate", "seats": [{seat, kind, name, level, token, link}]}``
        (token and link None for bots). ServiceError(400) on bad settings. ``more``: the
        settings of a game the lobby does not list (a solo challenge, server/solo.py); without
        it such a game is refused. ``lang``: the creator's language (the seats it names).
        """
        try:
            gdef = game_by_id(self.default_game if game is None else game)
        except UnknownGameError as exc:
            raise ServiceError(400, str(exc)) from None
        if more is None and gdef.id not in game_ids():  # unlisted: a solo challenge
            raise ServiceError(400, f"{gdef.id} is a solo challenge: create it with "
                                    "POST /api/solo")
        seat_specs = check_seats(specs, min(2, gdef.players[0]), max(gdef.players), lang)
        if len(seat_specs) not in gdef.players:
            raise ServiceError(400, f"{gdef.title} is for {gdef.players[0]} to "
                                    f"{gdef.players[-1]} players, not {len(seat_specs)}")
        if all(s.kind == "bot" for s in seat_specs):
            running = [g for g in list(self._games.values())
                       if not g.snap.state.over and all(r.kind == "bot" for r in g.seats)]
            playing = len(running)
            if playing >= self.max_bot_games:
                raise ServiceError(429, f"{playing} games of bots only are being played "
                                        "here, the most at once; try again later or take a "
                                        "seat yourself")
        chosen = seed is not None
        if seed is None:
            seed = new_seed()  # 128 secret bits: no seat can search for the deal
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ServiceError(400, f"seed must be from 0 to {MAX_SEED}")
        if all(s.kind == "bot" for s in seat_specs) and owner is not None:
            # last of the checks: admitting counts one more for the address over every
            # process at once, so a refusal after it would over-count it until the next
            # renewal (before: the server-wide cap's and the seed's refusals did)
            most = self.bot_games_per_owner
            if not self.bot_games_held.admit(owner, most):
                raise ServiceError(429, f"your address has {most} games of bots only "
                                        "being played, the most at once; watch them end "
                                        "or take a seat yourself")
        humans = [i for i, s in enumerate(seat_specs) if s.kind == "human"]
        # Invite links: the creator (the first person) holds a token, every other person
        # an invite claimed once; hot-seat: one browser holds every token.
        creator = humans[0] if invites and not hotseat and humans else None
        rows = tuple(
            SeatRow(i, s.kind, s.name or "", s.level, None, secrets.token_urlsafe(24))
            if creator is not None and s.kind == "human" and i != creator else
            SeatRow(i, s.kind, s.name or "", s.level,
                    secrets.token_urlsafe(24) if s.kind == "human" else None)
            for i, s in enumerate(seat_specs))
        settings: dict[str, Any] = {"hotseat": bool(hotseat),
                                    "first_player": first_player % len(seat_specs),
                                    "rules": Rules().to_dict(), "game": gdef.id}
        if creator is not None:  # who may re-issue the invites
            settings["creator"] = creator
        if chosen:  # the creator knows every card: every seat is told (payload deal_chosen)
            settings["deal_chosen"] = True
        if not help:  # the seats agreed to play without help: no Suggest (server/coach.py)
            settings["no_help"] = True
        settings.update(more or {})  # a solo game's challenge settings (server/solo.py)
        for _attempt in range(5):  # 48-bit ids: a clash is all but impossible
            game_id = secrets.token_hex(6)
            live = self._build(game_id, seed, KEYED, settings, rows, ())
            try:
                stored = self.store.create_game(game_id, seed, KEYED, settings, list(rows),
                                                self._bot_to_move(live))
            except StoreUnwritable as exc:
                raise Unwritable(f"could not store the new game: {exc}") from None
            if stored:
                break
        else:
            raise ServiceError(500, "could not find a free game id")
        live.owner = owner
        with self._load_lock:
            self._games[game_id] = live
            self._evict()
        self.bots.schedule(live)
        return self._created(live, None)

    def _created(self, game: LiveGame, only: int | None) -> dict[str, Any]:
        """The answer to a creation; with ``only`` set, the other seats' tokens are left out."""
        seats = []
        for s in game.seats:
            token = s.token if only is None or only == s.seat else None
            row = {"seat": s.seat, "kind": s.kind, "name": s.name, "level": s.level,
                   "token": token, "link": link(game.id, token) if token else None}
            if s.invite is not None and only is None:  # an invited seat: its claim link
                row["invite"] = s.invite
                row["link"] = invite_link(game.id, s.invite)
            seats.append(row)
        return {"game_id": game.id, "spectate": link(game.id, None), "hotseat": game.hotseat,
                "seats": seats}

    def _build(self, game_id: str, seed: int, deal: str, settings: dict[str, Any],
               rows: tuple[SeatRow, ...], texts: Sequence[str]) -> LiveGame:
        """A live game from its stored parts, replaying the actions."""
        rules = Rules.from_dict(settings.get("rules", {}))
        # Games stored before game definitions name none: they are base games.
        state = GameState.new(len(rows), seed, rules, int(settings.get("first_player", 0)),
                              deal, game=settings.get("game", "base"))
        names = [r.name for r in rows]
        entries = opening_log(state, names)
        for text in texts:
            seat = state.to_move
            assert seat is not None, f"game {game_id}: action after the end"
            after = state.clone()
            after.apply(Action.parse(text))
            entries.extend(narrate(state, after, seat, Action.parse(text), names))
            state = after
        game = LiveGame(game_id, seed, deal, settings, rows,
                        Snapshot(state, len(texts), len(entries)), entries)
        for r in rows:
            if r.kind == "bot":
                # One-way: watching a bot's choices tells nothing of the deal's seed.
                game.bots[r.seat] = make_bot(r.level or DEFAULT_LEVEL,
                                             derive(seed, f"bot {r.seat}"))
        return game

    def game(self, game_id: str) -> LiveGame:
        """The live game, loaded from the store on first use; ServiceError(404) if none."""
        game = self._games.get(game_id)
        if game is not None:
            game.used = time.monotonic()
            return game
        if not _GAME_ID.fullmatch(game_id):
            raise ServiceError(404, "no such game")
        with self._load_lock:
            game = self._games.get(game_id)
            if game is None:
                if game_id in self._broken:
                    raise ServiceError(500, self._broken[game_id])
                try:
                    row = self.store.load(game_id)
                except BrokenRow as exc:
                    raise self._unreadable(game_id, str(exc), str(exc)) from None
                if row is None:
                    raise ServiceError(404, f"no game {game_id!r}")
                problem = settings_problem(row.settings)
                if problem is not None:
                    line = f"game {game_id}: {problem}"
                    raise self._unreadable(game_id, line, line)
                try:
                    game = self._build(row.id, row.seed, row.deal, row.settings, row.seats,
                                       row.actions)
                except Exception as exc:  # a broken record: any failure of the replay
                    # the details may name hidden cards: the log has them, the client not
                    raise self._unreadable(
                        game_id, f"game {game_id} cannot be replayed: {exc}",
                        f"game {game_id} cannot be replayed; the server's log says "
                        "why") from None
                game.rematch = row.rematch
                self._games[game_id] = game
                self._evict()
        self.bots.schedule(game)
        return game

    def _unreadable(self, game_id: str, logged: str, told: str) -> ServiceError:
        """Remember that a stored game cannot be read (with the load lock held): one log
        line now, and ``told`` (one line, 500) to every request for it from now on, while
        every other game is served. A restart reads the row again."""
        log.error("%s; the other games are served", " ".join(logged.split()))
        self._broken[game_id] = " ".join(told.split())
        return ServiceError(500, self._broken[game_id])

    def check_stored(self) -> list[tuple[str, str]]:
        """At start-up: ``(game id, one line)`` for each unfinished stored game whose row
        cannot be read or whose settings are no game's (:func:`settings_problem`), each
        logged once and answered with that line (500) from now on; the others are served."""
        found = self.store.broken_rows(settings_problem)
        with self._load_lock:
            for gid, line in found:
                self._unreadable(gid, line, line)
        return found

    def _evict(self) -> None:
        """Take games out of memory (with the load lock held): at most once a second every
        game unused for ``idle_over`` seconds once it is over (``idle_open`` before, if it
        waits for no bot); then, over ``max_games``, the least recently used games that
        wait for no bot. A game busy under its lock stays; a request that finds its game
        evicted goes on with the copy loaded again from the store."""
        now = time.monotonic()
        if now - self._swept >= min(1.0, self.idle_over, self.idle_open):
            self._swept = now
            for g in [g for g in self._games.values() if self._idle(g, now)]:
                self._take_out(g)
        over = len(self._games) - self.max_games
        if over <= 0:
            return
        idle = sorted((g for g in self._games.values() if not self._bot_to_move(g)),
                      key=lambda g: g.used)
        for g in idle:
            if over <= 0:
                break
            if self._take_out(g):
                over -= 1

    def _idle(self, game: LiveGame, now: float) -> bool:
        """Whether ``game`` has been unused long enough to leave memory."""
        if game.snap.state.over:
            return now - game.used >= self.idle_over
        return now - game.used >= self.idle_open and not self._bot_to_move(game)

    def _take_out(self, game: LiveGame) -> bool:
        """Take ``game`` out of memory unless it is busy under its lock (load lock held)."""
        if not game.lock.acquire(blocking=False):
            return False
        try:
            game.evicted = True
            self._games.pop(game.id, None)
        finally:
            game.lock.release()
        return True

    def seat_for(self, game_id: str, token: str | None) -> int | None:
        """The seat of ``token`` in the game (None: a spectator); 404 if no such game."""
        return self.game(game_id).seat_of(token)

    def actions(self, game_id: str) -> list[str]:
        """The text of every action applied so far (tests and tools)."""
        return [str(a) for a in self.game(game_id).snap.state.history]

    # ------------------------------------------------------------ acting

    def act(self, game_id: str, token: str | None, text: object, version: object) -> int:
        """Apply the action ``text`` of the token's seat, sent against ``version``; the
        seat. See the module docstring for the checks."""
        game = self.game(game_id)
        seat = game.seat_of(token)
        if seat is None:
            raise ServiceError(403, "this link holds no seat of the game: spectators "
                                    "cannot act")
        if not isinstance(text, str):
            raise ServiceError(400, "the action must be a text such as 'draw' or 'take 57'")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ServiceError(400, "the version must be a whole number")
        try:
            action = Action.parse(text, game.snap.state.game.action_kinds)
        except (ActionParseError, ValueError) as exc:  # any failure of the parser: 400
            raise ServiceError(400, f"not an action: {exc}") from None
        self._apply(game, seat, action, version)
        return seat

    def _apply(self, game: LiveGame, seat: int, action: Action, version: int) -> None:
        while not self._apply_once(game, seat, action, version):
            game = self.game(game.id)  # it was taken out of memory: the loaded copy
        self._news(game)

    def _news(self, game: LiveGame, publish: bool = True) -> None:
        """:meth:`_changed` after an action was stored: a failure (the bus, a bot's
        schedule) is logged in one line, never raised (the action stands)."""
        try:
            self._changed(game, publish)
        except Exception as exc:
            log.error("game %s: version %d stored, telling of it failed (%s: %s)", game.id,
                      game.snap.version, type(exc).__name__, " ".join(str(exc).split())[:200])

    def _apply_once(self, game: LiveGame, seat: int, action: Action, version: int) -> bool:
        """Apply under the game's lock; False if the game was evicted meanwhile. Sharing
        the database with other processes, the copy first catches up with it (one read),
        so a player is judged against the game as it is, whichever process answers."""
        moved = [False]
        try:
            return self._apply_locked(game, seat, action, version, moved)
        finally:
            if moved[0]:  # this copy caught up: its sockets and bots hear of it
                self._news(game, publish=False)

    def _apply_locked(self, game: LiveGame, seat: int, action: Action, version: int,
                      moved: list[bool]) -> bool:
        with game.lock:
            if game.evicted:
                return False
            if (self._shared or version > game.snap.version) and self._catch_up(game):
                moved[0] = True  # another process moved it on: this copy was behind
            snap = game.snap
            if version != snap.version:
                now = snap.version
                raise ServiceError(409, f"stale: the game is at version {now}, the "
                                        f"action was sent against version {version}",
                                   lambda lang: server_words(lang).gettext(
                                       "stale: the game is at version {now}, the action was "
                                       "sent against version {sent}", now=now, sent=version))
            state = snap.state
            check_decision(game, state, seat)
            after = state.clone()
            try:
                after.apply(action)
            except IllegalActionError as exc:
                reason, cat = exc.reason, state.game.catalog
                raise ServiceError(400, f"not allowed: {reason} ({action})", lambda lang: (
                    server_words(lang).gettext("not allowed: {reason} ({action})", action=action,
                                               reason=refusal_words(reason, cat, lang)))
                                   ) from None
            try:
                self.store.append_action(game.id, version, str(action), seat, over=after.over,
                                         bot_to_move=self._bot_to_move(game, after))
            except StaleWrite:
                if self._catch_up(game):  # another process stored it: this copy catches up
                    moved[0] = True
                raise ServiceError(409, "stale: another action for this decision was stored "
                                        f"first (the game is at version {game.snap.version})"
                                   ) from None
            except StoreClosed:
                raise ServiceError(503, "the server is stopping; try again") from None
            except StoreUnwritable as exc:  # nothing stored: the game stays as it was
                raise Unwritable(f"could not store the move: {exc}") from None
            entries = narrate(state, after, seat, action, [s.name for s in game.seats])
            game.log.extend(entries)
            game.snap = Snapshot(after, version + 1, len(game.log))
        return True

    # ------------------------------------------------------------ several processes

    def _catch_up(self, game: LiveGame) -> bool:
        """With the game's lock held: apply the actions another process stored since this
        copy's version; whether there were any."""
        snap = game.snap
        texts = self.store.actions_from(game.id, snap.version)
        if not texts:
            return False
        state, entries = snap.state, []
        names = [s.name for s in game.seats]
        for text in texts:
            seat = state.to_move
            after = state.clone()
            try:
                action = Action.parse(text)
                if seat is None:
                    raise IllegalActionError(action, "the game is over")
                after.apply(action)
            except (IllegalActionError, ActionParseError) as exc:
                log.error("game %s: stored action %r does not replay (%s)", game.id,
                          text[:40], exc)  # it may name a hidden card: not for the client
                raise ServiceError(500, f"game {game.id} cannot be replayed; the server's "
                                        "log says why") from None
            entries.extend(narrate(state, after, seat, action, names))
            state = after
        game.log.extend(entries)
        game.snap = Snapshot(state, snap.version + len(texts), len(game.log))
        game.cache.clear()
        return True

    def _refresh(self, game: LiveGame) -> bool:
        """Catch this copy up with the database and, if it moved, tell its sockets and
        bots (not the bus: the news came from there); whether it moved."""
        with game.lock:
            moved = not game.evicted and self._catch_up(game)
        if moved:
            self._changed(game, publish=False)
        return moved

    def _remote(self, game_id: str, version: int) -> None:
        """From the bus: game ``game_id`` reached ``version`` (maybe in another process).
        A copy held here that is behind catches up and its sockets and bots hear of it."""
        game = self._games.get(game_id)
        if game is None:  # not held here: sockets that watch it load it afresh
            self._tell(game_id)
            return
        if version == SEATS_CHANGED:  # an invite claimed or re-issued elsewhere
            try:
                self._reload_seats(game)
            except StoreClosed:
                return
            self._tell(game_id)
            return
        if game.snap.version >= version:
            if game.snap.state.over and game.rematch is None:  # a rematch, maybe
                try:
                    game.rematch = self.store.rematch_of(game_id)
                except StoreClosed:
                    return
                if game.rematch is not None:
                    game.cache.clear()
                    self._changed(game, publish=False)
            return  # else this process's own news
        try:
            with game.lock:
                if game.evicted or not self._catch_up(game):
                    return
        except (ServiceError, StoreClosed) as exc:
            log.warning("game %s did not catch up: %s", game_id, exc)
            return
        self._changed(game, publish=False)

    def _freshen(self) -> None:
        """Catch up every game held here that the database has moved past: the bus
        carries each change at most once, so a lost message costs at most one round."""
        held = {gid: g.snap.version for gid, g in list(self._games.items())}
        for gid, version in self.store.versions(list(held)).items():
            game = self._games.get(gid)
            if game is None or version <= held[gid]:
                continue
            self._refresh(game)

    def _bot_games_by_owner(self) -> dict[str, int]:
        """The unfinished games of bots only in memory, per owner (a client address)."""
        out: dict[str, int] = {}
        for g in list(self._games.values()):
            if (g.owner is not None and not g.snap.state.over
                    and all(r.kind == "bot" for r in g.seats)):
                out[g.owner] = out.get(g.owner, 0) + 1
        return out

    def _changed(self, game: LiveGame, publish: bool = True) -> None:
        self.bots.schedule(game)  # first, so this process has the first go at the lease
        if (game.owner is not None and game.snap.state.over
                and all(r.kind == "bot" for r in game.seats)):  # its place is free again
            self.bot_games_held.sync(game.owner)
        if publish:
            self.bus.publish(game.id, game.snap.version)
        self._tell(game.id)

    def _tell(self, game_id: str) -> None:
        """Call every listener with the game id (a listener must not break the game)."""
        for listener in list(self.listeners):
            try:
                listener(game_id)
            except Exception:
                log.exception("listener failed for game %s", game_id)

    @staticmethod
    def _bot_to_move(game: LiveGame, state: GameState | None = None) -> bool:
        """Whether a bot is to move in ``state`` (default: the game's published one)."""
        s = game.snap.state if state is None else state
        p = s.to_move
        return p is not None and game.seats[p].kind == "bot"

    # ------------------------------------------------------------ rematch

    def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """A new game with the same seats, a new seed and the next seat to start (the same
        game if asked again). The answer holds the caller's new token only, or every human
        token for a hot-seat game."""
        game = self.game(game_id)
        seat = game.seat_of(token)
        if seat is None:
            raise ServiceError(403, "only a seat of the game may ask for a rematch")
        if self._shared and not game.snap.state.over:  # this copy may be behind
            self._refresh(game)
        if not game.snap.state.over:
            raise ServiceError(400, "the game is not over yet")
        if game.rematch is None and self._shared:  # another process may have made it
            game.rematch = self.store.rematch_of(game.id)
        with game.lock:
            if game.rematch is None:
                specs = [SeatSpec(s.kind, s.name, s.level) for s in game.seats]
                first = (int(game.settings.get("first_player", 0)) + 1) % len(specs)
                new_id = self.create(specs, hotseat=game.hotseat, first_player=first,
                                     game=game.snap.state.game.id,
                                     help=not game.settings.get("no_help"),
                                     more={k: game.settings[k] for k in (solo_mode.SETTING,)
                                           if k in game.settings})["game_id"]
                if not self.store.set_rematch(game.id, new_id):
                    # a copy of this game loaded again (it was evicted meanwhile) made
                    # its rematch first: that one holds
                    row = self.store.load(game.id)
                    new_id = row.rematch if row is not None and row.rematch else new_id
                game.rematch = new_id
                game.cache.clear()
            new = self.game(game.rematch)
        self._changed(game)
        return self._created(new, None if game.hotseat else seat)

    def rematch_seat(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The caller's seat in the rematch: ``{"game_id", "seat", "token", "link"}``."""
        game = self.game(game_id)
        seat = game.seat_of(token)
        if seat is None:
            raise ServiceError(403, "only a seat of the game has a seat in its rematch")
        if game.rematch is None and self._shared:  # another process may have made it
            game.rematch = self.store.rematch_of(game.id)
        if game.rematch is None:
            raise ServiceError(404, "no rematch of this game yet")
        new = self.game(game.rematch)
        token = new.seats[seat].token
        return {"game_id": new.id, "seat": seat, "token": token, "link": link(new.id, token)}

    # ------------------------------------------------------------ invites

    def claim(self, game_id: str, invite: object) -> dict[str, Any]:
        """Claim an invited seat with its invite code (once): the seat's new token,
        ``{"game_id", "seat", "token", "link"}``. 403 for a code that is no seat's invite
        now (used already, re-issued, mistyped)."""
        game = self.game(game_id)
        used = ServiceError(403, "this invite link was used already or replaced: ask the "
                                 "game's creator for a new one")
        if not isinstance(invite, str) or not 0 < len(invite) <= 64 or not invite.isascii():
            raise used
        seat = next((s.seat for s in game.seats if s.invite is not None
                     and secrets.compare_digest(s.invite, invite)), None)
        if seat is None and self._shared:  # another process may have re-issued it
            self._reload_seats(game)
            seat = next((s.seat for s in game.seats if s.invite is not None
                         and secrets.compare_digest(s.invite, invite)), None)
        if seat is None:
            raise used
        token = secrets.token_urlsafe(24)
        try:
            claimed = self.store.claim_seat(game.id, seat, invite, token)
        except StoreUnwritable as exc:
            raise Unwritable(f"could not store the claim: {exc}") from None
        self._reload_seats(game)
        if not claimed:
            raise used
        self._seats_changed(game)
        return {"game_id": game.id, "seat": seat, "token": token,
                "link": link(game.id, token)}

    def reissue(self, game_id: str, token: str | None, seat: object) -> dict[str, Any]:
        """The creator's new invite for ``seat``: its token and old invite stop working
        at once. ``{"game_id", "seat", "invite", "link"}``; 403 unless the token is the
        creator's, 400 for a seat that is no other person's."""
        game = self.game(game_id)
        creator = game.settings.get("creator")
        if creator is None or game.seat_of(token) != creator:
            raise ServiceError(403, "only the game's creator may re-issue an invite link")
        if (isinstance(seat, bool) or not isinstance(seat, int)
                or not 0 <= seat < len(game.seats) or game.seats[seat].kind != "human"
                or seat == creator):
            raise ServiceError(400, "re-issue the link of another person's seat (a seat "
                                    "number of this game)")
        invite = secrets.token_urlsafe(24)
        try:
            self.store.reissue_seat(game.id, seat, invite)
        except StoreUnwritable as exc:
            raise Unwritable(f"could not store the new link: {exc}") from None
        self._reload_seats(game)
        self._seats_changed(game)
        return {"game_id": game.id, "seat": seat, "invite": invite,
                "link": invite_link(game.id, invite)}

    def _reload_seats(self, game: LiveGame) -> None:
        """Read the game's seats (tokens, invites) from the store into memory."""
        rows = self.store.seat_rows(game.id)
        if rows:
            with game.lock:
                game.seats = rows

    def _seats_changed(self, game: LiveGame) -> None:
        """Tell the sockets here (the seats' ``held``, revoked tokens) and the other
        processes (:data:`~.pubsub.SEATS_CHANGED`) that the game's seats changed."""
        self._tell(game.id)
        if self._shared:
            self.bus.publish(game.id, SEATS_CHANGED)

    # ------------------------------------------------------------ the lobby's list

    def summary(self, game_id: str, token: str | None) -> dict[str, Any]:
        """What a lobby shows of a game its browser remembers: ``{game_id, found}`` and, if
        found, ``title``, ``over``, ``seat`` (the token's seat; None if the token holds
        none), ``token_ok`` (False when a token was given that holds no seat), ``names``,
        ``to_move``, ``your_move``, ``link``. Public facts only."""
        try:
            game = self.game(game_id)
        except ServiceError:
            return {"game_id": game_id, "found": False}
        state = game.snap.state
        seat = game.seat_of(token)
        return {"game_id": game.id, "found": True, "title": state.game.title,
                "over": state.over, "seat": seat, "token_ok": token is None or seat is not None,
                "names": [s.name for s in game.seats], "to_move": state.to_move,
                "your_move": seat is not None and state.to_move == seat,
                "hotseat": game.hotseat,
                "link": link(game.id, token if seat is not None else None)}
