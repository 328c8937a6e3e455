"""TW-CAP-014/015: what a tool says it is for, against what its parameters and values let it do.

The *purpose* is what the tool's name, title and description say: the roles they give
(`checks/roles/`) and their words. The *capability* is a parameter's shape (what a parameter of
that shape lets a tool do, `roles.yaml` capabilities) or a value the schema offers (a default or
enum member read as an action: "unlink", "drop_table", "rm -rf /"). A capability no role of the
purpose accounts for, and whose words the purpose never uses, is what a reviewer and a client are
not told: a "weather card" taking `shell_command`, a unit converter taking `webhook`.

A credential parameter is accounted for by any role (a service client takes its token with every
call) and by the server's own habit: when most of its tools take the same credential parameter,
that is how the service authenticates, not something one tool slipped in.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from toolwitness.checks.capability.claims_elsewhere import claims_read_only, deleting_word
from toolwitness.checks.roles.derive import ParamShape, ParamValue, ToolRoles, value_roles
from toolwitness.checks.roles.text import clauses, name_tokens
from toolwitness.checks.roles.vocab import RoleVocabulary
from toolwitness.checks.text.english import in_another_language
from toolwitness.model import Tool
from toolwitness.plainclass import plainclass

MUTATING = frozenset({"destructive", "file-write", "state-write", "code-exec"})
# Roles a value can name that a read-only purpose never accounts for.
VALUE_ROLES = ("destructive", "code-exec")
EXEC_SHAPES = frozenset({"command", "code", "environment"})
EGRESS_SHAPES = frozenset({"url", "webhook", "recipient"})
_MIN_WORD = 3  # shorter tokens ("to", "id") say nothing about what a parameter is


@plainclass(frozen=True)
class Purpose:
    roles: frozenset[str]  # roles given by the name, title or description
    words: frozenset[str]  # their lemmatised words
    inert: bool  # it says it only reads, computes or presents
    location: str  # where the purpose is stated (description, else name)
    text: str  # the first clause of what it says, for the witness


@plainclass(frozen=True)
class Mismatch:
    param: ParamShape
    shape: str
    does: str
    full: bool  # False: a URL named without a verb ("base_url"), reported low


@plainclass(frozen=True)
class Habits:
    names: frozenset[str] = frozenset()  # see `server_habits`
    explained: frozenset[tuple[str, str]] = frozenset()  # (name, shape) some purpose accounts for


NO_HABITS = Habits()


@plainclass(frozen=True)
class ValueAction:
    value: ParamValue
    role: str
    term: str


def _purpose_fields(index: int) -> frozenset[str]:
    return frozenset(f"tools[{index}].{field}" for field in ("name", "title", "description"))


def purpose_of(tool: Tool, roles: ToolRoles, vocab: RoleVocabulary) -> Purpose:
    fields = _purpose_fields(roles.index)
    said = frozenset(s.role for s in roles.signals if s.location in fields)
    lemma = vocab.lemma
    name = [lemma(t) for t in name_tokens(tool.name)]
    words = set(name)
    first_words: list[str] = name[:1]
    for text in (tool.title, tool.description):
        if text:
            parts = clauses(text, vocab)
            for clause in parts:
                words.update(clause.tokens)
            if parts and parts[0].tokens:
                first_words.append(parts[0].tokens[0])
    inert = (roles.read_only or any(w in vocab.inert_verbs for w in first_words)
             or claims_read_only(tool.description or tool.title))  # (in another language)
    described = tool.description or tool.title
    where = "description" if tool.description else ("title" if tool.title else "name")
    # A blank description ("\r") has no first line: fall back to the name.
    shown = next(iter((described or "").strip().splitlines()), "") or tool.name
    return Purpose(
        roles=said,
        words=frozenset(words),
        inert=inert and said.isdisjoint(MUTATING),
        location=f"tools[{roles.index}].{where}",
        text=shown[:120],
    )


def _shape_words(shape: str, vocab: RoleVocabulary) -> frozenset[str]:
    rule = vocab.shapes[shape]
    said = vocab.capabilities[shape].said_by if shape in vocab.capabilities else frozenset()
    return frozenset(w for w in rule.names | rule.last_token if "_" not in w) | said


def _said(param: ParamShape, shape: str, purpose: Purpose, vocab: RoleVocabulary) -> bool:
    """The purpose uses the parameter's own words, or a word for its shape: it says so."""
    own = {vocab.lemma(t) for t in name_tokens(param.name) if len(t) >= _MIN_WORD}
    own -= vocab.pure_objects
    return not purpose.words.isdisjoint(own | _shape_words(shape, vocab))


def server_habits(all_roles: tuple[ToolRoles, ...]) -> frozenset[str]:
    """Shaped parameter names that most of a server's tools take (two or more of them): the
    server's own convention (`repo_path` on every git tool, `api_token` on every call)."""
    counts = Counter(name for roles in all_roles for name in {p.name for p in roles.params})
    half = len(all_roles) / 2
    return frozenset(n for n, c in counts.items() if c >= 2 and c >= half)


def mismatches(
    roles: ToolRoles, purpose: Purpose, habits: Habits, vocab: RoleVocabulary
) -> list[Mismatch]:
    """Shaped parameters the purpose does not account for, one per parameter. A parameter the
    server habitually takes is accounted for when it is a credential, or when some tool's
    purpose accounts for it (`Habits.explained`)."""
    out: list[Mismatch] = []
    for param in roles.params:
        for shape in sorted(param.shapes):
            capability = vocab.capabilities.get(shape)
            if capability is None or not purpose.roles.isdisjoint(capability.explained_by):
                continue
            if param.name in habits.names and (
                shape == "credential" or (param.name, shape) in habits.explained
            ):
                continue
            tokens = [vocab.lemma(t) for t in name_tokens(param.name)]
            joined = "_".join(tokens)
            if joined in capability.except_names:
                continue
            if capability.last_token is not None and not (
                joined in vocab.shapes[shape].names
                or (tokens and tokens[-1] in capability.last_token)
            ):
                continue
            if _said(param, shape, purpose, vocab):
                continue
            full = not capability.needs_verb or not vocab.verbs.isdisjoint(tokens)
            out.append(Mismatch(param, shape, capability.does, full))
            break
    return out


