"""What each viewer is sent of a game: the payload of ``GET /api/games/{id}`` and of the
sockets (docs/web.md, "The payload"), and the card catalog of ``GET /api/cards``.

Contract (no HTTP here): :meth:`Payloads.payload` is what one viewer (a seat, or None for a
spectator) may see: built from that seat's view (or the spectator view) and public facts
only, cached per (version, viewer) in the game's copy. Its log is an increment: the entries
from ``log_from`` (what the client holds) to ``log_total``; the log is only appended to and
its entries never change. Sharing the database, a client that holds more of the log than
this process's copy makes the copy catch up first. A ``log_from`` that is not a whole
number, or is beyond the log, is a 400. The server's words are in the viewer's language
(``lang``: the prompt, its detail, the pay words, ``turn_label``, ``pad_lines``; card names
as printed in that edition), so the cache key is (version, viewer, language); the log
lines and card texts are English for now (docs/i18n.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from forest_shuffle.cards.names import printed_name
from forest_shuffle.engine.game import game_by_id
from forest_shuffle.engine.picks import pick_shape
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView, make_spectator_view
from forest_shuffle.scoring import core as scoring
from forest_shuffle.server import solo as solo_mode
from forest_shuffle.server.errors import ServiceError
from forest_shuffle.text import cardtext
from forest_shuffle.text.narration import (
    N_,
    action_words,
    ask_words,
    detail_words,
    game_title,
    pay_facts,
    pick_confirm_words,
    pick_words,
    server_words,
    turn_label,
    turn_summary,
)

if TYPE_CHECKING:
    from forest_shuffle.server.service import GameService, LiveGame, LogEntry, Snapshot


def log_from_param(text: str | None) -> int:
    """The ``log_from`` query parameter: the log entries a client holds (0 if left out);
    ServiceError(400) unless it is a whole number written in ASCII digits (at most 9)."""
    if text is None:
        return 0
    if not re.fullmatch(r"[0-9]{1,9}", text):
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise ServiceError(400, f"log_from must be a whole number from 0 (the log entries "
                                f"the client holds), not {shown!r}")
    return int(text)


class Payloads:
    """The payloads of one service's games (see the module contract)."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc

    def check_log_from(self, game_id: str, text: str | None) -> int:
        """The ``log_from`` query parameter of a request for the game (0 if left out), once
        checked against the game's log; ServiceError(404) if no such game, (400) if it is not
        a whole number or beyond the log."""
        game = self.svc.game(game_id)
        log_from = log_from_param(text)
        self._reach(game, log_from)
        _check_log_from(log_from, game.snap.log_len)
        return log_from

    def _reach(self, game: LiveGame, log_from: int) -> None:
        """Sharing the database: a client that holds more of the log than this copy (it
        was served by another process) makes this copy catch up first."""
        if not self.svc._shared or log_from <= game.snap.log_len:
            return
        self.svc._refresh(game)

    def payload(self, game_id: str, seat: int | None,
                connected: frozenset[int] = frozenset(), log_from: int = 0,
                lang: str = "en") -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see of the game now; ``connected`` names
        the seats with an open socket (bots always count as connected). The log is sent
        from entry ``log_from`` on (the client holds the ones before): ``log_from``,
        ``log`` (those entries, in this viewer's words) and ``log_total``. ServiceError(400)
        if ``log_from`` is beyond the log. Its words are in ``lang`` (en, fr, de, zh)."""
        game = self.svc.game(game_id)
        self._reach(game, log_from)
        snap = game.snap
        _check_log_from(log_from, snap.log_len)
        key = (snap.version, -1 if seat is None else seat, lang)
        base = game.cache.get(key)
        if base is None:
            base = self._base_payload(game, snap, seat, lang)
            # list(): one C-level copy; other threads' payloads may add keys meanwhile.
            if len(game.cache) > 16 or any(k[0] != snap.version for k in list(game.cache)):
                game.cache.clear()
            game.cache[key] = base
        out = dict(base)
        out["seats"] = [{"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level,
                         "connected": s.kind == "bot" or s.seat in connected,
                         "held": s.kind == "bot" or s.token is not None}
                        for s in game.seats]
        out["creator"] = game.settings.get("creator")  # who may re-issue invites
        out["rematch"] = game.rematch
        # The creator chose the seed and so may know every card: every seat is told.
        out["deal_chosen"] = bool(game.settings.get("deal_chosen", False))
        out["help"] = not game.settings.get("no_help", False)  # the Suggest button
        viewer = -1 if seat is None else seat
        out["log_from"] = log_from
        out["log"] = [e.shown(viewer, lang) for e in game.log[log_from:snap.log_len]]
        out["log_total"] = snap.log_len
        return out

    @staticmethod
    def _running(game: LiveGame, snap: Snapshot) -> list[dict[str, Any]]:
        """The score pad as it stands now, per seat ``{seat, total, lines}``: the scorer on
        the public forests (a spectator's view: face-down saplings, caves by their size),
        so every viewer gets the same figures and no hidden card counts. At the end it is
        the final score pad's."""
        if game.running is None or game.running[0] != snap.version:
            pads = _scores(make_spectator_view(snap.state))
            game.running = (snap.version, pads)
        return game.running[1]

    @classmethod
    def _card_points(cls, game: LiveGame, snap: Snapshot) -> list[dict[str, Any]]:
        """Per seat, the points each visible forest card would score now, by card id:
        ``{id: {"points", "why"}}`` (the scorer's explanation of the running score; a
        face-down card has none). The page shows them on demand."""
        return [{str(c["card"]): {"points": c["points"], "why": c["why"]}
                 for c in pad["cards"] if c["card"] is not None}
                for pad in cls._running(game, snap)]

    def _base_payload(self, game: LiveGame, snap: Snapshot, seat: int | None,
                      lang: str = "en") -> dict[str, Any]:
        state = snap.state
        w = server_words(lang)
        view = make_spectator_view(state) if seat is None else state.view(seat)
        mine = seat is not None and state.to_move == seat
        over = state.over
        if over and game.scores is None:
            game.scores = _scores(make_spectator_view(state))
        return {
            "game_id": game.id,
            "game": state.game.id,
            "game_title": game_title(state.game, lang),
            "version": snap.version,
            "you": seat,
            "hotseat": game.hotseat,
            "view": view.to_dict(),
            "to_move": state.to_move,
            "decision": state.decision,
            "legal": [str(a) for a in view.legal_actions] if mine else [],
            "legal_words": [action_words(a, view, lang) for a in view.legal_actions]
            if mine else [],
            "prompt": ask_words(view, lang) if mine else None,
            "prompt_detail": detail_words(view, lang) if mine else None,
            "pay": _pay_hint(view, lang) if mine else None,
            "pay_plans": _play_hints(state, seat, lang) if mine and seat is not None else {},
            "picks": _pick_hint(view, lang) if mine else None,
            "pick_from": _pick_from(state) if mine else None,
            "running": [{"seat": r["seat"], "total": r["total"], "lines": r["lines"]}
                        for r in self._running(game, snap)],
            "card_points": self._card_points(game, snap),
            "pad_lines": [[key, w.gettext(LINE_WORDS[key])
                           if key in LINE_WORDS else key] for key in state.game.pad_lines],
            "waited": _waited(game, snap, seat) if mine and seat is not None else [],
            "turns": _turns(game.log[:snap.log_len], state.num_players),
            "turn_label": turn_label(
                state.turn, "" if over else
                w.pgettext("whose turn", "you") if state.current == seat
                else game.seats[state.current].name, lang),
            "clearing_limit": state.game.clearing_limit,
            "hand_limit": state.game.hand_limit,
            "winter_to_end": state.game.winter_to_end,
            "solo": solo_mode.solo_part(state, view, game.settings),  # None: no solo game
            "over": over,
            "scores": game.scores if over else None,
            "winners": scoring.winners([s["total"] for s in game.scores])
            if over and game.scores else None,
        }


#: The score pad's lines in words (the keys of a game's ``pad_lines``).
#: English; each a message of the ``server`` catalog.
LINE_WORDS = {"trees": N_("Trees"), "top_bottom": N_("Top / bottom"), "top": N_("Top"),
              "bottom": N_("Bottom"), "left_right": N_("Left / right"), "cave": N_("Cave"),
              "moors": N_("Moors")}
#: The most sentences of a summary of the turns a viewer waited through.
MAX_WAITED = 8


def _waited(game: LiveGame, snap: Snapshot, seat: int) -> list[str]:
    """What the others did since ``seat``'s last action, one sentence per stretch of one
    player's actions (:func:`~forest_shuffle.text.narration.turn_summary`), the last
    :data:`MAX_WAITED`: shown when the seat's turn begins. Public words only."""
    groups: list[tuple[int, list[str]]] = []
    for e in reversed(game.log[:snap.log_len]):
        if e.seat == seat:
            break
        if e.seat is None or e.brief is None:
            continue
        if groups and groups[-1][0] == e.seat:
            groups[-1][1].append(e.brief)
        else:
            if len(groups) == MAX_WAITED:
                break
            groups.append((e.seat, [e.brief]))
    out = [turn_summary(game.name(who), briefs[::-1]) for who, briefs in reversed(groups)]
    return [s for s in out if s]


def _turns(entries: Sequence[LogEntry], players: int) -> list[int]:
    """The turns each seat has begun (extra turns included), from the log's turn lines."""
    out = [0] * players
    for e in entries:
        if e.turn_of is not None:
            out[e.turn_of] += 1
    return out


def _check_log_from(log_from: int, total: int) -> None:
    if not 0 <= log_from <= total:
        raise ServiceError(400, f"log_from must be from 0 to {total} (the entries of the "
                                f"log so far), not {log_from}")


def _pick_from(state: GameState) -> str | None:
    """Where the cards the decision at hand picks lie ("hand", "clearing"; None: in
    either, or elsewhere), from its kind's declaration (``KindDecl.source``)."""
    pend = state.pending
    decl = None if pend is None else state.game.kinds.get(pend.kind)
    return decl.source if decl is not None and decl.source else None


def _pick_hint(view: PlayerView, lang: str = "en") -> dict[str, Any] | None:
    """A decision of the viewer's that takes several cards, as one choice of a set
    (:func:`~forest_shuffle.engine.picks.pick_shape`): which cards may be picked, how many,
    in any order, with the words to ask and to confirm; None for any other decision. The
    page keeps the picks to itself (so they can be taken back) and sends the engine's
    canonical actions for the set (ascending, then ``done`` where the decision needs it:
    ``actions`` names the action kind). The words in ``lang``."""
    shape = pick_shape(view)
    if shape is None:
        return None
    return {"kind": shape.kind, "verb": shape.verb, "source": shape.source,
            "cards": list(shape.cards), "least": shape.least, "most": shape.most,
            "paid": [c for c in shape.paid if c], "ends_with_done": shape.ends_with_done,
            "source_size": shape.source_size, "words": pick_words(shape, lang),
            "confirm": pick_confirm_words(shape, lang)}


def _pay_hint(view: PlayerView, lang: str = "en") -> dict[str, Any] | None:
    """During the viewer's pay decision, :func:`~forest_shuffle.text.narration.pay_facts`: the
    tree symbol the bonus needs, whether it is still possible (enough cards that show it),
    the hand cards that may pay, those that show the symbol and those that keep the bonus,
    and the words (``words``; ``lost_words`` once a card without the symbol is chosen), in
    ``lang``."""
    facts = pay_facts(view, lang)
    if facts is None:
        return None
    return {"card": facts.card, "side": facts.side, "need": facts.need,
            "paid": list(facts.paid), "symbol": facts.symbol, "bonus": facts.bonus,
            "bonus_possible": facts.bonus_possible, "payable": list(facts.payable),
            "matching": list(facts.matching), "keeps_bonus": list(facts.keeps_bonus),
            "words": facts.words, "lost_words": facts.lost_words}


def _play_hints(state: GameState, seat: int, lang: str = "en") -> dict[str, dict[str, Any]]:
    """For each card (and half) that ``seat`` may play and must pay for, the pay hint of that
    payment before any card is paid (:func:`_pay_hint`), keyed ``"CARD"`` for a tree or
    shrub and ``"CARD SIDE"`` for a half (the same for every tree it may go to): the engine
    applies the play to a copy, so the cost, the cards that may pay (a Mole's pool) and the
    bonus are the engine's. The page keeps the play and the cards chosen to pay for it to
    itself until the payment is complete, so a play can be taken back until then."""
    out: dict[str, dict[str, Any]] = {}
    for action in state.legal_actions():
        key = f"{action.card} {action.side}" if action.side else str(action.card)
        if action.kind != "play" or key in out:
            continue
        after = state.clone()
        after.apply(action)
        if after.over or after.decision != "pay" or after.to_move != seat:
            continue  # paid at once (no cost): the play commits when it is sent
        view = after.view(seat)
        hint = _pay_hint(view, lang)
        if hint is not None:
            hint["prompt"] = ask_words(view, lang)
            out[key] = hint
    return out


def _scores(view: PlayerView, with_cards: bool = True) -> list[dict[str, Any]]:
    """The score pad from the public table: per player the total, the four lines and (with
    ``with_cards``) every visible card's points with the reason (a face-down sapling's card is
    null)."""
    sheets = view.game.score_table(view.forests)
    out: list[dict[str, Any]] = []
    for i, (forest, sheet) in enumerate(zip(view.forests, sheets, strict=True)):
        if not with_cards:
            out.append({"seat": i, "total": sheet.total, "lines": dict(sheet.lines)})
            continue
        ids: list[int | None] = []
        for t in forest.trees:
            ids.append(t.card)
            for side in ("top", "bottom", "left", "right"):
                ids.extend(d.card for d in t.slots[side])
        ids.append(None)  # the cave line, if any
        cards = [{"card": ids[k] if k < len(ids) else None, "where": cp.where,
                  "name": cp.species, "points": cp.points, "why": cp.why}
                 for k, cp in enumerate(sheet.cards)]
        out.append({"seat": i, "total": sheet.total, "lines": dict(sheet.lines),
                    "cards": cards})
    return out


def card_catalog(game: str = "base", lang: str = "en") -> dict[str, Any]:
    """``{"cards": {id: card}, "species": {key: species}}`` of one game for
    ``GET /api/cards``: a card's ``halves`` name species by key, a species' ``name`` is
    the name printed on the card in the ``lang`` edition (``cards/names.py``; what the page
    shows; two species may share one, as the base and the Woodland Edge Squeakers do) and
    ``key`` its key. The card texts (``text``, ``short``'s phrases, ``points_short``) are
    in ``lang`` (the ``cards`` domain, docs/i18n.md; ``short`` keeps its English part
    labels, which the page reads); another language adds each species' ``tag_words`` (its
    tags' nouns) and ``symbols``, each tree symbol's name in its edition (the badges).
    ``caves``: Dartmoor's numbered caves, or Exploration's named ones (``number`` their
    place, a forest's ``cave_number``, with ``name``), each with its ``text`` and
    ``provisional`` note ("" when none)."""
    catalog = game_by_id(game).catalog
    cards: dict[str, Any] = {}
    for c in catalog.cards:
        if c is None:
            continue
        cards[str(c.id)] = {
            "id": c.id, "kind": c.kind,
            "axis": {"lr": "horizontal", "tb": "vertical"}.get(c.axis),
            "symbol": c.symbol if c.species is not None else None,
            "symbols": ({"tree": c.symbol} if c.species is not None else
                        {side: h.symbol for side, h in c.halves.items()}),
            "halves": ({"tree": c.species.name} if c.species is not None else
                       {side: h.species.name for side, h in c.halves.items()}),
            "label": c.label(), "summary": cardtext.card_summary(c.id, catalog),
        }
        if c.assumed:  # a card of a provisional deck: what about it is not known
            cards[str(c.id)]["assumed"] = list(c.assumed)
        if c.printed:
            cards[str(c.id)]["printed"] = c.printed
    species: dict[str, Any] = {}
    for sp in catalog.species.values():
        text = {p: cardtext.full_text(sp, p, lang) for p in cardtext.PARTS
                if cardtext.short_text(sp, p)}
        short = "; ".join(f"{word}: {cardtext.short_text(sp, p, lang)}"
                          for p, word in cardtext.PARTS.items() if cardtext.short_text(sp, p))
        shown = sp.printed if lang == "en" else printed_name(sp, lang)
        short_name = (sp.short_name or sp.printed) if lang == "en" else shown
        species[sp.name] = {"name": shown, "key": sp.name, "short_name": short_name,
                            "kind": sp.kind, "cost": sp.cost,
                            "tags": sorted(sp.tags), "positions": list(sp.positions),
                            "text": text, "short": short,
                            "points_short": cardtext.describe_points(sp, lang)}
        if lang != "en":
            species[sp.name]["tag_words"] = {t: cardtext.tag_word(t, 1, lang) for t in sp.tags}
        if sp.provisional:
            species[sp.name]["provisional"] = sp.provisional
    out: dict[str, Any] = {"cards": cards, "species": species}
    if lang != "en":  # the tree symbols' badges, as printed in the edition
        symbols = {sym for c in catalog.cards if c is not None
                 for sym in ([c.symbol] if c.species is not None else
                             [h.symbol for h in c.halves.values()]) if sym}
        out["symbols"] = {sym: cardtext.symbol_word(sym, lang) for sym in sorted(symbols)}
    if catalog.caves:  # Dartmoor: the numbered caves, a provisional reading marked
        out["caves"] = [{"number": cave.number, "text": cave.text,
                         "provisional": cave.provisional} for cave in catalog.caves]
    elif catalog.named_caves:  # Exploration: the named caves, by their place (cave_number)
        out["caves"] = [{"number": k, "name": cave.name, "text": cave.text,
                         "provisional": cave.provisional}
                        for k, cave in enumerate(catalog.named_caves, start=1)]
    if catalog.provisional_deck:
        out["provisional_deck"] = catalog.provisional_deck
    return out


__all__ = ["LINE_WORDS", "MAX_WAITED", "Payloads", "card_catalog"]
