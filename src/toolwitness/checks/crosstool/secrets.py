"""Whose secret does a parameter name ask for?

A server often needs a credential of its own ("api_key", "api_token", "client_secret", a
"db_password"): common and benign, however poorly placed. A person's sign-in material is another
matter: a password, PIN, passcode, card security code, recovery or seed phrase, one-time code,
session cookie or refresh token is what a phishing form asks for. The words come from the WordNet
`secret` slot of `frames.yaml` (password.n.01, personal_identification_number.n.01, passkey.n.01,
countersign.n.01 and the computing words WordNet lacks) and `data/lexicon/crosstool.yaml`; the
name is read as English identifier words whatever the language of the prose around it, and its
last word is its head ("password_policy" is a policy, not a password).
"""

from __future__ import annotations

from functools import lru_cache

from toolwitness.checks.crosstool.tokens import identifier_words
from toolwitness.checks.injection.slots import slots
from toolwitness.checks.text.lexicon import words
from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.plainclass import plainclass
from toolwitness.yamlload import load_yaml


@plainclass(frozen=True)
class SecretWords:
    personal_heads: frozenset[str]  # a head that is a person's secret on its own
    secret_heads: frozenset[str]  # a head a personal modifier turns into one
    personal_modifiers: frozenset[str]
    service_modifiers: frozenset[str]
    keepers: frozenset[str]  # a tool named for keeping secrets may take them


@lru_cache(maxsize=1)
def secret_words() -> SecretWords:
    text = data_files().joinpath("lexicon", "crosstool.yaml")
    doc = load_yaml(text.read_text("utf-8"))
    if not isinstance(doc, dict):
        raise InternalError("lexicon crosstool.yaml is not a mapping")
    src = "crosstool.yaml"
    members = slots().members
    generic = words(doc, "generic_secrets", src)
    return SecretWords(
        personal_heads=(members["secret"] - generic) | words(doc, "card_codes", src),
        secret_heads=words(doc, "secret_heads", src),
        personal_modifiers=words(doc, "personal_modifiers", src),
        service_modifiers=words(doc, "service_modifiers", src),
        keepers=members["secret_keeper"],
    )


@lru_cache(maxsize=4096)  # parameter names repeat across the tools of a server
def personal_secret(name: str) -> bool:
    """Whether a parameter named `name` asks for a person's secret (see the module docstring)."""
    parts = identifier_words(name)
    if not parts:
        return False
    lex = secret_words()
    head, modifiers = parts[-1], parts[:-1]
    if any(m in lex.service_modifiers for m in modifiers):
        return False
    if head in lex.personal_heads:
        return True
    return head in lex.secret_heads and any(m in lex.personal_modifiers for m in modifiers)


def keeps_secrets(tool_words: list[str]) -> bool:
    """A tool whose own name or title names secret keeping (a vault, a password manager, a
    sign-in or unlock step): taking a secret is its purpose."""
    keepers = secret_words().keepers
    return any(w in keepers for w in tool_words)
