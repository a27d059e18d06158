"""The reconstructed Darwin's Choice catalogue plays: every biome can be inhabited by
a species built from the box, and every ability counts, is required or is forbidden
somewhere. The spec's own rules (`well_formed`, `meets`, `adaptation_in`) decide."""
import pytest

from helpers import dc, table_state

SLOTS = {"legs": ("front_legs", "back_legs"), "wing": ("wing_site",), "tail": ("tail_site",)}


def catalogue(interp):
    info = interp.program.enums["animal_card"]
    return {k: {c: info.attrs[c][k] for c in info.columns} for k in info.values}


def candidates(cards, biome_info, b, alt):
    """Species aimed at one alternative of a biome's Requirements: every head and body,
    then on each free docking site the card that brings the most missing abilities and
    nothing forbidden."""
    forbids = set(biome_info.attrs["forbids"][b])
    ok = {k: v for k, v in cards.items() if not (set(v["abilities"]) & forbids)}
    heads = [k for k, v in ok.items() if v["part"] == "head"]
    bodies = [k for k, v in ok.items() if v["part"] == "body"]
    for h in heads:
        for body in bodies:
            have = set(ok[h]["abilities"]) | set(ok[body]["abilities"])
            chosen = [h, body]
            sites = set(ok[body]["sites"])
            for part, needs in (("double_legs", SLOTS["legs"]), ("wing", SLOTS["wing"]),
                                ("tail", SLOTS["tail"])):
                if not set(needs) <= sites:
                    continue
                options = [k for k, v in ok.items() if v["part"] == part]
                best = max(options, key=lambda k: (len((set(alt) - have) & set(ok[k]["abilities"])),
                                                  len(ok[k]["abilities"])), default=None)
                if best is not None and (set(alt) - have) & set(ok[best]["abilities"]):
                    chosen.append(best)
                    have |= set(ok[best]["abilities"])
            if set(alt) <= have:
                yield chosen


@pytest.fixture(scope="module")
def interp():
    return dc()


def test_every_biome_can_be_inhabited(interp):
    cards = catalogue(interp)
    binfo = interp.program.enums["biome"]
    homeless = []
    for b in binfo.values:
        st = table_state(interp, {"africa": b}, [])
        found = None
        for alt in binfo.attrs["requires"][b] or [()]:
            for chosen in candidates(cards, binfo, b, alt):
                if not interp.call("well_formed", tuple(chosen), state=st):
                    continue
                s = interp.record("species", id=1, owner=st.seats[0], home="africa", cards=tuple(chosen),
                                  dp=0, acted=False, plants=0, meat=0, prey=0)
                if interp.call("meets", s, "africa", state=st) and \
                        interp.call("adaptation_in", s, "africa", state=st) > 0:
                    found = chosen
                    break
            if found:
                break
        if not found:
            homeless.append(b)
    assert homeless == []


def test_every_ability_matters(interp):
    binfo = interp.program.enums["biome"]
    used = set()
    for b in binfo.values:
        used |= set(binfo.attrs["central"][b]) | set(binfo.attrs["forbids"][b])
        for alt in binfo.attrs["requires"][b]:
            used |= set(alt)
    assert set(interp.program.enums["ability"].values) <= used
    # and each is shown on some card, so a species can have it
    cards = catalogue(interp)
    shown = {a for v in cards.values() for a in v["abilities"]}
    assert set(interp.program.enums["ability"].values) <= shown
