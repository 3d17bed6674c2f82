"""Tournaments: whole games between computer players of different kinds, seats rotated.

``thirtyone tournament --games N --players oracle,table,table,table`` plays ``N`` games; in game
``g`` the ``i``-th player of the list sits at seat ``(i + g) mod n`` (the first dealer is drawn
at random for each game, from its seed). Player kinds:

- ``table``: the table's decision rule (``rules.md``), knocking at 27 or more;
- ``table:K``: the same rule knocking at ``K`` or more;
- ``noisy``: the table's rule at a knock score drawn from 22 to 29 for each game, with 3% of its
  decisions any legal action at random (:class:`~thirtyone.game.seats.NoisyPolicy`);
- ``oracle``: :class:`~thirtyone.oracle.player.OraclePlayer` at ``--deals`` / ``--playouts``,
  playing for the round (the chance of losing no life: ``best``);
- ``oracle-game``: the same, playing for the game (the chance of winning it: ``best_game``);
- ``expert``: the Oracle at the expert opponent's budget (300 deals, 1,000 playouts), playing
  for the round.

Each Oracle player reads every other seat by that seat's model (``noisy`` and ``table:K`` as a
``person``, the Oracle players as ``expert``, ``table`` as ``table``); with ``read_as``
(``--read-as``) every Oracle player reads every opponent by that one model instead, to measure
what a model is worth: the same table read with another. One Oracle player alone may read by
one model, written after its kind: ``expert@table`` is an expert that reads every opponent as
the table's rule (as every Oracle player did before opponent models), so that
``oracle-game,expert@table,expert@table,expert@table`` measures the model's worth to the one
who reads with it, against opponents who do not.

The Oracle's queries have no time limit here and one thread each, so the same seed gives
the same results whatever ``--jobs``: the games are shared among worker processes and their
results taken in game order.
"""

from __future__ import annotations

import math
import os
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from thirtyone import _core
from thirtyone.errors import RuleError, SettingsError
from thirtyone.game.rules import Rules
from thirtyone.game.seats import MODELS, TABLE_KNOCK_AT, NoisyPolicy, Policy, TablePolicy
from thirtyone.game.session import Event, Game
from thirtyone.names import shown
from thirtyone.oracle.player import EXPERT_DEALS, EXPERT_PLAYOUTS, OraclePlayer
from thirtyone.oracle.state import check_read_as
from thirtyone.study.backend import cluster, workers
from thirtyone.study.backend.workers import Stopped

#: The most games a run plays, and the most worker processes (more than the cores only share
#: them).
MAX_GAMES = 1_000_000
MAX_JOBS = 64
#: The kinds a ``--players`` entry may name (``table:K`` with a score ``K`` from 0 to 31).
KINDS = ("table", "table:K", "noisy", "oracle", "oracle-game", "expert")
#: The kinds that ask the Oracle, and may read by one model of their own (``expert@table``).
ORACLE_KINDS = ("oracle", "oracle-game", "expert")


def split_read(text: str) -> tuple[str, str | None]:
    """A player entry's kind and the model it reads every opponent by (``"expert@table"``, and
    ``"expert @ table"`` alike: ``("expert", "table")``; without ``@``: None); ValueError naming
    the problem when the model is unknown or the kind does not ask the Oracle."""
    kind, at, model = text.strip().partition("@")
    kind, model = kind.strip(), model.strip().lower()  # (spaces around the @ as around a comma)
    if not at:
        return kind, None  # (as typed: parse_kind quotes it so)
    if model not in MODELS:
        raise ValueError(
            f"{shown(text.strip())}: after @ comes the model it reads by, one of "
            f"{', '.join(MODELS)}"
        )
    if kind.lower() not in ORACLE_KINDS:
        raise ValueError(
            f"{shown(text.strip())}: only an Oracle player ({', '.join(ORACLE_KINDS)}) reads "
            "the table by a model"
        )
    return kind.lower(), model


#: A knock score written plainly: the digits 0 to 9, and a fraction if any (``27``, ``26.5``).
_KNOCK_SCORE = re.compile(r"\s*[0-9]+(?:\.[0-9]*)?\s*")


