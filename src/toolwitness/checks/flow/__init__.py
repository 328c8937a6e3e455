"""TW-FLOW: toxic flows across one tool, one server or every scanned server (`toxic`), and tool
names that collide across servers (`collisions`)."""
