"""What one seat may know of a position: the job under ``show --as`` and ``Position.view``.

In:  a position (a played game's state, or one read from a state file with its document,
     path and text), a seat's name, title or number.
Out: ``knowing``: the position with what each seat remembers of the piles it does not
     see (a saved game is played again to its position to work it out); ``view`` and
     ``view_lines``: the seat's view as JSON and as text (``compiler.play.views``);
     ``determinized``: a full position the seat cannot tell from it.
"""
from __future__ import annotations

import random

from rulewright.compiler.diagnostics import BadInputError
from rulewright.app.asking import seat_named
from rulewright.compiler.play import views


def knowing(state, doc: dict | None = None, path: str = "<position>", text: str = ""):
    """``state``, knowing what each seat remembers. A played game's state keeps it as it
    goes; a saved game (its ``resume`` entry) is played again to its checkpoint; a position
    written by hand, or saved at no checkpoint, has seen nothing but what is in view."""
    interp = state.interp
    if state.knowledge is not None or not interp.keeps_knowledge:
        return state
    if not doc or "resume" not in doc or state.stopped is None:
        state.knowledge = _empty(state)
        return state
    from rulewright.compiler.play import resume      # (with the games' modules)
    begin = resume.start(state, doc, path, text)
    try:
        played = resume.play_from(interp, begin, seed=None, stop_at=state.stopped)
    except BadInputError:
        played = None
    if played is None or played.stopped != state.stopped or played.knowledge is None:
        state.knowledge = _empty(state)
        state.warnings.append(f"{path}: the saved game does not replay to its position, so what the seats "
                              "remember of the piles they do not see is not known: only what they see is shown")
        return state
    state.knowledge = played.knowledge
    return state


def _empty(state):
    from rulewright.compiler.interpret.seeing import Knowledge      # (with the game)
    return Knowledge(state.interp.program, state.seats)


def view(state, seat: str, doc: dict | None = None, path: str = "<position>", text: str = "",
         label: str = "seat") -> dict:
    """The seat's view of the position (schema ``rulewright-view/1``, docs/state.md); the
    seat by its name, title or number (``asking.seat_named``: ``label`` names the option)."""
    who = seat_named(seat, state, label).name
    return views.view(knowing(state, doc, path, text), who)


def view_lines(state, seat: str, doc: dict | None = None, path: str = "<position>", text: str = "",
               label: str = "seat") -> list[str]:
    """The seat's view of the position, readably."""
    who = seat_named(seat, state, label).name
    return views.show_view(knowing(state, doc, path, text), who)


def determinized(state, seat: str, seed: int = 0, doc: dict | None = None, path: str = "<position>",
                 text: str = "", label: str = "seat"):
    """A full position the seat cannot tell from this one (``views.determinize``), its
    unseen cards dealt from ``seed``."""
    who = seat_named(seat, state, label).name
    return views.determinize(knowing(state, doc, path, text), who, random.Random(seed))


__all__ = ["knowing", "view", "view_lines", "determinized"]
