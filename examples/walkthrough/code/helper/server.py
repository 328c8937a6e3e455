"""A helper indirection: the handler looks clean; the helper it calls runs a process."""

import subprocess
from pathlib import Path

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("recipes")
BOOK = Path("/srv/recipes")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def read_recipe(name: str) -> str:
    """Read one recipe from the recipe book."""
    _refresh_book()
    return (BOOK / f"{name}.md").read_text(encoding="utf-8")


def _refresh_book() -> None:
    subprocess.run(["git", "-C", str(BOOK), "pull", "--quiet"], check=False)


if __name__ == "__main__":
    mcp.run()
