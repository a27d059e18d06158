"""Bots: the players a seat can be given by name, with their settings.

In:  a bot as written (``random``, ``greedy``, ``solver``, ``mcts:time=0.5``,
     ``mcts:iterations=400,horizon=8``), the option or parameter it was given with (for
     the error); a seed.
Out: ``Bot`` (its kind and settings, and how to write it back), read by ``bot_named``; a
     random, greedy or MCTS agent made from it (``make_agent``; solver and human seats
     are made where seats are made, app/playing.py); what each kind is, in words
     (``BOT_WORDS``).
"""
from __future__ import annotations

from dataclasses import dataclass

from rulewright.compiler.diagnostics import BadInputError, did_you_mean
from rulewright.compiler.interpret import RandomAgent
from rulewright.compiler.play.bots import HORIZON, GreedyAgent, MctsAgent

# kind -> setting -> (type, or the words it may be; what it is; the least value)
SETTINGS: dict[str, dict[str, tuple]] = {
    "random": {},
    "greedy": {"wide": (int, "follow-up choices tried when an option changes nothing yet", 1)},
    "solver": {},
    "mcts": {"time": (float, "seconds a move", 0.001),
             "iterations": (int, "iterations a move (the same game under the same seed)", 1),
             "horizon": (int, "choices a playout goes on for before the estimate is read", 1),
             "explore": (float, "how much the search tries options it knows less", 0.0),
             "rollout": (("random", "greedy"), "how a playout chooses", None)},
    "human": {},
}
BOT_WORDS = {
    "random": "a legal option at random",
    "greedy": "one choice ahead: the option after which the seat stands highest (the spec's estimate)",
    "solver": "the answers of the spec's playing query, on what the seat may see",
    "mcts": "Monte Carlo tree search over what the seat may see (mcts:time=S or mcts:iterations=N)",
    "human": "a person at the terminal",
}


@dataclass(frozen=True)
class Bot:
    """A bot as named: its kind and its settings (name -> value)."""
    kind: str
    settings: tuple[tuple[str, float | str], ...] = ()

    @property
    def text(self) -> str:
        if not self.settings:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={_number_text(v)}" for k, v in self.settings)

    def __str__(self) -> str:
        return self.text


def _number_text(v) -> str:
    if isinstance(v, str):
        return v
    return str(int(v)) if float(v).is_integer() else str(v)


def bot_named(text: str, option: str, kinds=tuple(SETTINGS)) -> Bot:
    """The bot written ``text`` (``NAME[:SETTING=VALUE,...]``); a mistake names ``option``
    and says what would do."""
    written = str(text).strip()
    said = f"{option}{'' if option.endswith('=') else ' '}{written}"
    kind, _, rest = written.partition(":")
    kind = kind.strip().lower()
    if kind not in kinds:
        hint = did_you_mean(kind, kinds) or "bots: " + ", ".join(kinds)
        if kind == "human" and "human" not in kinds:
            hint = "a human seat plays with 'play'"
        raise BadInputError(f"{said}: no bot '{kind}' here ({hint})")
    known = SETTINGS[kind]
    settings: dict[str, float] = {}
    for item in (p for p in rest.split(",") if p.strip()) if rest else ():
        name, sep, raw = item.partition("=")
        name = name.strip().lower()
        if name not in known:
            what = ("it has no settings" if not known else
                    did_you_mean(name, known) or "its settings: " + ", ".join(known))
            raise BadInputError(f"{said}: {kind} has no setting '{name}' ({what})")
        typ, words, least = known[name]
        if isinstance(typ, tuple):
            word = raw.strip().lower()
            if not sep or word not in typ:
                raise BadInputError(f"{said}: {name} is {words}: {' or '.join(typ)}, not {raw.strip()!r}")
            settings[name] = word
            continue
        try:
            value = typ(raw.strip()) if sep else None
        except ValueError:
            value = None
        if value is None or value != value or value in (float("inf"),) or value < least:
            want = "a whole number" if typ is int else "a number"
            raise BadInputError(f"{said}: {name} is {words}: {want} of at least "
                                f"{_number_text(least)}, not {raw.strip()!r}")
        settings[name] = value
    if kind == "mcts" and "time" in settings and "iterations" in settings:
        raise BadInputError(f"{said}: give mcts a time or a number of iterations, not both")
    return Bot(kind, tuple(sorted(settings.items())))


def make_agent(bot: Bot, seed: int):
    """A random, greedy or MCTS agent for ``bot``, from ``seed``."""
    s = dict(bot.settings)
    if bot.kind == "greedy":
        return GreedyAgent(seed, wide=int(s.get("wide", 24)))
    if bot.kind == "mcts":
        return MctsAgent(seed, time=s.get("time"), iterations=int(s["iterations"]) if "iterations" in s else None,
                         horizon=int(s.get("horizon", HORIZON)), explore=s.get("explore", 0.7),
                         rollout=str(s.get("rollout", "random")))
    return RandomAgent(seed)


__all__ = ["BOT_WORDS", "Bot", "SETTINGS", "bot_named", "make_agent"]
