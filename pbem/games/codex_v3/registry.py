"""Where card behaviour written in Python is registered by name.

Card data names a function where common effects are not enough: an effect
``{"call": "two_step.link"}``, a selector or condition ``{"test": ...}``, a
state ``check`` or a target list's ``prune``. The functions live in the
per-colour modules of ``abilities/`` and register themselves here with the
decorators below; this module imports nothing of the engine, so every
engine module may look names up here without an import cycle.

Signatures (see the README's card author's guide for examples):

* ``effect``  ``fn(ctx, params) -> None``: `ctx` is `effects.Ctx` (state,
  controller, source, chosen targets, chance), `params` the effect's dict.
* ``test``    ``fn(state, seat, src, x) -> bool``: a selector test on `x`
  (a thing ref or structure), or a condition (``x`` is "").
* ``check``   ``fn(state, ref) -> bool``: a state check of a card in play;
  False sacrifices the card (Two Step when a partner is lost).
* ``prune``   ``fn(state, candidates) -> candidates``: fewer targets for
  `legal` to list when many would do the same (never for `apply`).
* ``relation`` ``fn(state, seat, src, earlier, x) -> bool``: whether `x`
  may be a part's pick given the earlier parts' picks (``rel`` of a
  target: "a unit one tech higher than the one sacrificed").

The engine files its own queue steps here too (``step``: ``fn(state,
item, chance)``: combat damage, the turn's phases), so that the queue
runner finds them without importing the modules that define them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

EFFECTS: dict[str, Callable[..., Any]] = {}
TESTS: dict[str, Callable[..., bool]] = {}
CHECKS: dict[str, Callable[..., bool]] = {}
PRUNES: dict[str, Callable[..., list[str]]] = {}
RELATIONS: dict[str, Callable[..., bool]] = {}
STEPS: dict[str, Callable[..., None]] = {}
#: ``effects``: the runner of data effects, for replacements the engine
#: applies (`effects` imports the engine, so the engine finds it here)
RUNNERS: dict[str, Callable[..., None]] = {}

_TABLES = {"effect": EFFECTS, "test": TESTS, "check": CHECKS, "prune": PRUNES, "relation": RELATIONS,
           "step": STEPS, "runner": RUNNERS}


def register(kind: str, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``@register("effect", "two_step.link")``: file `fn` under `name`."""
    table = _TABLES[kind]

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in table and table[name] is not fn:
            raise ValueError(f"{kind} {name!r} is registered twice")
        table[name] = fn
        return fn

    return deco


def get(kind: str, name: str) -> Callable[..., Any]:
    try:
        return _TABLES[kind][name]
    except KeyError:
        raise KeyError(f"no {kind} registered as {name!r} (is its abilities module loaded?)") from None
