"""Property tests over every parser (issue #7 part 9): whatever the input
(random bytes, text in any script, control characters, very long input,
JSON of the right shape with wrong types, huge integers, long lists, deep
nesting, a real file's body mutated and re-signed by its writer's real key),
pbem parses it or raises a PbemError: never another exception.

The targets are in tests/fuzzing.py (the coverage-guided fuzzer in fuzz/
runs the same ones). ``PBEM_LONG=1`` runs many more examples.
"""

from __future__ import annotations

import os

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzzing
import tamper
from pbem.crypto.encoding import FORMAT

LONG = os.environ.get("PBEM_LONG") == "1"
FAST = settings(max_examples=2000 if LONG else 60, deadline=None, derandomize=not LONG,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TARGETS = sorted(fuzzing.TARGETS)

#: JSON leaves that break assumptions: wrong types, huge and negative
#: integers, odd strings (unicode, control characters, long)
leaves = st.one_of(
    st.none(), st.booleans(),
    st.integers(), st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**100, -1, 0]),
    st.text(max_size=40), st.sampled_from(["", "\x00", "\u202e", "a" * 100_000, "pbem/1", "turn", "alice", "A" * 43]),
)
json_values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(st.sampled_from(["t", "ref", "zones", "items", "readers", "seq", "body", "x"]) | st.text(max_size=8), inner, max_size=6),
    ),
    max_leaves=30,
)
#: long lists: many of one element
long_lists = st.builds(lambda v, n: [v] * n, leaves, st.sampled_from([1000, 20_000]))


def clean(target: str, data: bytes) -> None:
    fuzzing.run(target, data)  # anything but a PbemError propagates and fails


@pytest.mark.parametrize("target", TARGETS)
@FAST
@given(data=st.binary(max_size=2000))
def test_random_bytes(target, data):
    clean(target, data)


@pytest.mark.parametrize("target", TARGETS)
@FAST
@given(text=st.text(max_size=300) | st.sampled_from(["\x00" * 50, "\r\n" * 50, "\u0000play", "play " + "é" * 10_000, "x" * 1_000_000]))
def test_any_text(target, text):
    clean(target, text.encode("utf-8", errors="surrogatepass"))


@pytest.mark.parametrize("target", TARGETS)
@FAST
@given(kind=st.sampled_from(["genesis", "turn", "identity", "secret-key", "state", None]),
       body=json_values | long_lists, extra=st.dictionaries(st.text(max_size=5), json_values, max_size=3))
def test_file_shaped_json_with_wrong_contents(target, kind, body, extra):
    """The outer shape of a pbem file, any contents."""
    obj = {"format": FORMAT, "kind": kind, "by": "alice", "body": body, "sig": "A" * 86, **extra}
    clean(target, msgspec.json.encode(obj) + b"\n")


def _nodes(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _nodes(v, path + (i,))


@FAST
@given(data=st.data())
def test_real_files_with_a_part_replaced_and_re_signed(data):
    """Structure-aware: a real signed file, one node of its body replaced
    by any JSON value, signed again by its writer's real key."""
    target, file, secrets = data.draw(st.sampled_from(fuzzing.signed_seeds()), label="seed")
    outer, body = tamper.decode(file)
    path = data.draw(st.sampled_from(list(_nodes(body))[1:]), label="path")
    value = data.draw(json_values | long_lists, label="value")
    new = tamper.Mutation(path, "change", value).apply(body)
    clean(target, tamper.signed(outer.kind, tamper.encode_body(new), outer.by, secrets[outer.by]))


@FAST
@given(data=st.data())
def test_real_unsigned_files_with_a_part_replaced(data):
    """Structure-aware, for the files that carry no signature: a key file
    and a state.pbem, one node replaced by any JSON value."""
    target = data.draw(st.sampled_from(["key", "state"]))
    seed = data.draw(st.sampled_from(fuzzing.seeds()[target]))
    obj = msgspec.json.decode(seed)
    path = data.draw(st.sampled_from(list(_nodes(obj))[1:]), label="path")
    value = data.draw(json_values, label="value")
    new = tamper.Mutation(path, "change", value).apply(obj)
    clean(target, msgspec.json.encode(new) + b"\n")


@pytest.mark.parametrize("target", TARGETS)
def test_the_seeds_are_clean(target):
    """The fuzzers start from valid files, which every target takes."""
    for data in fuzzing.seeds()[target]:
        fuzzing.TARGETS[target](data) if target != "notation" else fuzzing.run(target, data)


@pytest.mark.parametrize("target", TARGETS)
def test_deep_nesting(target):
    deep = b"[" * 1000 + b"]" * 1000
    for data in (deep, b'{"format":"pbem/1","kind":"turn","by":"alice","body":' + deep + b',"sig":"AA"}'):
        clean(target, data)
    for tgt, file, secrets in fuzzing.signed_seeds():
        if tgt == target:
            outer, _ = tamper.decode(file)
            clean(target, tamper.signed(outer.kind, b'{"x":' + deep + b"}", outer.by, secrets[outer.by]))
