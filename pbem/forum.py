"""`pbem outbox DIR --as NAME --forum`: the files the other parties lack,
as a forum post (Markdown) with a summary of them anyone may read.

The files are those `pbem outbox --armor` prints (`delivery.outbox`, for
every other party or the one `--to` names); the summary is built from the
chain's public records alone (`pbem.render.forum`): no key is read, so a
post never shows a hidden card, whoever writes it. The other players take
a post in with `pbem apply`, as the text copied from the forum page, the
post's Markdown, or the page saved as HTML (`pbem.transport.armor`).
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.protocol.chain import Chain


def post(folder: Path, chain: Chain, name: str, to: str | None = None) -> str:
    """The Markdown post of what the other parties of `chain` lack."""
    from pbem import actions, delivery
    from pbem.protocol import folder as folder_mod
    from pbem.render import forum

    owed = delivery.outbox(folder, chain, name, to)
    if not owed:
        raise PbemError("nothing to post: a hotseat game stays in this folder")
    paths = sorted({p for o in owed for p in o.files})
    if not paths:
        raise PbemError("nothing to post: every other party has every file", hint="pbem outbox DIR --as NAME says who has what")
    posted = set(paths)
    seqs = {r.seq for r in chain.records if folder / (r.name or folder_mod.turn_name(r.seq, r.by)) in posted}
    entries = [e for e in actions.log_entries(chain, min(seqs))["files"] if e["seq"] in seqs]
    records = {r.seq: r for r in chain.records}
    steps = [forum.Action(e["seq"], e["by"], "; ".join(e["what"]) or "writes a file",
                          _gold(chain, records[e["seq"]])) for e in entries]
    board = chain.game.view(chain.public, None) if chain.public is not None else None
    return forum.render(forum.Post(
        title=chain.game.info.title,
        game_id=chain.game_id,
        poster=name,
        actions=steps,
        board=board,
        board_text=chain.game.presentation.render(board) if board is not None else "",
        next_lines=[] if chain.over else actions.to_act_lines(actions.status(chain)),
        outcome=chain.outcome().reason if chain.over else None,
        armored=delivery.armor_files(paths),
        readers=[o.party for o in owed if o.files],
    ))


def _gold(chain: Chain, record) -> tuple[int, int] | None:
    """A Codex seat's gold before and after its own file (None elsewhere)."""
    from pbem.render.forum import is_codex

    if record.before is None or record.after is None or record.by not in chain.seats:
        return None
    before, after = chain.game.view(record.before, None), chain.game.view(record.after, None)
    if not is_codex(after):
        return None
    gold = [next((s.gold for s in v.sides if s.seat == record.by), None) for v in (before, after)]
    return None if None in gold else (gold[0], gold[1])