def parse_kind(text: str) -> tuple[str, float | None]:
    """``("table", 27.0)``, ``("table", K)``, ``("noisy", None)``, ``("oracle", None)``,
    ``("oracle-game", None)`` or ``("expert", None)`` from a player kind; ValueError naming the
    problem otherwise."""
    kind = text.strip().lower()
    if kind in ("table", "noisy", "oracle", "oracle-game", "expert"):
        return kind, TABLE_KNOCK_AT if kind == "table" else None
    head, colon, tail = kind.partition(":")
    if head == "table" and colon:
        # A score as a hand has one, in whole or half points written plainly: float() also
        # read "1e1", other scripts' digits and 26.25 (which the core then refused as "rule
        # knock_at").
        plain = _KNOCK_SCORE.fullmatch(tail) is not None
        knock_at = float(tail) if plain else math.nan
        if not (0 <= knock_at <= 31 and (2 * knock_at).is_integer()):  # (NaN fails too)
            raise ValueError(
                "table:K needs a knock score K from 0 to 31 in whole or half points, not "
                f"{shown(text.strip())}"
            )
        return "table", knock_at
    raise ValueError(f"unknown player kind {shown(text.strip())}: use one of {', '.join(KINDS)}")


def parse_players(text: str) -> tuple[str, ...]:
    """The player kinds of a comma-separated list (2 to 9 of them), each checked and written
    the short way (``table:027.50`` is ``table:27.5``, ``table:``, a zero and a million more
    is ``table:0``: a kind is shown in every row)."""
    if not text.strip():
        raise ValueError("a tournament needs 2 to 9 players, and none was given")
    players = tuple(p.strip() for p in text.split(","))
    if not 2 <= len(players) <= 9:
        raise ValueError(f"a tournament needs 2 to 9 players, not {len(players)}")
    if "" in players:
        raise ValueError(
            f"player {players.index('') + 1} of {len(players)} is empty: a kind goes between "
            f"each two commas, one of {', '.join(KINDS)}"
        )
    out = []
    for p in players:
        base, reads = split_read(p)
        kind, knock_at = parse_kind(base)
        short = repr(knock_at).removesuffix(".0")  # (the same number, its shortest text)
        name = f"table:{short}" if base.lower().startswith("table:") else kind
        out.append(name if reads is None else f"{name}@{reads}")
    return tuple(out)


def _seed(*parts: object) -> int:
    """A 63-bit seed derived from the parts (stable across runs and processes)."""
    return random.Random(":".join(str(p) for p in parts)).getrandbits(63)


