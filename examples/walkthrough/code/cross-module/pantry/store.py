"""Storage for the pantry server."""

import json
from pathlib import Path

PANTRY = Path("/srv/pantry.json")
LAST_VIEW = Path("/srv/pantry-last-view.json")


def load_items() -> list[str]:
    items: list[str] = json.loads(PANTRY.read_text(encoding="utf-8"))
    return items


def remember_last_view(items: list[str]) -> None:
    with open(LAST_VIEW, "w", encoding="utf-8") as out:
        json.dump(items, out)
