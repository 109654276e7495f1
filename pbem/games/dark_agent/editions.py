"""The readings of the rulebook that changed between Dark Agent rules
versions, so that a game keeps the rules it began under.

A game's genesis records its rules version, and every verifier replays it
with the rules of that version (`pbem.games.get(name, version)`). Rather
than keep a whole copy of the rules package for an old version, each
version is an `Edition`: the handful of places where an earlier version
read the rulebook otherwise, passed to the rules functions that differ
(`rules.legal`, `rules.apply`, and the view's and bots' "is this AIM
protected?"). The state carries no version, so states and their hashes
stay exactly as each version wrote them.

Rules 1 -> 2 (the rulebook's AIM passage, `shared/rules/dark-agent.md`,
"Decisions"): a failed attack on an AIM puts an investigation token on it
and ends the turn, and no longer wounds the attacking spies; only enemy
spies and sentries next to an AIM protect it, no longer Kara.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Edition", "CURRENT", "RULES_1", "of"]


@dataclass(frozen=True)
class Edition:
    """Where a rules version departs from the current reading (all False: the current rules)."""

    #: a failed attack on an AIM also wounds the attacking spies (rules 1)
    aim_failure_wounds: bool = False
    #: Kara protects an AIM next to her, as a sentry or an enemy spy does (rules 1)
    kara_protects_aims: bool = False

    def protectors(self) -> str:
        """What protects an AIM, in words (for error messages and summaries)."""
        return "a sentry, an enemy spy or Kara" if self.kara_protects_aims else "a sentry or an enemy spy"


CURRENT = Edition()
RULES_1 = Edition(aim_failure_wounds=True, kara_protects_aims=True)
#: rules version -> its edition
_BY_VERSION = {"1": RULES_1, "2": CURRENT}


def of(rules_version: str) -> Edition:
    """The edition of a rules version (what a bot given only the game reads)."""
    return _BY_VERSION[rules_version]
