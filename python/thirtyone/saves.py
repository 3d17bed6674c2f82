"""Saved games: ``thirtyone play`` saves after every turn and ``--resume`` continues.

A save holds the rules, the seed, the names and the journal of every action applied to a round
(:attr:`thirtyone.Game.journal`). The seed reproduces the dealer draw and every shuffle, so
replaying the journal rebuilds the game exactly where it was. A save is written to a temporary
file in the same folder and renamed over the old one, so a process killed at any moment leaves
either the previous save or the new one, never half of one.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from thirtyone.errors import SaveError as SaveError  # (saves.SaveError, as before)
from thirtyone.errors import ThirtyOneError
from thirtyone.game import Game, Turn
from thirtyone.players import Player
from thirtyone.rules import Rules

FORMAT = "thirtyone-save"
VERSION = 1


def data_dir() -> Path:
    """Where the game keeps its files: ``$THIRTYONE_DATA_DIR``, else ``$XDG_DATA_HOME/thirtyone``,
    else ``~/.local/share/thirtyone``."""
    if env := os.environ.get("THIRTYONE_DATA_DIR"):
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "thirtyone"


def default_path() -> Path:
    return data_dir() / "saved-game.json"


@dataclass
class SavedGame:
    rules: Rules
    seed: int
    names: list[str]
    you: int = 0
    journal: list[list[str]] = field(default_factory=list)
    over: bool = False

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "names": self.names,
                "you": self.you,
                "over": self.over,
                "journal": self.journal,
            },
            separators=(",", ":"),
            allow_nan=False,
        )

    @classmethod
    def from_json(cls, text: str, where: str) -> SavedGame:
        def damaged(why: str) -> SaveError:
            return SaveError(f"the saved game at {where} is damaged ({why}); it was left as it is")

        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise damaged(f"not JSON: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise damaged("not a thirtyone save")
        if data.get("version") != VERSION:
            raise SaveError(
                f"the saved game at {where} is of version {data.get('version')!r}, "
                f"this thirtyone reads version {VERSION}"
            )
        try:
            rules = Rules.from_spec(data["rules"])
            seed, names, you = data["seed"], data["names"], data["you"]
            journal, over = data["journal"], data["over"]
        except (KeyError, TypeError) as e:
            raise damaged(f"missing {e}") from None
        except ThirtyOneError as e:
            raise damaged(str(e)) from None
        ok = (
            isinstance(seed, int)
            and isinstance(names, list)
            and len(names) == rules.seats
            and all(isinstance(n, str) for n in names)
            and isinstance(you, int)
            and 0 <= you < rules.seats
            and isinstance(over, bool)
            and isinstance(journal, list)
            and all(
                isinstance(a, list) and 1 <= len(a) <= 2 and all(isinstance(x, str) for x in a)
                for a in journal
            )
        )
        if not ok:
            raise damaged("a field has the wrong shape")
        return cls(rules, seed, names, you, journal, over)


def write(saved: SavedGame, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, flushed, then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".saved-game-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(saved.to_json())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read(path: Path) -> SavedGame:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"there is no saved game at {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SaveError(f"the saved game at {path} cannot be read: {e}") from None
    return SavedGame.from_json(text, str(path))


class Saver:
    """An event listener that writes the game after every turn and every round's end."""

    def __init__(self, saved: SavedGame, game: Game, path: Path) -> None:
        self.saved, self.game, self.path = saved, game, path
        # The journal up to the last whole turn: a turn in progress is not saved.
        self.complete = len(saved.journal)

    def __call__(self, event: Any) -> None:
        if event.kind in ("turn", "round_end", "wash", "game_over"):
            self.complete = len(self.game.journal)
            self.save()

    def save(self) -> None:
        self.saved.journal = [list(a) for a in self.game.journal[: self.complete]]
        self.saved.over = self.game.over
        write(self.saved, self.path)


class Replayer:
    """Wraps a seat's player: plays the journal's actions first, then hands over.

    Every seat is wrapped with the same shared journal, so the game is rebuilt action by action;
    ``on_caught_up`` is called once, when the journal is spent.
    """

    def __init__(
        self,
        player: Player,
        journal: deque[list[str]],
        on_caught_up: Callable[[], None],
    ) -> None:
        self.player = player
        self.name = player.name
        self.journal = journal
        self.on_caught_up = on_caught_up

    def play(self, turn: Turn) -> None:
        if not self.journal:
            self.on_caught_up()
            self.player.play(turn)
            return
        try:
            self._replay(turn)
        except (ThirtyOneError, IndexError) as e:
            raise SaveError(f"the saved game cannot be replayed: {e}") from None

    def _next(self) -> list[str]:
        return self.journal.popleft()

    def _replay(self, turn: Turn) -> None:
        action = self._next()
        if action[0] == "look":
            turn.look()
            if turn.round.is_over:
                return
            action = self._next()
        kind = action[0]
        if kind == "blind":
            turn.call_blind()
        elif kind == "knock":
            turn.knock()
        elif kind == "decline":
            turn.decline()
        elif kind in ("draw", "take"):
            turn.draw() if kind == "draw" else turn.take()
            put = self._next()
            if put[0] not in ("put", "hide") or len(put) != 2:
                raise SaveError(f"the saved game cannot be replayed: {put} after a {kind}")
            turn.put_down(put[1], hide=put[0] == "hide")
        else:
            raise SaveError(f"the saved game cannot be replayed: unknown action {action}")


def resumable(
    players: Sequence[Player], journal: Sequence[list[str]], on_caught_up: Callable[[], None]
) -> list[Player]:
    """The players wrapped to replay ``journal`` first."""
    shared: deque[list[str]] = deque(list(a) for a in journal)
    done = False

    def caught_up() -> None:
        nonlocal done
        if not done:
            done = True
            on_caught_up()

    return [Replayer(p, shared, caught_up) for p in players]
