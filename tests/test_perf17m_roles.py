"""Issue 17, sixteenth pass: role derivation's shortcuts give what the full computation gives
(docs/performance.md, "Sixteenth pass")."""

from __future__ import annotations

from unittest import mock

from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolwitness.checks.roles import derive
from toolwitness.checks.roles import prose as role_prose
from toolwitness.checks.roles.vocab import vocabulary
from toolwitness.model import Tool


def _words() -> list[str]:
    vocab = vocabulary()
    words = {w for key in vocab.lemmas for w in key.split()}
    words |= set(vocab.reference_openers) | {"with", "using", "via", "the", "a", "it", "17"}
    words |= {"write_file", "create_employee", "send_mail", ",", ".", ";", "and", "not"}
    return sorted(words)


_LEADS = st.sampled_from(["", "Use write_file to ", "See send_mail; ", "Create it with "])
_TEXTS = st.builds(
    lambda lead, words: lead + " ".join(words),
    _LEADS,
    st.lists(st.sampled_from(_words()), min_size=1, max_size=16),
)


_PROSE_INDEX = role_prose._prose_index


def _every_clause_asked(vocab: object) -> role_prose._ProseIndex:
    index = _PROSE_INDEX(vocabulary())
    return index._replace(underscored=True)  # as if a lemma could hold "_": no gate


@settings(max_examples=1500, deadline=None)
@given(_TEXTS)
@example("Use write_file to delete the files")
@example("Create the record with create_employee first, then delete the old one")
@example("Deletes files. See send_mail to upload them")
def test_reference_gate_changes_no_analysis(text: str) -> None:
    """A text without "_" has no usage-advice clause: skipping `_is_reference` there gives the
    same analysis as asking it of every clause."""
    vocab = vocabulary()
    gated = role_prose._analyse(text, vocab)
    with mock.patch.object(role_prose, "_prose_index", _every_clause_asked):
        every = role_prose._analyse(text, vocab)
    assert gated == every


def test_reference_gate_keeps_advice_about_another_tool() -> None:
    vocab = vocabulary()
    assert not role_prose._analyse("Use write_file to delete it", vocab).hits
    assert role_prose._analyse("Delete the file", vocab).hits


def test_default_vocabulary_lemmas_hold_no_new_underscore() -> None:
    assert not role_prose._prose_index(vocabulary()).underscored


def _tool(name: str, description: str) -> Tool:
    return Tool.model_validate(
        {"name": name, "description": description, "inputSchema": {"type": "object"}}
    )


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_words()), min_size=1, max_size=5).map("_".join))
def test_name_objects_inlined(name: str) -> None:
    """`_name_signals` finds the same verb objects as the test it inlined (`_is_object`)."""
    vocab = vocabulary()
    index = derive._role_index(vocab)

    def is_object(token: str, objects: frozenset[str]) -> bool:
        if token in objects:
            return True
        return (
            "*" in objects
            and token not in vocab.verbs
            and token not in vocab.pure_objects
            and len(token) > 1
            and not token.isdigit()
        )

    tokens = [vocab.lemmas.get(t, t) for t in name.split("_") if t]
    found = derive._name_signals(tokens, 0, vocab, index)
    for signal in found:
        if " … " in signal.term:
            verb, obj = signal.term.split("'")[1].split(" … ")
            rules = [r for r in index.by_verb.get(verb, ()) if r.role == signal.role]
            assert any(is_object(obj, r.objects) for r in rules)


def test_analyses_per_tool_share_the_text_cache() -> None:
    """Equal texts of different tools are analysed once (counted, not timed)."""
    role_prose._default_analysis.cache_clear()
    text = "Deletes every file in the folder it is given (perf17m test text)."
    tools = [_tool(f"tool_{i}", text) for i in range(5)]
    with mock.patch.object(role_prose, "_analyse", wraps=role_prose._analyse) as analysed:
        roles = [derive.derive_roles(t, i) for i, t in enumerate(tools)]
    assert [c.args[0] for c in analysed.call_args_list].count(text) == 1
    assert all(r.has("destructive") for r in roles)