@dataclass(frozen=True)
class Settings:
    """How a tournament is played."""

    players: tuple[str, ...]
    games: int = 100
    preset: str = "standard"
    #: The ``oracle`` players' budget per query.
    deals: int = 1_000
    playouts: int = 2_000
    seed: int = 1
    #: Worker processes playing games side by side.
    jobs: int = 1
    #: Every Oracle player reads every opponent by this model (one of
    #: :data:`~thirtyone.game.seats.MODELS`) rather than by each seat's own (None). Recorded
    #: in the JSON and the checkpoint only when given.
    read_as: str | None = None

    def check(self) -> None:
        """Raise :class:`~thirtyone.errors.SettingsError` (or a ``RuleError``) naming a setting
        out of its bounds."""
        for name, value, high in (("games", self.games, MAX_GAMES), ("jobs", self.jobs, MAX_JOBS)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
                raise SettingsError(
                    f"{name} must be a whole number from 1 to {high:,}, not {shown(value)}"
                )
        # (Every command's seed: 0 to 2**64 - 1. It was held to 63 bits here, refusing seeds
        # that `--seed` itself had taken, with a message the option's own contradicted.)
        _core.check_settings(seed=self.seed)
        if not isinstance(self.players, list | tuple):
            raise SettingsError(
                'players must be a list of player kinds such as ["oracle", "table"], '
                f"not {shown(self.players)}"
            )
        for i, player in enumerate(self.players):
            if not isinstance(player, str):
                raise SettingsError(
                    f'players[{i}] must be a player kind such as "oracle", not {shown(player)}'
                )
        try:
            parse_players(",".join(self.players))
        except ValueError as err:
            raise SettingsError(str(err)) from None
        check_read_as(self.read_as)
        _core.check_settings(deals=self.deals, playouts=self.playouts, threads=1)
        self.rules()

    def rules(self) -> Rules:
        if not isinstance(self.preset, str) or self.preset not in Rules.PRESETS:
            raise RuleError(
                f"unknown preset {shown(self.preset)}: choose one of {', '.join(Rules.PRESETS)}"
            )
        return Rules.from_spec({"preset": self.preset, "seats": len(self.players)})

    def player(self, index: int, game: int) -> Policy:
        """The ``index``-th player of the list, for game ``game``."""
        base, reads = split_read(self.players[index])
        kind, knock_at = parse_kind(base)
        if kind == "table":
            return TablePolicy(knock_at)
        seed = _seed("tournament-player", self.seed, game, index)
        if kind == "noisy":
            return NoisyPolicy.drawn(seed)
        deals, playouts = (
            (EXPERT_DEALS, EXPERT_PLAYOUTS) if kind == "expert" else (self.deals, self.playouts)
        )
        return OraclePlayer(
            self.players[index],
            deals=deals,
            playouts=playouts,
            seed=seed,
            threads=1,
            max_time=None,
            objective="game" if kind == "oracle-game" else "round",
            read_as=self.read_as if reads is None else reads,
        )


@dataclass
class Result:
    """One player's game: place (1: won), rounds dealt in (washes not counted), lives lost,
    knocks, and knocks caught (the knocker lost lives in that round)."""

    place: int
    rounds: int = 0
    lives_lost: int = 0
    knocks: int = 0
    caught: int = 0
    #: An Oracle player's forecasts: the p_win of each option it played.
    forecasts: list[float] = field(default_factory=list)


#: The bins of the forecasts' reliability table: p_win from 0 to 1 in tenths.
BINS = 10


class _Count:
    """Listens to a game and counts each seat's rounds, losses and knocks."""

    def __init__(self, seats: int) -> None:
        self.rounds = [0] * seats
        self.lost = [0] * seats
        self.knocks = [0] * seats
        self.caught = [0] * seats

    def __call__(self, event: Event) -> None:
        if event.kind != "round_end":
            return
        losses: Mapping[int, int] = event.data["losses"]
        for seat, lost in losses.items():
            self.rounds[seat] += 1
            self.lost[seat] += int(lost)
        knocker = event.data["knocker"]
        if knocker is not None:
            self.knocks[knocker] += 1
            self.caught[knocker] += int(losses[knocker] > 0)


def seat_of(index: int, game: int, seats: int) -> int:
    """The seat of the ``index``-th player in game ``game``."""
    return (index + game) % seats


def play_game(game: int, settings: Settings) -> list[Result]:
    """Play game ``game`` of the tournament; the results in the order of ``settings.players``."""
    n = len(settings.players)
    by_seat: list[Policy] = [TablePolicy()] * n
    names = [""] * n
    for i in range(n):
        seat = seat_of(i, game, n)
        by_seat[seat] = settings.player(i, game)
        names[seat] = f"{settings.players[i]} #{i + 1}"
    count = _Count(n)
    seed = _seed("tournament", settings.seed, game)
    played = Game(settings.rules(), by_seat, seed=seed, names=names)
    played.add_listener(count)
    played.play()
    results = []
    for i in range(n):
        s = seat_of(i, game, n)
        player = by_seat[s]
        forecasts = list(player.forecasts) if isinstance(player, OraclePlayer) else []
        results.append(
            Result(
                played.places[s],
                count.rounds[s],
                count.lost[s],
                count.knocks[s],
                count.caught[s],
                forecasts,
            )
        )
    return results


def _play_batch(args: tuple[int, int, Settings]) -> list[list[Result]]:
    """The results of games ``start`` to ``stop - 1`` (a batch: see :mod:`.backend.cluster`);
    a batch on a cluster whose run was stopped ends at its next game."""
    start, stop, settings = args
    results = []
    for g in range(start, stop):
        if workers.asked_to_stop():
            raise workers.RunStopped(f"games {start} to {stop - 1} stopped at game {g}")
        results.append(play_game(g, settings))
    return results


def batch_size(games: int) -> int:
    """Games per batch: about 200 batches a run, 1 to 100 games each (a function of the
    number of games alone, so that a checkpoint's batches are the same on any backend)."""
    return max(1, min(100, games // 200))


def _encode(batch: list[list[Result]]) -> Any:
    return [[asdict(r) for r in game] for game in batch]


def _count(value: Any, low: int, high: int | None = None) -> int:
    """``value`` if it is a whole number from ``low`` (to ``high``), else ValueError."""
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError(f"not a count: {value!r}")
    if high is not None and value > high:
        raise ValueError(f"{value} is above {high}")
    return value


def _result(data: Any, seats: int) -> Result:
    """One player's game as a checkpoint keeps it, checked (ValueError or TypeError)."""
    if not isinstance(data, dict) or data.keys() != {f.name for f in fields(Result)}:
        raise ValueError("not a player's game")
    forecasts = data["forecasts"]
    if not isinstance(forecasts, list) or not all(
        isinstance(p, float | int) and not isinstance(p, bool) and 0 <= p <= 1 for p in forecasts
    ):
        raise ValueError("forecasts are chances")
    knocks = _count(data["knocks"], 0)
    return Result(
        _count(data["place"], 1, seats),
        _count(data["rounds"], 0),
        _count(data["lives_lost"], 0),
        knocks,
        _count(data["caught"], 0, knocks),
        [float(p) for p in forecasts],
    )


def _decoder(settings: Settings) -> Callable[[int, Any], list[list[Result]]]:
    """The results of batch ``i`` as its checkpoint line holds them: as many games as the batch
    has, each with every player's game (ValueError or TypeError for a line not so)."""
    size, seats = batch_size(settings.games), len(settings.players)

    def decode(index: int, data: Any) -> list[list[Result]]:
        games = min(size, settings.games - index * size)
        if not isinstance(data, list) or len(data) != games:
            raise ValueError(f"batch {index} has {games} games")
        if not all(isinstance(game, list) and len(game) == seats for game in data):
            raise ValueError(f"a game has {seats} players")
        return [[_result(r, seats) for r in game] for game in data]

    return decode


def _settings(settings: Settings) -> dict[str, Any]:
    """The settings as the JSON and the checkpoint record them: ``read_as`` only when given
    (so that a run without it writes what it wrote before there was one)."""
    out = {**asdict(settings), "players": list(settings.players)}
    if settings.read_as is None:
        del out["read_as"]
    return out


def _header(settings: Settings) -> dict[str, Any]:
    """What a checkpoint must have been written for: the study and every setting that changes
    its results (not the workers)."""
    kept = {k: v for k, v in _settings(settings).items() if k != "jobs"}
    return {
        "study": "tournament",
        "settings": kept,
        "batch": batch_size(settings.games),
    }


@dataclass
class Tally:
    """One player's results over the tournament."""

    player: str
    position: int
    games: int = 0
    wins: int = 0
    places: int = 0
    rounds: int = 0
    lives_lost: int = 0
    knocks: int = 0
    caught: int = 0
    ci: tuple[float, float] = field(default=(0.0, 1.0))
    #: Per bin of forecast p_win: decisions, the sum of their forecasts, and how many of them
    #: were in games the player won.
    bins: list[list[float]] = field(default_factory=lambda: [[0, 0.0, 0] for _ in range(BINS)])

    def add(self, r: Result) -> None:
        won = r.place == 1
        for p in r.forecasts:
            b = self.bins[min(BINS - 1, int(p * BINS))]
            b[0] += 1
            b[1] += p
            b[2] += won
        self.games += 1
        self.wins += r.place == 1
        self.places += r.place
        self.rounds += r.rounds
        self.lives_lost += r.lives_lost
        self.knocks += r.knocks
        self.caught += r.caught

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_place(self) -> float | None:
        return self.places / self.games if self.games else None

    @property
    def lives_per_round(self) -> float | None:
        return self.lives_lost / self.rounds if self.rounds else None

    @property
    def caught_rate(self) -> float | None:
        return self.caught / self.knocks if self.knocks else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "position": self.position,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci": list(self.ci),
            "mean_place": self.mean_place,
            "rounds": self.rounds,
            "lives_lost": self.lives_lost,
            "lives_lost_per_round": self.lives_per_round,
            "knocks": self.knocks,
            "knocks_caught": self.caught,
            "caught_rate": self.caught_rate,
            **({"reliability": self.reliability()} if any(b[0] for b in self.bins) else {}),
        }

    def reliability(self) -> list[dict[str, Any]]:
        """The forecasts against the games' ends: per tenth of p_win, the decisions, their mean
        forecast and the share of them made in games the player went on to win."""
        return [
            {
                "bin": [i / BINS, (i + 1) / BINS],
                "decisions": int(n),
                "forecast": total / n,
                "won": wins / n,
            }
            for i, (n, total, wins) in enumerate(self.bins)
            if n
        ]


@dataclass
class Outcome:
    """A tournament as played: the tallies of the games played, how many, and the stop asked
    for (:class:`~thirtyone.study.backend.workers.Stopped`: Ctrl-C, SIGTERM or SIGHUP) if it
    ended early."""

    tallies: list[Tally]
    played: int
    stopped: Stopped | None = None


def play(
    settings: Settings,
    progress: Callable[[int, int], None] | None = None,
    backend: cluster.Backend | None = None,
) -> Outcome:
    """Play the tournament until its end or a stop (a KeyboardInterrupt: see
    :func:`thirtyone.study.backend.workers.stopping`); one :class:`Tally` per entry of
    ``settings.players`` over the games played, with its 95% Wilson interval of the win rate.
    The games are played in batches (on ``backend``: by default ``settings.jobs`` local
    processes) and counted in game order, so a stopped run counts its first games, each whole,
    and the results are the same on every backend. ``progress(done, total)`` is called after
    each batch."""
    from thirtyone import statistics as stats

    settings.check()
    if backend is None:
        backend = cluster.Backend(jobs=settings.jobs)
    backend.check()
    tallies = [Tally(p, i + 1) for i, p in enumerate(settings.players)]
    played, stop = 0, None
    size = batch_size(settings.games)
    todo = ((g, min(g + size, settings.games), settings) for g in range(0, settings.games, size))
    codec = (_encode, _decoder(settings))
    count = -(-settings.games // size)
    try:
        for batch in cluster.batches(
            _play_batch, todo, backend, codec, _header(settings), count=count
        ):
            with workers.held():  # (a batch is counted whole or not at all)
                for results in batch:
                    for tally, result in zip(tallies, results, strict=True):
                        tally.add(result)
                    played += 1
            if progress is not None:
                progress(played, settings.games)
    except KeyboardInterrupt as err:
        stop = workers.stopped(err)
    for t in tallies:
        t.ci = stats.wilson(t.wins, t.games)
    return Outcome(tallies, played, stop)


def run(
    settings: Settings,
    progress: Callable[[int, int], None] | None = None,
    backend: cluster.Backend | None = None,
) -> list[Tally]:
    """The tallies of the whole tournament (:func:`play`); a stop is raised again."""
    outcome = play(settings, progress, backend)
    if outcome.stopped is not None:
        raise outcome.stopped
    return outcome.tallies


def to_json(
    settings: Settings, tallies: list[Tally], stopped: Stopped | None = None, played: int = 0
) -> dict[str, Any]:
    """The JSON of a run (every number finite; an undefined one is null); a run stopped after
    ``played`` games also says by what (``"stopped": {"by": "Ctrl-C", "games": 312}``)."""
    data: dict[str, Any] = {
        "players": [t.to_dict() for t in tallies],
        "settings": _settings(settings),
    }
    if stopped is not None:
        data["stopped"] = {"by": stopped.name, "games": played}
    return data


def default_jobs() -> int:
    """The cores this process may use (at most :data:`MAX_JOBS`)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_JOBS, cores))
