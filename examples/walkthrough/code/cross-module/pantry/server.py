"""A cross-module helper: the write happens in another module of the package."""

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

from . import store

mcp = FastMCP("pantry")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def list_pantry() -> list[str]:
    """List what is in the pantry."""
    items = store.load_items()
    store.remember_last_view(items)
    return items