def value_actions(
    roles: ToolRoles, purpose: Purpose, vocab: RoleVocabulary, read_only: bool = False
) -> Iterator[ValueAction]:
    """Offered values that name a destructive or executing action the purpose never states.
    For a tool declared read-only, a value it takes when the caller says nothing (a `default`
    or `const`) that writes, sends or is a command line is one too: what the tool does on
    every call, which a read-only tool never does."""
    for value in roles.values:
        if value.keyword == "flag":
            # a switch on by default in a tool declared read-only, named for an act that
            # writes, sends, deletes or runs: what every call does unless told otherwise
            found = next(((role, term) for role, term in _switch_roles(value, vocab)
                          if read_only and role in FLAG_ROLES and role not in purpose.roles),
                         None)  # fmt: skip
            if found is not None:
                yield ValueAction(value, *found)
            elif (read_only and in_another_language(purpose.text)
                  and (term := deleting_word(value.value)) is not None):  # fmt: skip
                # named for deleting in the language the tool speaks ("supprimer_apres",
                # "eliminar_vacios"); an English tool's switch never loads the other languages
                yield ValueAction(value, "destructive", f"'{term}' (deleting, in another language)")
            elif read_only and in_another_language(value.note):
                # what the switch does is said in a language the role reader does not read:
                # the read-only claim rests on a switch nothing here verified
                yield ValueAction(value, UNREAD, "described in a language not read here")
            continue
        fixed = read_only and value.keyword in _FIXED
        allowed = VALUE_ROLES + READ_ONLY_VALUE_ROLES if fixed else VALUE_ROLES
        for role, term in value_roles(value.value, vocab):
            if role in READ_ONLY_VALUE_ROLES and not _an_action(value):
                continue
            if role in allowed and role not in purpose.roles:
                yield ValueAction(value, role, term)
                break
        else:
            if fixed and _COMMAND_LINE.match(value.value.strip()):
                yield ValueAction(value, "code-exec", "a command line with options")


def _switch_roles(value: ParamValue, vocab: RoleVocabulary) -> list[tuple[str, str]]:
    """What a switch on by default does, read from its name (`submit`, `rotate_after`); a name
    that is a lone verb takes its object from its own description when that opens with the
    same verb (`create`: "Create a silence for the matcher", `apply`: "Apply `policy` to the
    bucket"): the description completes the name, the way a tool's name takes an object."""
    found = value_roles(value.value, vocab)
    named = name_tokens(value.value)
    if found or len(named) != 1 or not value.note:
        return found
    said = name_tokens(value.note[:_SWITCH_NOTE])
    if said[:1] != named or vocab.lemma(said[0]) not in vocab.verbs:
        return []
    return value_roles(" ".join(said[:_SWITCH_WORDS]), vocab)


_SWITCH_NOTE = 160  # the opening of a switch's description: where its verb phrase is
_SWITCH_WORDS = 6  # the verb and its object ("apply policy to the bucket")
_FIXED = ("default", "const")
UNREAD = "unread"  # the role of a switch whose description this check cannot read


# What a switch that is on by default may not do in a tool declared read-only.
FLAG_ROLES = ("destructive", "external-sink", "code-exec", "state-write", "file-write")
# Parameter name words for what the tool does next ("action", "post_hook", "after_render",
# "on_view"): a one-word value there is an act; elsewhere ("channel": "email") it is a label.
_ACTION_SLOTS = frozenset({"action", "actions", "hook", "hooks", "on", "after", "post", "then",
                           "do", "op", "operation", "step", "task", "command"})  # fmt: skip


def _an_action(value: ParamValue) -> bool:
    """A value that reads as an act: several words (`disable_alarm`, a sentence, a statement)
    or one word in a parameter named for what to do (see `_ACTION_SLOTS`)."""
    if len(name_tokens(value.value)) >= 2:
        return True
    return not _ACTION_SLOTS.isdisjoint(name_tokens(value.param))
# What a read-only tool's default or const may not name besides VALUE_ROLES.
READ_ONLY_VALUE_ROLES = ("state-write", "external-sink", "file-write")
# A program and two or more options: "tool_ctl --open --force", "purge_all --yes -r", in any
# language (the options are the structure, not the words).
_COMMAND_LINE = re.compile(
    r"[A-Za-z][\w.\-/]*(?:\s+[^\s-]\S*)*(?:\s+--?[A-Za-z][\w-]*(?:=\S+)?){2,}"
)


def habits_of(
    tools: tuple[Tool, ...], all_roles: tuple[ToolRoles, ...], vocab: RoleVocabulary
) -> Habits:
    """The server's habits, and which habitual parameters some tool's purpose accounts for."""
    names = server_habits(all_roles)
    if not names:
        return NO_HABITS
    explained: set[tuple[str, str]] = set()
    for tool, roles in zip(tools, all_roles, strict=True):
        if names.isdisjoint(p.name for p in roles.params):
            continue
        unexplained = {
            (m.param.name, m.shape)
            for m in mismatches(roles, purpose_of(tool, roles, vocab), NO_HABITS, vocab)
        }
        explained.update(
            (p.name, shape)
            for p in roles.params
            if p.name in names
            for shape in p.shapes
            if (p.name, shape) not in unexplained
        )
    return Habits(names, frozenset(explained))
