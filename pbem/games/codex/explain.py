"""`explain`: a command in words for the seat about to send it."""

from __future__ import annotations

from pbem.games.codex import board, cards, values
from pbem.games.codex.commands import (
    Attack,
    Build,
    Choose,
    Command,
    End,
    Hire,
    Level,
    Play,
    Repair,
    Summon,
    Tech,
    Use,
    answer_text,
    known_card,
)
from pbem.games.codex.state import State


def explain(cmd: Command, state: State, seat: str) -> str:
    text = _explain(cmd, state, seat)
    return text if len(text) < 160 else text[:155].rstrip() + "..."


def _explain(cmd: Command, state: State, seat: str) -> str:
    def name(ref: str) -> str:
        return known_card(state, ref, seat) or "a card"

    def tgt(t: str) -> str:
        return board.name_of(state, t) if t else "nothing"

    match cmd:
        case Tech(cards=refs, choices=ch):
            text = "tech " + (", ".join(name(r) for r in refs) or "nothing") + " into your discard pile"
            return text + (f"; resolve first: {', '.join(tgt(f) for f in ch.first)}" if ch.first else "")
        case Hire(ref=ref):
            return f"pay 1 gold and put {name(ref)} face down as a new worker"
        case Build(building=b):
            return f"start building a {cards.BUILDINGS[b]['name']} (finished at the end of your turn)"
        case Summon(hero=hero_name):
            c = cards.CARDS[hero_name]
            return f"summon {hero_name} for {c.cost} gold: it arrives at level 1, {c.atk}/{c.hp}"
        case Level(times=n):
            return f"pay {n} gold to level your hero up {n} time(s)"
        case Play(ref=ref, targets=targets, top=top):
            n = name(ref)
            text = f"play {n}" + (f" on {', '.join(tgt(t) for t in targets)}" if targets else "")
            if n in cards.CARDS:
                text += f" - {cards.CARDS[n].text}"
            return text + (" Then put it on top of your draw pile." if top else "")
        case Use(source=src, ability=ab, targets=targets):
            return f"{tgt(src)}: {ab}" + (f" on {', '.join(tgt(t) for t in targets)}" if targets else "")
        case Attack(attacker=a, target=t):
            return f"{tgt(a)} ({values.atk(state, a)} ATK) attacks {tgt(t)}"
        case Choose(answers=answers):
            q = state.prompt
            return (f"{q.what}: " if q else "answer: ") + ", ".join(answer_text(state, seat, x) for x in answers)
        case End(patrol=slots, lend=lent):
            placed = [f"{s}: {tgt(r)}" for s, r in zip(cards.SLOTS, slots) if r]
            loans = "".join(f"; lend {tgt(x.ref)} to {x.to} ({cards.SLOTS[x.slot]})" for x in lent)
            return "end the main phase; patrol: " + ("; ".join(placed) or "nobody") + loans + \
                ". Then discard your hand and draw."
        case Repair(n=n):
            return f"pay {3 * n} gold to repair {n} damage of your base"
    return str(cmd)
