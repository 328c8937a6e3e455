"""A tool's capability roles, derived from its name, description and parameter shapes -- never
from its annotations. `derive` is the interface (`tool_roles`, `surface_roles`, `ToolRoles`);
`prose` and `text` analyse descriptions and names, `vocab` loads `data/roles.yaml`.
No check is registered here: `checks.capability` and `checks.flow` consume the roles.
"""
