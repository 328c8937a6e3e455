"""The fast paths of role derivation agree with the plain definitions they replace."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.checks.roles import prose as role_prose
from toolwitness.checks.roles import text as role_text
from toolwitness.checks.roles.text import Clause
from toolwitness.checks.roles.vocab import RoleVocabulary, vocabulary

_ASCII = st.text(alphabet=st.characters(max_codepoint=127), max_size=40)
_MIXED = st.text(
    alphabet=st.sampled_from([*string.printable, ".", " ", "(", "'", "`", "\u00a0", "\u2028", "é"]),
    max_size=40,
)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(_ASCII, _MIXED))
def test_dot_word_scan_matches_the_regex(line: str) -> None:
    assert role_text._has_dot_word(line) == bool(role_text._DOT_WORD.search(line))


@settings(max_examples=3000, deadline=None)
@given(_ASCII)
def test_ascii_words_match_the_word_regex(line: str) -> None:
    assert role_text._ascii_words(line) == role_text._WORD.findall(line)


def test_dot_word_examples() -> None:
    assert role_text._has_dot_word("reads (.env first")
    assert role_text._has_dot_word(".ssh keys")
    assert not role_text._has_dot_word("json. use it")
    assert not role_text._has_dot_word("x(.env")


def _naive_object_after(
    tokens: tuple[str, ...], at: int, objects: frozenset[str], vocab: RoleVocabulary
) -> str | None:
    """The definition: every adjacent pair is lemmatised and looked up, then the token."""
    span = range(at + 1, min(len(tokens), at + 1 + vocab.object_window))
    if span and tokens[span[0]] in vocab.back_references:
        span = range(at - 1, max(-1, at - 1 - vocab.object_window), -1)
    for j in span:
        if j + 1 < len(tokens):
            pair = vocab.lemma(f"{tokens[j]} {tokens[j + 1]}")
            if pair in objects:
                return pair
        if tokens[j] in objects:
            return tokens[j]
    return None


def _words() -> list[str]:
    vocab = vocabulary()
    words = {w for key in vocab.lemmas for w in key.split()}
    words |= set(vocab.back_references) | {"the", "a", "17", "it"}
    return sorted(words)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_words()), min_size=1, max_size=14), st.data())
def test_pair_head_gate_finds_the_same_objects(tokens: list[str], data: st.DataObject) -> None:
    vocab = vocabulary()
    at = data.draw(st.integers(0, len(tokens) - 1))
    clause = Clause(tuple(tokens), True)
    for rule in vocab.rules:
        if rule.objects:
            expected = _naive_object_after(clause.tokens, at, rule.objects, vocab)
            assert role_prose.object_after(clause, at, rule.objects, vocab) == expected


def test_two_word_objects_are_still_found() -> None:
    vocab = vocabulary()
    clause = Clause(("read", "the", "private", "keys"), True)
    secret = next(r for r in vocab.rules if r.role == "credential-access" and r.objects)
    assert role_prose.object_after(clause, 0, secret.objects, vocab) == "private key"


def _split_then_match(name: str) -> list[str]:
    """The definition: split on separators, then camelCase runs inside each part."""
    out: list[str] = []
    for part in role_text._NAME_SPLIT.split(role_text.nfc(name)):
        out.extend(m.group(0).lower() for m in role_text._CAMEL.finditer(part))
    return out


_NAMEISH = st.text(
    alphabet=st.sampled_from(
        [*string.ascii_letters, *string.digits, "_", "-", ".", " ", "é", "\u0301"]
    ),
    max_size=30,
)


@settings(max_examples=3000, deadline=None)
@given(_NAMEISH)
def test_name_tokens_match_split_then_camel(name: str) -> None:
    assert list(role_text._name_tokens(name)) == _split_then_match(name)


def test_fast_constructors_build_the_same_records() -> None:
    from toolwitness.checks.roles import derive as roles

    assert not hasattr(roles.RoleSignal, "__post_init__")
    assert not hasattr(roles.ToolRoles, "__post_init__")
    fast = roles._signal("network", "name", "name token 'http'", "tools[0].name")
    plain = roles.RoleSignal("network", "name", "name token 'http'", "tools[0].name")
    assert fast == plain and hash(fast) == hash(plain) and vars(fast) == vars(plain)
    assert list(vars(fast)) == list(vars(plain))
    built = roles._tool_roles("t", 3, (plain,), ())
    assert vars(built) == vars(roles.ToolRoles(tool="t", index=3, signals=(plain,), params=()))
    value = roles.ParamValue("op", "tools[3].inputSchema.properties.op.default", "default", "x")
    built = roles._tool_roles("t", 3, (plain,), (), (value,), True)
    expected = roles.ToolRoles("t", 3, (plain,), (), values=(value,), read_only=True)
    assert vars(built) == vars(expected) and list(vars(built)) == list(vars(expected))
    assert built.roles == ("network",) and built.has("network")


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", ".", "x", "y"]), max_size=30), st.data())
def test_positions_of_lists_every_wanted_index(tokens: list[str], data: st.DataObject) -> None:
    wanted = data.draw(st.frozensets(st.sampled_from(["a", "b", "c", ".", "x", "y", "z"])))
    expected = [i for i, t in enumerate(tokens) if t in wanted]
    assert role_text.positions_of(tuple(tokens), wanted) == expected


class _Everything(frozenset[str]):
    """A partner set that meets every clause: turns the partner gate off."""

    def isdisjoint(self, other: object) -> bool:
        return False


_PROSE_WORDS = [
    *_words()[:400],
    "service",
    "account",
    "private",
    "key",
    "not",
    "and",
    ",",
    "it",
    "reads",
    "returns",
    "deletes",
]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PROSE_WORDS), min_size=1, max_size=20))
def test_partner_gate_never_hides_a_two_word_object(words: list[str]) -> None:
    vocab = vocabulary()
    text = " ".join(words)
    gated = role_prose._analyse(text, vocab)
    index = role_prose._prose_index(vocab)
    ungated = {
        verb: tuple(
            entry._replace(partners={h: _Everything() for h in entry.partners}) for entry in entries
        )
        for verb, entries in index.by_verb.items()
    }
    key = id(vocab)
    saved = role_prose._INDEX[key]
    role_prose._INDEX[key] = (vocab, index._replace(by_verb=ungated))
    try:
        assert role_prose._analyse(text, vocab) == gated
    finally:
        role_prose._INDEX[key] = saved


def test_prose_still_finds_two_word_objects() -> None:
    hits = role_prose._analyse("Reads the private key, then returns it.", vocabulary()).hits
    assert "'read … private key'" in {term for _, term in hits}
    assert "'return … private key'" in {term for _, term in hits}


def test_parameter_called_title_keeps_its_own_location() -> None:
    from toolwitness.checks.roles.derive import derive_roles
    from toolwitness.model import Tool

    schema = {"properties": {"title": {"type": "integer", "description": "Deletes every file."}}}
    derived = derive_roles(Tool.model_validate({"name": "x", "inputSchema": schema}), 2)
    locations = {s.location for s in derived.signals}
    assert locations == {"tools[2].inputSchema.properties.title.description"}


def test_only_the_first_256_parameter_descriptions_are_read() -> None:
    from toolwitness.checks.roles.derive import derive_roles
    from toolwitness.model import Tool

    props: dict[str, object] = {f"p{i:03d}": {"type": "integer"} for i in range(300)}
    props["p255"] = {"type": "integer", "description": "Deletes every file."}
    props["p256"] = {"type": "integer", "description": "Uploads the file to a server."}
    derived = derive_roles(
        Tool.model_validate({"name": "x", "inputSchema": {"properties": props}}), 0
    )
    assert {s.location for s in derived.signals} == {
        "tools[0].inputSchema.properties.p255.description"
    }


_VOCAB_WORDS = sorted({*vocabulary().verbs, *list(vocabulary().lemmas)[:400], "Tool", "5"})
_PROSE = st.lists(
    st.one_of(
        st.sampled_from(_VOCAB_WORDS),
        st.sampled_from(["DELETES", "Reads’", "~/.ssh/id_rsa", "https://x.y", "read-only", "’s"]),
        _MIXED,
    ),
    max_size=12,
).map(" ".join)


@settings(max_examples=2000, deadline=None)
@given(_PROSE)
def test_prose_prefilter_gives_the_unfiltered_analysis(text: str) -> None:
    """A text without any surface form of a verb, kept word or marker head analyses to nothing;
    with the prefilter forced open, every analysis is the same."""
    vocab = vocabulary()
    index = role_prose._prose_index(vocab)
    filtered = role_prose._analyse(text, vocab)
    role_prose._INDEX[id(vocab)] = (vocab, index._replace(may_matter=lambda lower: True))
    try:
        assert role_prose._analyse(text, vocab) == filtered
    finally:
        role_prose._INDEX[id(vocab)] = (vocab, index)


def test_prose_prefilter_skips_plain_titles_and_keeps_inflected_verbs() -> None:
    vocab = vocabulary()
    index = role_prose._prose_index(vocab)
    assert not index.may_matter("tool 5")
    assert index.may_matter("reads record 5")
    # "analysing" does not contain its lemma "analyse": only the inflected form can let it in
    for text in ("Analysing the api key.", "ANALYSING the bearer token."):
        assert role_prose._analyse(text, vocab).hits, text
