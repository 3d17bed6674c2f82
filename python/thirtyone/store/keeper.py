"""Your decisions as a game of ``thirtyone play`` goes, with the Oracle's advice where it was
computed, and the game's entry in the record once it is over (:mod:`thirtyone.store.record`).

A :class:`Keeper` listens to the game's events and to the advisor (``OracleAdvisor.on_advice``):
a decision is the start of your turn (knock, draw, take, decline, blind showdown) or, after a
draw or take, the card you put down. Advice given at the start of the turn goes with the start's
decision, advice given after the draw or take with the put-down; a decision without advice
computed for it is kept with the option played only.

The decisions are kept in the saved game too (``SavedGame.decisions``), so a game left and
resumed keeps the advice of its first part: while the journal is replayed, the decisions it
replays take the saved entries.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from thirtyone.game.rules import Rules
from thirtyone.game.seats import SeatView
from thirtyone.game.session import Event, Session
from thirtyone.store.record import Decision, GameRecord
from thirtyone.store.save_fields import DECISION_FIELDS, decision_problem

if TYPE_CHECKING:
    from thirtyone.oracle.answer import Advice, OptionAdvice

_FIELDS = DECISION_FIELDS


def judged(advice: Advice, played: str) -> dict[str, Any]:
    """The Oracle's best option and what playing ``played`` cost: the best's ``p_safe`` minus
    the option's (0 when it is the best, or safer: an option tied with the best may be; None
    when the Oracle did not weigh it), and the same in ``p_win`` against ``best_game`` (the
    option named for the game) when the advice carries ``p_win``. ``thirtyone review`` counts
    a cost the same way."""
    best = advice.best
    chosen = next((o for o in advice.options if o.option == played), None)
    cost = None
    if chosen is not None:
        cost = 0.0 if chosen is best else max(0.0, best.p_safe - chosen.p_safe)
    out: dict[str, Any] = {"best": best.option, "cost_p_safe": _tidy(cost)}
    game_best = _best_game(advice)
    out["best_game"] = None if game_best is None else game_best.option
    out["cost_p_win"] = None
    win = None if chosen is None else getattr(chosen, "p_win", None)
    if game_best is not None and chosen is not None and win is not None:
        top = float(getattr(game_best, "p_win", 0.0))
        cost_win = 0.0 if chosen.option == game_best.option else max(0.0, top - float(win))
        out["cost_p_win"] = _tidy(cost_win)
    return out


def _tidy(x: float | None) -> float | None:
    """Rounded to 1e-6 (the figures are shares of at most a few million playouts); None for
    nothing or a number that is not finite."""
    return None if x is None or not math.isfinite(x) else round(x, 6)


def _best_game(advice: Advice) -> OptionAdvice | None:
    """``advice.best_game``, or the option with the highest ``p_win`` (None: no ``p_win``)."""
    named: OptionAdvice | None = getattr(advice, "best_game", None)
    if named is not None and getattr(named, "p_win", None) is not None:
        return named
    weighed = [o for o in advice.options if getattr(o, "p_win", None) is not None]
    return max(weighed, key=lambda o: float(getattr(o, "p_win", 0.0))) if weighed else None


def restored(entries: object) -> list[dict[str, Any]]:
    """The decisions kept in a saved game, checked ([] when any is malformed: the replayed
    decisions are then kept without advice)."""
    if not isinstance(entries, list) or not all(_well_formed(e) for e in entries):
        return []
    return [{k: e.get(k) for k in _FIELDS} for e in entries]


def _well_formed(entry: object) -> bool:
    return decision_problem(entry) is None


class Keeper:
    """An event listener keeping the decisions of the seat ``you``; ``kept`` (the saved game's
    list, when there is one) holds the decisions restored from a save, replaced one by one as
    the journal is replayed."""

    def __init__(self, you: int = 0, kept: list[dict[str, Any]] | None = None) -> None:
        self.you = you
        self.kept: list[dict[str, Any]] = kept if kept is not None else []
        self.seen = 0  # decisions played (replayed or live) in this game so far
        self.replaying = bool(self.kept)
        self._advice: tuple[str, Advice] | None = None  # the phase and the advice there
        self._started = False  # the turn's start was told by a mid_turn event

    def on_advice(self, view: SeatView, advice: Advice) -> None:
        """The advisor has given ``advice`` at ``view``'s decision (a turn's start, or its
        put-down)."""
        if view.seat == self.you:
            self._advice = ("put" if view.drawn is not None else "start", advice)

    def caught_up(self) -> None:
        """The saved journal has been replayed: restored entries past it are dropped."""
        self.replaying = False
        del self.kept[self.seen :]

    def __call__(self, event: Event) -> None:
        if event.kind == "deal":
            self._advice, self._started = None, False
        data = event.data
        if data.get("seat") != self.you:
            return
        if event.kind == "mid_turn" and data.get("step") in ("draw", "take"):
            self._decided(event.round, "start", str(data["step"]))
            self._started = True
        elif event.kind == "turn":
            action = str(data["action"])
            if not (self._started and action in ("draw", "take")):
                self._decided(event.round, "start", action)
            if action in ("draw", "take"):
                played = ("hide:" if data.get("hid_31") else "discard:") + str(data["discard"])
                self._decided(event.round, "put", played)
            self._started = False

    def _decided(self, round_number: int, phase: str, played: str) -> None:
        n, self.seen = self.seen, self.seen + 1
        advice, self._advice = self._advice, None
        if self.replaying and n < len(self.kept):
            return  # the saved entry stands
        entry: dict[str, Any] = {"round": round_number, "played": played}
        entry.update(dict.fromkeys(_FIELDS[2:]))
        if advice is not None and advice[0] == phase:
            entry.update(judged(advice[1], played))
        del self.kept[n:]
        self.kept.append(entry)

    def decisions(self) -> list[Decision]:
        return [Decision(**{k: e[k] for k in _FIELDS}) for e in self.kept]


def preset_name(rules: Rules) -> str:
    """The preset ``rules`` are, seats aside, or else the one they differ from in the fewest
    options (the earlier in the list of presets on a tie)."""
    mine = rules.to_dict()

    def differences(name: str) -> int:
        base = Rules.preset(name).to_dict()
        return sum(base[k] != mine[k] for k in mine if k != "seats")

    return min(Rules.PRESETS, key=differences)


def game_record(
    game: Session,
    decisions: Sequence[Decision],
    *,
    you: int = 0,
    opponents: str = "table",
    autoplay: bool = False,
    seed: int | None = None,
) -> GameRecord:
    """The record of ``game``, which is over, with its :func:`game_key` (None for a game that
    no save keeps: an ``--autoplay`` game, which counts at each run)."""
    assert game.over, "only a finished game is recorded"
    points = game.points()
    return GameRecord(
        finished=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        preset=preset_name(game.rules),
        rules=game.rules.to_dict(),
        names=list(game.names),
        you=you,
        placing=game.placing(),
        points=None if points is None else points.get(you, 0),
        rounds=game.round_number,
        opponents=opponents,
        autoplay=autoplay,
        seed=seed,
        decisions=list(decisions),
        key=game_key(game, you=you, opponents=opponents, seed=seed),
    )


def game_key(game: Session, *, you: int, opponents: str, seed: int | None) -> str | None:
    """What identifies ``game`` in the record of games, so that it is recorded once however
    often it is finished (a save that ended the game but not its flag, resumed again from a
    copy): its save's id (:attr:`Session.game_id`), the rules, the seed, the names, your seat,
    the opponents and every action. None for a game that no save keeps."""
    if game.game_id is None:
        return None
    made = [
        game.game_id,
        game.rules.to_dict(),
        str(seed),
        list(game.names),
        you,
        opponents,
        [[a.kind, a.card] for a in game.journal],
    ]
    text = json.dumps(made, sort_keys=True, ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
