"""Terse English (nouns and verbs, few function words) is English; other languages' sentences
on the same subject are not (`checks.text.english`)."""

from __future__ import annotations

import pytest

from toolwitness.checks.text.english import in_another_language, is_english_prose


@pytest.mark.parametrize("text", [
    "Create a new support ticket in the help desk and return its id. Scope: help desk region 4.",
    "Search the billing system for invoices whose title or body matches the query.",
    "List the bookings in the travel desk, newest first, 38 per page at most.",
])  # fmt: skip
def test_terse_english_is_english(text: str) -> None:
    assert is_english_prose(text)
    assert not in_another_language(text)


@pytest.mark.parametrize("text", [
    "Crea un nuevo ticket de soporte en la mesa de ayuda y devuelve su id.",
    "Maak een nieuw ticket aan in de helpdesk en geef het id terug.",
    "Erstellt ein neues Ticket im Helpdesk und gibt die ID zurück.",
    "Crée un nouveau ticket dans le support et renvoie son identifiant.",
    "Buat tiket dukungan baru di meja bantuan dan kembalikan id-nya.",
    "Cria um novo chamado de suporte na central de ajuda e devolve o seu id.",
])  # fmt: skip
def test_other_languages_stay_other(text: str) -> None:
    assert not is_english_prose(text)
    assert in_another_language(text)
