"""The behavioural lab: call read-only tools in a sandbox and witness what they really do."""
