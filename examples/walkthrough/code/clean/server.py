"""A recipe book: one read-only tool that reads one file. Nothing to report."""

from pathlib import Path

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("recipes")
BOOK = Path("/srv/recipes")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def read_recipe(name: str) -> str:
    """Read one recipe from the recipe book."""
    return (BOOK / f"{name}.md").read_text(encoding="utf-8")


if __name__ == "__main__":
    mcp.run()
