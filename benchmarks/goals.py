"""The pass/miss words of issue #26's targets, read off the figures of one
run of `python -m benchmarks` (its last table)."""

from __future__ import annotations

from benchmarks import bench_playouts


#: issue #26, target 1: CPU ratio to the import floor per command
COMMAND_GOALS = {"status": 1.0, "legal": 1.3, "show": 1.3, "submit": 2.0, "sync": 2.0}


def command_verdicts(rows: list[tuple]) -> str:
    """The worst CPU ratio of each command of target 1 in section 1 (least
    of its runs against the least of the floor's), with pass/miss."""
    parts = []
    for cmd, goal in COMMAND_GOALS.items():
        ratios = [s.least_cpu / s.least_floor_cpu for _, _, name, s in rows if name.split()[0] == cmd and s.least_floor_cpu]
        if not ratios:
            parts.append(f"{cmd} not measured")
            continue
        parts.append(f"{cmd} {max(ratios):.2f}x (<= {goal}) {'pass' if max(ratios) <= goal else 'miss'}")
    computed = {name.split(",")[0]: max(s.least_cpu / s.least_floor_cpu for _, _, n, s in rows if n == name and s.least_floor_cpu)
                for _, _, name, _ in rows if name.endswith(", computed")}
    if computed:  # legal and show from memory above; the first look after a change computes them
        parts.append("the first look after a change, computed: "
                     + ", ".join(f"{cmd} {ratio:.2f}x" for cmd, ratio in sorted(computed.items())))
    return "; ".join(parts)


def rules_verdict(rows: list[tuple]) -> str:
    """How many cases of section 6b meet their target."""
    judged = [(case, best, before) for case, best, _, _, before in rows if case.goal or before]
    met = [case for case, best, before in judged if best >= (case.goal or before * bench_playouts.TARGET)]
    return f"{len(met)} of {len(judged)} cases at their target: {'pass' if len(met) == len(judged) else 'miss'}"
